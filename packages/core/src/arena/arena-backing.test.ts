import { describe, expect, it } from 'vitest';
import { OpResolver } from '../resolver/op-resolver.js';
import type { Registration } from '../kernel/api.js';
import { ArenaTooSmallError, MicrortError } from '../errors.js';
import { MicroInterpreter } from '../interpreter/micro-interpreter.js';
import { TestLinearPlanner, addConstKernel, chainModel } from '../interpreter/__fixtures__/tiny-models.js';
import { SingleArenaBufferAllocator, type ArenaBacking } from './single-arena-buffer-allocator.js';

/** A backing that hands out page-rounded buffers (like a WebAssembly.Memory) and records the requests. */
function pageBacking(): ArenaBacking & { requests: number[]; buffers: ArrayBuffer[] } {
  const requests: number[] = [];
  const buffers: ArrayBuffer[] = [];
  return {
    name: 'test pages',
    requests,
    buffers,
    allocate(bytes: number) {
      requests.push(bytes);
      const b = new ArrayBuffer(Math.ceil(bytes / 65536) * 65536);
      buffers.push(b);
      return b;
    },
  };
}

describe('arena backing', () => {
  it("'auto' asks the backing once, for the reservation (maxArenaBytes), and every tensor lives in its buffer", () => {
    const backing = pageBacking();
    const reference = new MicroInterpreter(chainModel(4, 64), new OpResolver().register(addConstKernel(0.5, 64) as Registration), {
      planner: new TestLinearPlanner(),
    }).allocateTensors();
    const it_ = new MicroInterpreter(chainModel(4, 64), new OpResolver().register(addConstKernel(0.5, 64) as Registration), {
      planner: new TestLinearPlanner(),
      arenaBacking: backing,
      maxArenaBytes: 1 << 20,
    }).allocateTensors();
    expect(backing.requests).toEqual([1 << 20]);
    // The head at the start of the reservation, the tail at its end: the report is the measured size.
    expect(it_.arenaUsage()).toMatchObject({ arenaBytes: reference.arenaUsage().arenaBytes, usedBytes: reference.arenaUsage().usedBytes });
    expect(it_.input(0).data.buffer).toBe(backing.buffers[0]);
    expect(it_.output(0).data.buffer).toBe(backing.buffers[0]);
    (it_.input(0).data as Uint8Array).fill(1);
    (reference.input(0).data as Uint8Array).fill(1);
    it_.invoke();
    reference.invoke();
    expect(Array.from(it_.output(0).data as ArrayLike<number>)).toEqual(Array.from(reference.output(0).data as ArrayLike<number>));
  });

  it('a numeric arena comes from the backing; too small still gives ArenaTooSmallError with the size that fits', () => {
    const backing = pageBacking();
    const mk = (arena: number) =>
      new MicroInterpreter(chainModel(4, 64), new OpResolver().register(addConstKernel(0.5, 64) as Registration), {
        planner: new TestLinearPlanner(),
        arena,
        arenaBacking: backing,
      });
    const ok = mk(4096).allocateTensors();
    expect(ok.arenaUsage().arenaBytes).toBe(4096);
    expect(backing.requests[0]).toBe(4096);
    expect(() => mk(64).allocateTensors()).toThrow(ArenaTooSmallError);
  });

  it('rejects a backing with an ArrayBuffer arena, and a backing returning too little', () => {
    expect(() => new SingleArenaBufferAllocator(new ArrayBuffer(64), undefined, pageBacking())).toThrow(/not to an ArrayBuffer/);
    const short: ArenaBacking = { name: 'short', allocate: (n) => new ArrayBuffer(n - 16) };
    expect(() => new SingleArenaBufferAllocator(1024, undefined, short)).toThrow(MicrortError);
    expect(() => new SingleArenaBufferAllocator(1024, undefined, short)).toThrow(/short returned 1008 bytes, the arena needs 1024/);
  });
});
