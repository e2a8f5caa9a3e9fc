import { describe, expect, it } from 'vitest';
import { AllocationType, TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { RESHAPE, inferStretchDimension } from './reshape.js';

function harness(tensors: HarnessTensorSpec[], inputs = [0]): KernelHarness {
  return new KernelHarness({
    registration: RESHAPE,
    tensors,
    inputs,
    outputs: [tensors.length - 1],
    builtinData: { newShape: new Int32Array(0) },
  });
}

describe('RESHAPE', () => {
  it('copies the bytes for every element type', () => {
    const f = harness([
      { type: TensorType.FLOAT32, shape: [2, 3], data: [1, 2, 3, 4, 5, 6] },
      { type: TensorType.FLOAT32, shape: [3, 2] },
    ]).invoke();
    expect(f.outputArray()).toEqual([1, 2, 3, 4, 5, 6]);
    const i8 = harness([
      { type: TensorType.INT8, shape: [1, 4], data: [-128, 0, 5, 127], scale: 0.5, zeroPoint: 1 },
      { type: TensorType.INT8, shape: [4], scale: 0.5, zeroPoint: 1 },
    ]).invoke();
    expect(i8.outputArray()).toEqual([-128, 0, 5, 127]);
    const i64 = harness([
      { type: TensorType.INT64, shape: [2], data: [2n ** 40n, -3n] },
      { type: TensorType.INT64, shape: [1, 2] },
    ]).invoke();
    expect(Array.from(i64.output<BigInt64Array>())).toEqual([2n ** 40n, -3n]);
  });
  it('accepts the shape as a second input (as TFLM, the output tensor decides)', () => {
    const h = harness(
      [
        { type: TensorType.INT16, shape: [2, 2], data: [1, 2, 3, 4] },
        { type: TensorType.INT32, shape: [1], data: [-1], constant: true },
        { type: TensorType.INT16, shape: [4] },
      ],
      [0, 1],
    ).invoke();
    expect(h.outputArray()).toEqual([1, 2, 3, 4]);
  });
  it('does nothing when input and output share memory', () => {
    const h = harness([
      { type: TensorType.INT32, shape: [4], data: [9, 8, 7, 6] },
      { type: TensorType.INT32, shape: [2, 2] },
    ]).prepare();
    const input = h.tensors[0]!;
    h.tensors[1]!.bind(input.data.buffer, input.data.byteOffset, AllocationType.ArenaRw);
    h.invoke();
    expect(h.outputArray()).toEqual([9, 8, 7, 6]);
  });
  it('rejects type and element-count mismatches', () => {
    expect(() =>
      harness([
        { type: TensorType.INT8, shape: [4], data: [1, 2, 3, 4] },
        { type: TensorType.UINT8, shape: [4] },
      ]).invoke(),
    ).toThrow(/must match/);
    expect(() =>
      harness([
        { type: TensorType.INT8, shape: [4], data: [1, 2, 3, 4] },
        { type: TensorType.INT8, shape: [5] },
      ]).invoke(),
    ).toThrow(/has 4 elements.*has 5/);
  });
  it('infers a single -1 dimension and reports bad shapes', () => {
    const dims = Int32Array.from([2, -1, 3]);
    expect(inferStretchDimension(dims, 24)).toBeNull();
    expect(Array.from(dims)).toEqual([2, 4, 3]);
    expect(inferStretchDimension(Int32Array.from([-1, -1]), 4)).toMatch(/more than one -1/);
    expect(inferStretchDimension(Int32Array.from([-1, 5]), 12)).toMatch(/cannot infer/);
    expect(inferStretchDimension(Int32Array.from([-2, 5]), 10)).toMatch(/negative dimension -2/);
    const none = Int32Array.from([3, 4]);
    expect(inferStretchDimension(none, 12)).toBeNull();
    expect(Array.from(none)).toEqual([3, 4]);
  });
  it('does not allocate in invoke, in place or copying within one buffer', () => {
    const h = harness([
      { type: TensorType.FLOAT32, shape: [64], data: new Array(64).fill(1.5) },
      { type: TensorType.FLOAT32, shape: [8, 8] },
    ]).prepare();
    const shared = new ArrayBuffer(1024);
    h.tensors[0]!.bind(shared, 0, AllocationType.ArenaRw);
    h.tensors[1]!.bind(shared, 512, AllocationType.ArenaRw);
    const ctx = { ...h.context, getEvalTensor: (i: number) => h.tensors[i]! };
    expect(leastAllocation(() => RESHAPE.invoke(ctx, h.node))).toBeLessThan(8);
  });
});

/** Bytes per invoke, the least of three measurements (JIT tiering on a busy machine can add a few bytes to one run). */
function leastAllocation(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= 8; i++)
    best = Math.min(best, measureAllocation(fn, { warmup: 5000, trials: 5, iterations: 2000 }).bytesPerCall);
  return best;
}
