/**
 * "invoke() allocates nothing" for the pooling, reduction and data-movement kernels: each kernel is
 * prepared with KernelHarness, then invoked many times through a bare invoke-phase context (the harness'
 * own context allocates in its phase guards) while V8's heap usage is watched.
 */
import { describe, expect, it } from 'vitest';
import { Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { HarnessOptions } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { AVERAGE_POOL_2D } from '../kernels/average-pool-2d.js';
import { MAX_POOL_2D } from '../kernels/max-pool-2d.js';
import { MEAN } from '../kernels/mean.js';
import { PAD } from '../kernels/pad.js';
import { TRANSPOSE } from '../kernels/transpose.js';
import { STRIDED_SLICE } from '../kernels/strided-slice.js';
import { CONCATENATION } from '../kernels/concatenation.js';

const q8 = { scale: 0.5, zeroPoint: -3 };
const pool = { padding: Padding.SAME, filterHeight: 2, filterWidth: 2, strideH: 2, strideW: 2, fusedActivationFunction: 1 };
const i8 = (shape: number[], data?: number[]) => ({ type: TensorType.INT8, shape, data, ...q8 });
const cases: [string, HarnessOptions][] = [
  [
    'AVERAGE_POOL_2D int8',
    {
      registration: AVERAGE_POOL_2D,
      tensors: [i8([1, 3, 3, 2], new Array(18).fill(5)), i8([1, 2, 2, 2])],
      inputs: [0],
      outputs: [1],
      builtinData: pool,
    },
  ],
  [
    'AVERAGE_POOL_2D float32',
    {
      registration: AVERAGE_POOL_2D,
      tensors: [
        { type: TensorType.FLOAT32, shape: [1, 3, 3, 1], data: new Array(9).fill(1.5) },
        { type: TensorType.FLOAT32, shape: [1, 2, 2, 1] },
      ],
      inputs: [0],
      outputs: [1],
      builtinData: pool,
    },
  ],
  [
    'MAX_POOL_2D int8',
    {
      registration: MAX_POOL_2D,
      tensors: [i8([1, 3, 3, 2], new Array(18).fill(5)), i8([1, 2, 2, 2])],
      inputs: [0],
      outputs: [1],
      builtinData: pool,
    },
  ],
  [
    'MEAN int8',
    {
      registration: MEAN,
      tensors: [
        i8([1, 3, 3, 4], new Array(36).fill(7)),
        { type: TensorType.INT32, shape: [2], data: [1, 2], constant: true },
        { type: TensorType.INT8, shape: [1, 1, 1, 4], scale: 0.25, zeroPoint: 1 },
      ],
      inputs: [0, 1],
      outputs: [2],
      builtinData: { keepDims: true },
    },
  ],
  [
    'MEAN float32',
    {
      registration: MEAN,
      tensors: [
        { type: TensorType.FLOAT32, shape: [2, 3], data: [1, 2, 3, 4, 5, 6] },
        { type: TensorType.INT32, shape: [1], data: [0], constant: true },
        { type: TensorType.FLOAT32, shape: [3] },
      ],
      inputs: [0, 1],
      outputs: [2],
      builtinData: { keepDims: false },
    },
  ],
  [
    'PAD int8',
    {
      registration: PAD,
      tensors: [
        i8([1, 2, 2, 1], [1, 2, 3, 4]),
        { type: TensorType.INT32, shape: [4, 2], data: [0, 0, 1, 1, 1, 1, 0, 0], constant: true },
        i8([1, 4, 4, 1]),
      ],
      inputs: [0, 1],
      outputs: [2],
    },
  ],
  [
    'TRANSPOSE int64',
    {
      registration: TRANSPOSE,
      tensors: [
        { type: TensorType.INT64, shape: [2, 3], data: [1n, 2n, 3n, 4n, 5n, 6n] },
        { type: TensorType.INT32, shape: [2], data: [1, 0], constant: true },
        { type: TensorType.INT64, shape: [3, 2] },
      ],
      inputs: [0, 1],
      outputs: [2],
    },
  ],
  [
    'STRIDED_SLICE int8',
    {
      registration: STRIDED_SLICE,
      tensors: [
        i8([2, 4], [1, 2, 3, 4, 5, 6, 7, 8]),
        { type: TensorType.INT32, shape: [2], data: [0, -1], constant: true },
        { type: TensorType.INT32, shape: [2], data: [2, 0], constant: true },
        { type: TensorType.INT32, shape: [2], data: [1, -2], constant: true },
        i8([2, 2]),
      ],
      inputs: [0, 1, 2, 3],
      outputs: [4],
      builtinData: { beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0, offset: false },
    },
  ],
  [
    'CONCATENATION int8',
    {
      registration: CONCATENATION,
      tensors: [i8([2, 1], [1, 2]), i8([2, 2], [3, 4, 5, 6]), i8([2, 3])],
      inputs: [0, 1],
      outputs: [2],
      builtinData: { axis: 1, fusedActivationFunction: 0 },
    },
  ],
];

describe('shape kernels allocate nothing in invoke()', () => {
  it.each(cases)('%s', (_, options) => {
    const h = new KernelHarness(options).prepare();
    const ctx = invokeOnlyContext(h);
    const reg = options.registration;
    // A long warm-up: after MEAN's int path, its float path deoptimizes `invoke` once, and until the JIT has
    // re-optimized, unoptimized float arithmetic boxes numbers (a tiering effect, not a kernel allocation).
    const m = measureAllocation(() => reg.invoke(ctx, h.node), { warmup: 20000, trials: 5, iterations: 2000 });
    expect(m.bytesPerCall).toBeLessThan(1);
  });
});
