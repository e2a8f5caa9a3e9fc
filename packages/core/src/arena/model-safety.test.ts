// Regression tests for bugs the fuzzer (packages/cli/src/fuzz) found in the allocator: models that made
// the arena allocate what a hostile file asked for, tensors read before anything wrote them (their bytes
// were whatever the arena held), and operators writing into constant model data.
import { describe, expect, it } from 'vitest';
import { ArenaLimitError, KernelError, MicrortError, ModelError } from '../errors.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { MicroInterpreter } from '../interpreter/micro-interpreter.js';
import { TestLinearPlanner, addConstKernel, chainModel, tinyModel } from '../interpreter/__fixtures__/tiny-models.js';
import { DEFAULT_MAX_ARENA_BYTES, SingleArenaBufferAllocator } from './single-arena-buffer-allocator.js';
import { findReadBeforeWrite } from './lifetimes.js';
import { TensorType } from '../types.js';

const planner = new TestLinearPlanner();
const resolver = () => new OpResolver().register(addConstKernel(1));

function allocate(model: ReturnType<typeof tinyModel>, options: { arena?: number | 'auto'; maxArenaBytes?: number } = {}) {
  return new MicroInterpreter(model, resolver(), { planner, ...options }).allocateTensors();
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('arena limit (maxArenaBytes)', () => {
  it('a model claiming a ~2 GB activation fails with ArenaLimitError before anything is allocated', () => {
    const model = tinyModel([{ shape: [4] }, { shape: [0x1ffffffc] }], [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }], [0], [1]);
    const before = process.memoryUsage().arrayBuffers;
    // Over the first 256 MiB reservation, the model is measured against the default limit (2^31 − 16,
    // what int32 offsets address): its head, 16 + 0x7ffffff0 bytes, is over it.
    const e = errorOf(() => allocate(model));
    expect(e).toBeInstanceOf(ArenaLimitError);
    const limit = e as ArenaLimitError;
    expect(limit.requestedBytes).toBe(2 ** 31);
    expect(limit.limitBytes).toBe(DEFAULT_MAX_ARENA_BYTES);
    expect(e.message).toMatch(/planned head .* requested 2147483648 bytes.*over the limit of 2147483632 bytes.*maxArenaBytes/);
    // With an explicit limit, the tensor itself is refused before any kernel prepares.
    const explicit = errorOf(() => allocate(model, { maxArenaBytes: 256 << 20 }));
    expect(explicit.message).toMatch(/tensor 1 \(t1\) requested 2147483632 bytes.*over the limit of 268435456 bytes.*maxArenaBytes/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it('a model over the 256 MiB first reservation runs without raising a limit; an explicit limit still refuses it', () => {
    // A 300 MiB activation (TFLite runs models with a 350 MB im2col tensor).
    const big = (300 << 20) / 4;
    const model = tinyModel(
      [{ shape: [4] }, { shape: [big] }, { shape: [big] }],
      [
        { custom: 'ADD_CONST', inputs: [0], outputs: [1] },
        { custom: 'ADD_CONST', inputs: [1], outputs: [2] },
      ],
      [0],
      [2],
    );
    const it_ = allocate(model);
    const usage = it_.arenaUsage();
    expect(usage.headBytes).toBeGreaterThanOrEqual(2 * (300 << 20));
    expect(usage.arenaBytes).toBeLessThan(usage.headBytes + 4096);
    expect(() => allocate(model, { maxArenaBytes: 256 << 20 })).toThrow(ArenaLimitError);
    expect(() => allocate(model, { maxArenaBytes: 512 << 20 })).toThrow(/over the limit of 536870912 bytes/);
    expect(allocate(model, { maxArenaBytes: 700 << 20 }).arenaUsage().headBytes).toBe(usage.headBytes);
  });

  it('a variable tensor over the limit fails the same way (no side buffer is allocated for it)', () => {
    const model = tinyModel(
      [{ shape: [4] }, { shape: [4] }, { shape: [1 << 22], variable: true }],
      [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }],
      [0],
      [1],
    );
    const e = errorOf(() => allocate(model, { maxArenaBytes: 1 << 20 }));
    expect(e).toBeInstanceOf(ArenaLimitError);
    expect(e.message).toMatch(/variable tensor 2 \(t2\) requested 16777216 bytes/);
  });

  it("a kernel's persistent buffer in prepare over the limit: the ArenaLimitError itself, not a bare MicrortError", () => {
    // The fuzzer saw this as `MicrortError: ArenaLimitError: ...` (the error was re-wrapped by its name).
    const greedy = {
      ...addConstKernel(1),
      prepare: (ctx: { allocatePersistentBuffer(n: number): unknown }) => void ctx.allocatePersistentBuffer(2 << 20),
    };
    const model = tinyModel([{ shape: [4] }, { shape: [4] }], [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }], [0], [1]);
    const e = errorOf(() =>
      new MicroInterpreter(model, new OpResolver().register(greedy), { planner, maxArenaBytes: 1 << 20 }).allocateTensors(),
    );
    expect(e).toBeInstanceOf(ArenaLimitError);
    expect(e.constructor).toBe(ArenaLimitError);
    expect((e as ArenaLimitError).requestedBytes).toBe(2 << 20);
    expect(e.message).toMatch(/persistent buffer for node 0 .*requested 2097152 bytes.*over the limit of 1048576 bytes/);
  });

  it('the limit bounds the planned head and fixed arenas too; models under it are unaffected', () => {
    expect(() => allocate(chainModel(3, 1024), { maxArenaBytes: 4096 })).toThrow(ArenaLimitError);
    expect(allocate(chainModel(3, 1024), { maxArenaBytes: 1 << 20 }).arenaUsage().arenaBytes).toBeGreaterThan(4096);
    expect(() => new SingleArenaBufferAllocator(1 << 21, 1 << 20)).toThrow(ArenaLimitError);
    const a = new SingleArenaBufferAllocator(0, 1024);
    a.allocatePersistent(512, 'first');
    expect(() => a.allocatePersistent(1024, 'second')).toThrow(/second requested 1024 bytes, bringing the arena to at least 1536 bytes/);
  });
});

describe('data flow checks at FinishModelAllocation', () => {
  it('rejects an operator reading a tensor no earlier operator wrote (operators out of order)', () => {
    // op 0 reads t1, which op 1 produces only afterwards
    const model = tinyModel(
      [{ shape: [4] }, { shape: [4] }, { shape: [4] }],
      [
        { custom: 'ADD_CONST', inputs: [1], outputs: [2] },
        { custom: 'ADD_CONST', inputs: [0], outputs: [1] },
      ],
      [0],
      [2],
    );
    const e = errorOf(() => allocate(model));
    expect(e).toBeInstanceOf(ModelError);
    expect(e.message).toMatch(/operator 0 \(step 0 of the execution plan\) reads tensor 1 \(t1\) before any operator writes it/);
  });

  it('rejects a subgraph output that nothing writes', () => {
    const model = tinyModel(
      [{ shape: [4] }, { shape: [4] }, { shape: [4] }],
      [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }],
      [0],
      [2],
    );
    expect(errorOf(() => allocate(model)).message).toMatch(/subgraph output tensor 2 \(t2\) is never written/);
  });

  it('rejects an operator writing a constant, and a constant subgraph input', () => {
    const constant = { shape: [4], data: new Uint8Array(16) };
    const writesConstant = tinyModel([{ shape: [4] }, constant], [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }], [0], [1]);
    expect(errorOf(() => allocate(writesConstant)).message).toMatch(/operator 0 writes tensor 1 \(t1\) as output 0, but it is a constant/);
    const constantInput = tinyModel([constant, { shape: [4] }], [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }], [0], [1]);
    expect(errorOf(() => allocate(constantInput)).message).toMatch(/subgraph input 0 is tensor 0 \(t0\), a constant/);
  });

  it('accepts constants, variables, empty tensors and subgraph inputs read without a producer', () => {
    const model = tinyModel(
      [
        { shape: [4] },
        { shape: [4], data: new Uint8Array(16) },
        { shape: [4], variable: true },
        { shape: [0] },
        { shape: [4] },
        { type: TensorType.INT8, shape: [4] },
      ],
      [{ custom: 'ADD_CONST', inputs: [0, 1, 2, 3], outputs: [4] }],
      [0],
      [4],
    );
    expect(allocate(model).status).toBe('allocated');
    expect(
      findReadBeforeWrite(
        3,
        [
          { inputs: [0], outputs: [1] },
          { inputs: [1, -1], outputs: [2] },
        ],
        [0],
        [2],
        () => false,
      ),
    ).toBeNull();
    expect(findReadBeforeWrite(3, [{ inputs: [2], outputs: [1] }], [0], [1], () => false)).toEqual({ tensor: 2, step: 0 });
  });
});

describe('kernel errors name the node', () => {
  it('a bare MicrortError from a context callback in prepare is wrapped in a KernelError naming op and node', () => {
    const model = tinyModel([{ shape: [4] }, { shape: [4] }], [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }], [0], [1]);
    const kernel = { ...addConstKernel(1), prepare: (ctx: { getTensor(i: number): unknown }) => void ctx.getTensor(-1) };
    const interp = new MicroInterpreter(model, new OpResolver().register(kernel as never), { planner });
    const e = errorOf(() => interp.allocateTensors());
    expect(e).toBeInstanceOf(KernelError);
    expect(e.message).toBe('CUSTOM:ADD_CONST (node 0): prepare failed: getTensor(-1): tensor index out of range (subgraph has 2 tensors)');
    expect((e as { cause?: unknown }).cause).toBeInstanceOf(MicrortError);
  });

  it("so is one thrown by a provider's supports() while resolving kernels", () => {
    const model = tinyModel([{ shape: [4] }, { shape: [4] }], [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }], [0], [1]);
    const kernel = { ...addConstKernel(1), supports: (ctx: { getTensor(i: number): unknown }) => ctx.getTensor(-1) !== null };
    const interp = new MicroInterpreter(model, new OpResolver().register(kernel as never), { planner });
    const e = errorOf(() => interp.allocateTensors());
    expect(e).toBeInstanceOf(KernelError);
    expect(e.message).toBe(
      'CUSTOM:ADD_CONST (node 0): supports() failed: getTensor(-1): tensor index out of range (subgraph has 2 tensors)',
    );
  });
});
