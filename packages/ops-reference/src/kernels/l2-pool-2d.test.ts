import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, Padding, TensorType } from '@micrort/core';
import type { Pool2DOptions } from '@micrort/core';
import { L2_POOL_2D } from './l2-pool-2d.js';
import { expectFloatClose, harness, prepareError, spec } from './__fixtures__/data-testing.js';

const INPUT = [0, 6, 2, 4, 3, 2, 10, 7];

function pool(data: number[], outShape: number[], o: Partial<Pool2DOptions> = {}, type = TensorType.FLOAT32) {
  const options: Pool2DOptions = {
    padding: Padding.VALID,
    strideW: 2,
    strideH: 2,
    filterWidth: 2,
    filterHeight: 2,
    fusedActivationFunction: ActivationFunctionType.NONE,
    ...o,
  };
  return harness(L2_POOL_2D, [spec(type, [1, 2, 4, 1], data), spec(type, outShape)], 1, options);
}

describe('L2_POOL_2D', () => {
  it('TFLite L2PoolOpModel: 2x2 stride 2 VALID', () => {
    expect(pool(INPUT, [1, 1, 2, 1]).invoke().outputArray()).toEqual([3.5, 6.5]);
  });

  it('RELU6 clamps; SAME padding averages over the part of the window inside the input', () => {
    expect(pool(INPUT, [1, 1, 2, 1], { fusedActivationFunction: ActivationFunctionType.RELU6 }).invoke().outputArray()).toEqual([3.5, 6]);
    const same = pool(INPUT, [1, 2, 4, 1], { padding: Padding.SAME, strideW: 1, strideH: 1 }).invoke();
    expectFloatClose(same.outputArray(), [3.5, 6.0, 6.5, 5.70088, 2.54951, 7.2111, 8.63134, 7.0]);
  });

  it('refuses int8 (TFLM has no quantized L2 pool) and an output shape the options do not give', () => {
    const q = pool(INPUT, [1, 1, 2, 1], {}, TensorType.INT8);
    expect(q.supportsAnswer()).toBe('int8 input (handles float32)');
    expect(prepareError(q).message).toMatch(/type int8 \(tensor \d+\); supported: float32/);
    expect(prepareError(pool(INPUT, [1, 2, 2, 1])).message).toMatch(/the options give a 1x2 output/);
    expect(prepareError(pool(INPUT, [1, 1, 2, 1], { strideW: 0 })).message).toMatch(/strides must be >= 1/);
    expect(prepareError(pool(INPUT, [1, 1, 2, 1], { fusedActivationFunction: ActivationFunctionType.TANH })).message).toMatch(
      /unsupported fused activation TANH/,
    );
  });
});
