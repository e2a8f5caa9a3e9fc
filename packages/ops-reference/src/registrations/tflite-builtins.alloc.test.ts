/**
 * "invoke() allocates nothing" for the TFLite builtins of tflite-builtins.ts: each kernel is prepared
 * with KernelHarness (the data-dependent ones — WHERE, UNIQUE, TOPK_V2 with a runtime k — at their
 * bound), then invoked many times through a bare invoke-phase context while V8's heap usage is watched.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, Padding, TensorType } from '@micrort/core';
import type { BuiltinOptions } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { HarnessOptions, HarnessTensorSpec } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { tfliteBuiltinKernels } from './tflite-builtins.js';
import { flexMap } from '@micrort/test-support/flexbuffers';
import { constI32, iota, spec } from '../kernels/__fixtures__/data-testing.js';

const F = TensorType.FLOAT32;
const I32 = TensorType.INT32;
const I64 = TensorType.INT64;
const B = TensorType.BOOL;
const reg = (name: string) => tfliteBuiltinKernels.find((r) => r.name === name)!;
const f32 = (shape: number[], data?: number[]) => spec(F, shape, data);
const i32 = (shape: number[], data?: number[]) => spec(I32, shape, data);
const i8 = (shape: number[], data?: number[]) => spec(TensorType.INT8, shape, data, { scale: 0.05, zeroPoint: 3 });
const bools = (shape: number[], data?: number[]) => spec(B, shape, data);
const wave = (n: number) => iota(n).map((v) => Math.sin(v * 0.7) * 0.8);

function opts(
  name: string,
  tensors: HarnessTensorSpec[],
  inputCount: number,
  builtinData: BuiltinOptions | null = null,
  custom: Uint8Array | null = null,
): [string, HarnessOptions] {
  return [
    name,
    {
      registration: reg(name.split(' ')[0]!),
      tensors,
      inputs: tensors.slice(0, inputCount).map((_, i) => i),
      outputs: tensors.slice(inputCount).map((_, i) => inputCount + i),
      builtinData,
      customInitialData: custom,
    },
  ];
}

const conv3d = {
  padding: Padding.SAME,
  strideD: 1,
  strideW: 1,
  strideH: 1,
  fusedActivationFunction: ActivationFunctionType.RELU,
  dilationDFactor: 1,
  dilationWFactor: 1,
  dilationHFactor: 1,
};

const cases: [string, HarnessOptions][] = [
  opts('RELU_N1_TO_1 int8', [i8([2, 8], iota(16, -8)), i8([2, 8])], 1),
  opts('RELU_0_TO_1 float32', [f32([2, 8], wave(16)), f32([2, 8])], 1),
  opts('GELU float32', [f32([2, 8], wave(16)), f32([2, 8])], 1, { approximate: false }),
  opts('GELU int8', [i8([2, 8], iota(16, -8)), i8([2, 8])], 1, { approximate: true }),
  opts('SIGN float32', [f32([2, 4], wave(8)), f32([2, 4])], 1),
  opts('ATAN2 float32', [f32([2, 4], wave(8)), f32([2, 4], iota(8, -4)), f32([2, 4])], 2),
  opts('POW int32', [i32([2, 3], iota(6)), i32([3], [0, 1, 2]), i32([2, 3])], 2),
  opts('BITWISE_XOR int32', [i32([2, 3], iota(6)), i32([3], [5, 6, 7]), i32([2, 3])], 2),
  opts('RIGHT_SHIFT int32', [i32([2, 3], iota(6, -3)), i32([2, 3], [0, 1, 2, 40, -1, 3]), i32([2, 3])], 2),
  opts('BITCAST float32→int32', [f32([2, 3], wave(6)), i32([2, 3])], 1),
  opts('REAL complex64', [spec(TensorType.COMPLEX64, [3], iota(6)), f32([3])], 1),
  opts('IMAG complex64', [spec(TensorType.COMPLEX64, [3], iota(6)), f32([3])], 1),
  opts('RANK', [f32([2, 3], iota(6)), i32([])], 1),
  opts('FAKE_QUANT', [f32([2, 4], wave(8)), f32([2, 4])], 1, { min: -1, max: 1, numBits: 8, narrowRange: false }),
  opts('LOCAL_RESPONSE_NORMALIZATION', [f32([1, 1, 2, 6], wave(12)), f32([1, 1, 2, 6])], 1, { radius: 2, bias: 1, alpha: 0.5, beta: 0.75 }),
  opts('TILE int64', [spec(I64, [2, 2], [1n, 2n, 3n, 4n]), constI32([2, 3]), spec(I64, [4, 6])], 2),
  opts('SELECT rank-1 condition', [bools([2], [1, 0]), f32([2, 3], iota(6)), f32([2, 3], iota(6, 10)), f32([2, 3])], 3),
  opts('ONE_HOT int64 indices', [spec(I64, [3], [0n, 2n, 5n]), constI32([4], []), f32([], [1]), f32([], [0]), f32([3, 4])], 4, {
    axis: -1,
  }),
  opts('REVERSE_SEQUENCE', [f32([2, 4], iota(8)), i32([2], [3, 1]), f32([2, 4])], 2, { seqDim: 1, batchDim: 0 }),
  opts('MATRIX_DIAG', [f32([2, 3], iota(6)), f32([2, 3, 3])], 1),
  opts('MATRIX_SET_DIAG', [f32([2, 3, 3], iota(18)), f32([2, 3], iota(6, 40)), f32([2, 3, 3])], 2),
  opts('SCATTER_ND int64', [constI32([0, 2], [2, 1]), spec(I64, [2, 3], [1n, 2n, 3n, 4n, 5n, 6n]), constI32([4, 3]), spec(I64, [4, 3])], 3),
  opts('SPARSE_TO_DENSE', [constI32([0, 1, 2, 0], [2, 2]), constI32([3, 3]), f32([2], [5, 6]), f32([], [-1]), f32([3, 3])], 4, {
    validateIndices: false,
  }),
  opts(
    'RANGE int64',
    [
      spec(I64, [], [1n], { constant: true }),
      spec(I64, [], [7n], { constant: true }),
      spec(I64, [], [2n], { constant: true }),
      spec(I64, [3]),
    ],
    3,
  ),
  opts('BUCKETIZE', [f32([2, 4], wave(8)), i32([2, 4])], 1, { boundaries: Float32Array.from([-0.5, 0, 0.5]) }),
  opts('REDUCE_ANY', [bools([2, 3], [0, 1, 0, 0, 0, 0]), constI32([1]), bools([2])], 2, { keepDims: false }),
  opts(
    'REDUCE_PROD int8',
    [i8([2, 3], iota(6, 1)), constI32([1]), spec(TensorType.INT8, [2], undefined, { scale: 0.1, zeroPoint: 0 })],
    2,
    {
      keepDims: false,
    },
  ),
  opts(
    'REDUCE_PROD int16',
    [
      spec(TensorType.INT16, [2, 4], [30000, -29000, 31000, 28000, -32000, 30500, 29999, 31111], { scale: 1 / 1024, zeroPoint: 0 }),
      constI32([1]),
      spec(TensorType.INT16, [2], undefined, { scale: 1 / 64, zeroPoint: 0 }),
    ],
    2,
    { keepDims: false },
  ),
  opts('REDUCE_PROD int64', [spec(I64, [2, 3], [1n, 2n, 3n, 4n, 5n, 6n]), constI32([1]), spec(I64, [2])], 2, { keepDims: false }),
  opts('SEGMENT_SUM', [f32([4, 2], iota(8)), constI32([0, 0, 1, 2]), f32([3, 2])], 2),
  opts('UNSORTED_SEGMENT_MAX', [i32([4, 2], iota(8)), i32([4], [0, 2, -1, 0]), constI32([3], []), i32([3, 2])], 3),
  opts('UNSORTED_SEGMENT_MIN', [f32([4, 2], wave(8)), i32([4], [0, 2, -1, 0]), constI32([3], []), f32([3, 2])], 3),
  opts('UNSORTED_SEGMENT_SUM', [f32([4, 2], wave(8)), i32([4], [0, 2, 1, 0]), constI32([3], []), f32([3, 2])], 3),
  opts('UNSORTED_SEGMENT_PROD', [i32([4, 2], iota(8)), i32([4], [0, 2, 1, 0]), constI32([3], []), i32([3, 2])], 3),
  opts('WHERE runtime condition', [bools([2, 3], [1, 0, 1, 1, 0, 0]), spec(I64, [6, 2])], 1),
  opts('UNIQUE runtime input', [f32([6], [1, 3, 1, 2, 3, 0]), f32([6]), i32([6])], 1, { idxOutType: I32 }),
  opts('TOPK_V2 runtime k', [f32([2, 5], wave(10)), i32([], [2]), f32([2, 5]), i32([2, 5])], 2),
  opts(
    'NON_MAX_SUPPRESSION_V4',
    [
      spec(F, [4, 4], [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, 2, 1, 3, 0, 0.5, 1, 1.5], { constant: true }),
      f32([4], [0.9, 0.8, 0.7, 0.95]),
      constI32([3], []),
      spec(F, [], [0.5], { constant: true }),
      spec(F, [], [0.1], { constant: true }),
      i32([3]),
      i32([]),
    ],
    5,
  ),
  opts(
    'NON_MAX_SUPPRESSION_V5',
    [
      spec(F, [4, 4], [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, 2, 1, 3, 0, 0.5, 1, 1.5], { constant: true }),
      f32([4], [0.9, 0.8, 0.7, 0.95]),
      constI32([3], []),
      spec(F, [], [0.5], { constant: true }),
      spec(F, [], [0.1], { constant: true }),
      spec(F, [], [0.5], { constant: true }),
      i32([3]),
      f32([3]),
      i32([]),
    ],
    6,
  ),
  opts(
    'EMBEDDING_LOOKUP_SPARSE',
    [
      constI32([1, 3, 0]),
      constI32([0, 0, 0, 1, 1, 0], [3, 2]),
      constI32([2, 2]),
      f32([3], [1, 0.5, 2]),
      f32([4, 3], iota(12)),
      f32([2, 3]),
    ],
    5,
    { combiner: 2 },
  ),
  opts(
    'CONV_3D',
    [f32([1, 2, 3, 3, 2], wave(36)), spec(F, [2, 2, 2, 2, 3], wave(48), { constant: true }), f32([1, 2, 3, 3, 3])],
    2,
    conv3d,
  ),
  opts(
    'CONV_3D_TRANSPOSE',
    [
      constI32([1, 2, 3, 3, 3]),
      spec(F, [2, 2, 2, 3, 2], wave(48), { constant: true }),
      f32([1, 2, 3, 3, 2], wave(36)),
      f32([1, 2, 3, 3, 3]),
    ],
    3,
    conv3d,
  ),
  opts('RANDOM_UNIFORM', [constI32([3, 5]), f32([3, 5])], 1, { seed: 7n, seed2: 11n }),
  opts('RANDOM_STANDARD_NORMAL', [constI32([3, 5]), f32([3, 5])], 1, { seed: 7n, seed2: 11n }),
  opts('MULTINOMIAL int64', [f32([2, 3], wave(6)), constI32([4], []), spec(I64, [2, 4])], 2, { seed: 7n, seed2: 11n }),
  opts(
    'AudioSpectrogram',
    [f32([40, 1], wave(40)), f32([1, 7, 9])],
    1,
    null,
    flexMap({ window_size: 16, stride: 4, magnitude_squared: false }),
  ),
  opts(
    'Mfcc',
    [
      f32(
        [1, 2, 33],
        iota(66).map((v) => (v % 7) / 7),
      ),
      constI32([16000], []),
      f32([1, 2, 13]),
    ],
    2,
    null,
    flexMap({ upper_frequency_limit: 4000, lower_frequency_limit: 20, filterbank_channel_count: 20, dct_coefficient_count: 13 }),
  ),
  opts(
    'NumericVerify',
    [
      i8([2, 3], iota(6)),
      f32(
        [2, 3],
        iota(6).map((v) => 0.05 * (v - 3)),
      ),
      f32([2, 3]),
    ],
    2,
    null,
    flexMap({ tolerance: { float: 5 }, log_if_failed: true }),
  ),
];

describe('TFLite builtins allocate nothing in invoke()', () => {
  it('covers every kernel of tflite-builtins.ts', () => {
    const covered = new Set(cases.map(([, o]) => o.registration));
    expect(tfliteBuiltinKernels.filter((r) => !covered.has(r)).map((r) => r.name)).toEqual([]);
  });

  it.each(cases)('%s', (_, options) => {
    const h = new KernelHarness(options).prepare();
    const ctx = invokeOnlyContext(h);
    const r = options.registration;
    const m = measureAllocation(() => r.invoke(ctx, h.node), { warmup: 3000, trials: 5, iterations: 500 });
    expect(m.bytesPerCall).toBeLessThan(1);
  });
});
