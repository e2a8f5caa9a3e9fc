/**
 * ADD's invoke allocates nothing. In a file of its own: a fresh process whose type feedback is not
 * shaped by the other ADD tests (int16, float, other broadcasts), as a kernel in a real model sees it.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, TensorType, type AddOptions } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { ADD } from './add.js';

const opts = (): AddOptions => ({ fusedActivationFunction: ActivationFunctionType.NONE, potScaleInt16: true });
const i8 = (shape: number[], scale: number, zeroPoint: number, data?: number[]): HarnessTensorSpec => ({
  type: TensorType.INT8,
  shape,
  data,
  scale,
  zeroPoint,
});

describe('ADD invoke', () => {
  it('does not allocate in invoke (broadcasting int8)', () => {
    const h = new KernelHarness({
      registration: ADD,
      tensors: [i8([2, 1, 3], 0.5, 1, [1, 2, 3, 4, 5, 6]), i8([4, 1], 0.25, -3, [1, 2, 3, 4]), i8([2, 4, 3], 1, 0)],
      inputs: [0, 1],
      outputs: [2],
      builtinData: opts(),
    }).prepare();
    const ctx = { ...h.context, getEvalTensor: (i: number) => h.tensors[i]! };
    expect(leastAllocation(() => ADD.invoke(ctx, h.node))).toBeLessThan(8);
  });
});

/** Bytes per invoke, the least of three measurements (JIT tiering on a busy machine can add a few bytes to one run). */
function leastAllocation(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= 8; i++)
    best = Math.min(best, measureAllocation(fn, { warmup: 5000, trials: 5, iterations: 2000 }).bytesPerCall);
  return best;
}
