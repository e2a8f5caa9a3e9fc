import { describe, expect, it } from 'vitest';
import { MicrortError, PlannerError } from '../errors.js';
import { BuiltinOperator } from '../builtin-ops.js';
import type { Node, Registration, TfLiteContext } from '../kernel/api.js';
import { MicroInterpreter } from '../interpreter/micro-interpreter.js';
import { addConstKernel, chainModel, TestLinearPlanner } from '../interpreter/__fixtures__/tiny-models.js';
import type { BufferRequirement, MemoryPlan, MemoryPlanner } from '../planner/memory-planner.js';
import { validatePlan } from '../planner/validate-plan.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { applyInPlace, inPlacePartners, kernelInPlaceInputs } from './in-place.js';
import type { PlanStep } from './lifetimes.js';

const req = (id: number, size: number, firstUsed: number, lastUsed: number, extra: Partial<BufferRequirement> = {}): BufferRequirement => ({
  kind: 'tensor',
  id,
  size,
  firstUsed,
  lastUsed,
  ...extra,
});
const step = (inputs: number[], outputs: number[]): PlanStep => ({ inputs, outputs });

/** Three steps: t0 (graph input) → t1 → t2 → t3 (graph output). */
const STEPS = [step([0], [1]), step([1], [2]), step([2], [3])];
const chainReqs = () => [req(0, 64, 0, 0), req(1, 64, 0, 1), req(2, 64, 1, 2), req(3, 64, 2, 2)];
const ALL = [[0], [1], [2]];

describe('applyInPlace', () => {
  it('pairs an output with the input that dies at its step', () => {
    const reqs = chainReqs();
    const pairs = applyInPlace(reqs, STEPS, ALL, [0], [3]);
    expect(pairs).toEqual([
      { step: 1, output: 2, input: 1, bytes: 64 },
      { step: 2, output: 3, input: 2, bytes: 64 },
    ]);
    expect(reqs.map((r) => r.inPlaceOf)).toEqual([undefined, undefined, 1, 2]);
  });

  it('never shares a graph input or output, nor an input that lives on', () => {
    const reqs = chainReqs();
    reqs[1]!.lastUsed = 2; // t1 is read again later
    expect(applyInPlace(reqs, STEPS, ALL, [0], [2, 3])).toEqual([]);
    expect(reqs.every((r) => r.inPlaceOf === undefined)).toBe(true);
  });

  it('needs the same aligned size and the same placement kind', () => {
    const sizes = chainReqs();
    sizes[2]!.size = 80;
    expect(applyInPlace(sizes, STEPS, ALL, [0], [3])).toEqual([]);
    const offline = chainReqs();
    offline[1]!.offlineOffset = 0;
    expect(applyInPlace(offline, STEPS, [null, [1], null], [0], [3])).toEqual([]);
    const both = chainReqs();
    both[1]!.offlineOffset = 128;
    both[2]!.offlineOffset = 128;
    expect(applyInPlace(both, STEPS, [null, [1], null], [0], [3])).toHaveLength(1);
  });

  it('skips inputs without a requirement (constants, variables) and takes the first that qualifies', () => {
    const reqs = [req(0, 64, 0, 0), req(1, 64, 0, 1), req(4, 64, 0, 1), req(2, 64, 1, 1)];
    const steps = [step([0], [1, 4]), step([9, 4, 1], [2])];
    expect(applyInPlace(reqs, steps, [null, [9, 4, 1]], [0], [])).toEqual([{ step: 1, output: 2, input: 4, bytes: 64 }]);
  });

  it('only declared steps are considered', () => {
    const reqs = chainReqs();
    expect(applyInPlace(reqs, STEPS, [], [0], [3])).toEqual([]);
  });
});

describe('inPlacePartners and plan validation', () => {
  const reqs = (): BufferRequirement[] => [req(1, 64, 0, 1), req(2, 64, 1, 2, { inPlaceOf: 1 }), req(5, 32, 1, 1, { inPlaceOf: 9 })];
  const plan = (offsets: number[], headBytes: number): MemoryPlan => ({ offsets: Int32Array.from(offsets), headBytes });

  it('finds the partner only when the input dies where the output starts', () => {
    expect(Array.from(inPlacePartners(reqs()))).toEqual([-1, 0, -1]);
    const late = reqs();
    late[0]!.lastUsed = 2;
    expect(Array.from(inPlacePartners(late))).toEqual([-1, -1, -1]);
  });

  it('accepts a pair at the same offset, rejects it anywhere else and rejects other overlaps', () => {
    expect(() => validatePlan('t', reqs(), plan([0, 0, 64], 96))).not.toThrow();
    expect(() => validatePlan('t', reqs(), plan([0, 16, 96], 128))).toThrow(PlannerError);
    expect(() => validatePlan('t', reqs(), plan([0, 0, 0], 64))).toThrow(/overlap in memory/);
  });
});

describe('kernelInPlaceInputs', () => {
  const node = { index: 3, inputs: Int32Array.of(7, -1, 9) } as unknown as Node;
  const ctx = {} as TfLiteContext;
  const reg = (inPlace?: Registration['inPlace']): Registration => ({
    builtinCode: BuiltinOperator.ADD,
    name: 'K',
    invoke: () => {},
    ...(inPlace ? { inPlace } : {}),
  });

  it('maps input positions to tensor indices, skipping omitted inputs', () => {
    expect(kernelInPlaceInputs(reg(), ctx, node)).toBeNull();
    expect(
      kernelInPlaceInputs(
        reg(() => null),
        ctx,
        node,
      ),
    ).toBeNull();
    expect(
      kernelInPlaceInputs(
        reg(() => 2),
        ctx,
        node,
      ),
    ).toEqual([9]);
    expect(
      kernelInPlaceInputs(
        reg(() => [1, 2, 0]),
        ctx,
        node,
      ),
    ).toEqual([9, 7]);
    expect(
      kernelInPlaceInputs(
        reg(() => [1]),
        ctx,
        node,
      ),
    ).toBeNull();
  });

  it('rejects a position outside the node inputs, naming node and kernel', () => {
    expect(() =>
      kernelInPlaceInputs(
        reg(() => 3),
        ctx,
        node,
      ),
    ).toThrow(MicrortError);
    expect(() =>
      kernelInPlaceInputs(
        reg(() => 3),
        ctx,
        node,
      ),
    ).toThrow(/K \(node 3\).*position 3.*3 inputs/);
  });
});

/** Lays buffers out one after the other, except that an in-place output takes its partner's offset. */
class ReusingPlanner implements MemoryPlanner {
  readonly name = 'test-reusing';
  plan(buffers: readonly BufferRequirement[]): MemoryPlan {
    const partner = inPlacePartners(buffers);
    const offsets = new Int32Array(buffers.length);
    let end = 0;
    let head = 0;
    buffers.forEach((b, i) => {
      const p = partner[i]!;
      offsets[i] = p >= 0 && p < i ? offsets[p]! : end;
      if (offsets[i] === end) end += b.size;
      head = Math.max(head, offsets[i]! + b.size);
    });
    return { offsets, headBytes: head };
  }
}

describe('MicroInterpreter inPlace option', () => {
  const inPlaceKernel = (): Registration => ({ ...addConstKernel(1), inPlace: () => 0 });
  const run = (inPlace: boolean, planner: MemoryPlanner = new ReusingPlanner()) => {
    const resolver = new OpResolver().register(inPlaceKernel());
    const interp = new MicroInterpreter(chainModel(4, 8), resolver, { planner, inPlace }).allocateTensors();
    (interp.input(0).data as Float32Array).set([1, 2, 3, 4, 5, 6, 7, 8]);
    interp.invoke();
    return interp;
  };

  it('shares memory along the chain and gives the same results', () => {
    const off = run(false);
    const on = run(true);
    expect(Array.from(on.output(0).data as Float32Array)).toEqual(Array.from(off.output(0).data as Float32Array));
    expect(Array.from(on.output(0).data as Float32Array)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(on.memoryPlan().inPlacePairs.map((p) => [p.step, p.input, p.output])).toEqual([
      [1, 1, 2],
      [2, 2, 3],
      [3, 3, 4],
    ]);
    expect(off.memoryPlan().inPlacePairs).toEqual([]);
    expect(on.arenaUsage().headBytes).toBeLessThan(off.arenaUsage().headBytes);
    expect(on.tensor(2).bytes.byteOffset).toBe(on.tensor(1).bytes.byteOffset);
  });

  it('is a no-op for planners that ignore inPlaceOf, and for kernels that declare nothing', () => {
    const linear = run(true, new TestLinearPlanner());
    expect(Array.from(linear.output(0).data as Float32Array)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    const resolver = new OpResolver().register(addConstKernel(1));
    const plain = new MicroInterpreter(chainModel(4, 8), resolver, { planner: new ReusingPlanner(), inPlace: true }).allocateTensors();
    expect(plain.memoryPlan().inPlacePairs).toEqual([]);
  });
});
