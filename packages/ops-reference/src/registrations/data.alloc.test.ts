/**
 * "invoke() allocates nothing" for the data-movement, shape, spatial and detection kernels of data.ts:
 * each kernel is prepared with KernelHarness, then invoked many times through a bare invoke-phase context
 * (the harness' own context allocates in its phase guards) while V8's heap usage is watched.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, MirrorPadMode, Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { HarnessOptions, HarnessTensorSpec } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { dataKernels } from './data.js';
import { flexMap } from '@micrort/test-support/flexbuffers';
import { constI32, iota, spec } from '../kernels/__fixtures__/data-testing.js';

const reg = (name: string) => dataKernels.find((r) => r.name === name)!;
const F = TensorType.FLOAT32;
const I8 = TensorType.INT8;
const q = { scale: 0.5, zeroPoint: -3 };
const i8 = (shape: number[], data?: number[]) => spec(I8, shape, data, q);
const f32 = (shape: number[], data?: number[]) => spec(F, shape, data);
const out32 = (shape: number[]) => spec(TensorType.INT32, shape);

function opts(
  name: string,
  tensors: HarnessTensorSpec[],
  inputCount: number,
  builtinData: HarnessOptions['builtinData'] = null,
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

const DETECTION_OPTIONS = {
  max_detections: 3,
  max_classes_per_detection: 1,
  detections_per_class: 2,
  use_regular_nms: true,
  nms_score_threshold: { float: 0.1 },
  nms_iou_threshold: { float: 0.5 },
  num_classes: 2,
  y_scale: { float: 10 },
  x_scale: { float: 10 },
  h_scale: { float: 5 },
  w_scale: { float: 5 },
};
const detection = (regular: boolean): [string, HarnessOptions] =>
  opts(
    `TFLite_Detection_PostProcess ${regular ? 'regular' : 'fast'}`,
    [
      f32(
        [1, 6, 4],
        iota(24).map((v) => (v % 5) / 10),
      ),
      f32(
        [1, 6, 3],
        iota(18).map((v) => (v % 7) / 7),
      ),
      spec(F, [6, 4], [0.5, 0.5, 1, 1, 0.5, 2.5, 1, 1, 0.5, 4.5, 1, 1, 2.5, 0.5, 1, 1, 2.5, 2.5, 1, 1, 2.5, 4.5, 1, 1], { constant: true }),
      f32([1, 3, 4]),
      f32([1, 3]),
      f32([1, 3]),
      f32([1]),
    ],
    3,
    null,
    flexMap({ ...DETECTION_OPTIONS, use_regular_nms: regular }),
  );

const cases: [string, HarnessOptions][] = [
  opts('ARG_MAX int8', [i8([2, 3, 4], iota(24, -12)), constI32([1]), out32([2, 4])], 2),
  opts(
    'ARG_MIN float32',
    [
      f32(
        [3, 5],
        iota(15).map((v) => Math.sin(v)),
      ),
      constI32([-1]),
      out32([3]),
    ],
    2,
  ),
  opts('BATCH_TO_SPACE_ND float32', [f32([4, 2, 2, 1], iota(16)), constI32([2, 2]), constI32([0, 0, 0, 1], [2, 2]), f32([1, 4, 3, 1])], 3),
  opts('SPACE_TO_BATCH_ND int8', [i8([1, 3, 4, 2], iota(24, -12)), constI32([2, 2]), constI32([1, 0, 0, 0], [2, 2]), i8([4, 2, 2, 2])], 3),
  opts('BROADCAST_ARGS int32', [spec(TensorType.INT32, [3], [2, 1, 4]), spec(TensorType.INT32, [2], [3, 1]), out32([3])], 2),
  opts('BROADCAST_ARGS int64', [spec(TensorType.INT64, [2], [1n, 4n]), spec(TensorType.INT64, [1], [4n]), spec(TensorType.INT64, [2])], 2),
  opts('BROADCAST_TO float32', [f32([3, 1], [1, 2, 3]), constI32([2, 3, 4]), f32([2, 3, 4])], 2),
  opts('DEPTH_TO_SPACE int8', [i8([1, 2, 2, 8], iota(32, -16)), i8([1, 4, 4, 2])], 1, { blockSize: 2 }),
  opts('SPACE_TO_DEPTH float32', [f32([1, 4, 4, 2], iota(32)), f32([1, 2, 2, 8])], 1, { blockSize: 2 }),
  opts('DYNAMIC_UPDATE_SLICE int8', [i8([4, 5], iota(20, -10)), i8([2, 3], iota(6)), spec(TensorType.INT64, [2], [1n, 9n]), i8([4, 5])], 3),
  opts('EMBEDDING_LOOKUP float32', [spec(TensorType.INT32, [3], [2, 0, 1]), f32([3, 4], iota(12)), f32([3, 4])], 2),
  opts(
    'EMBEDDING_LOOKUP hybrid',
    [spec(TensorType.INT32, [2], [1, 0]), spec(I8, [2, 3], iota(6), { scale: 0.25, zeroPoint: 0 }), f32([2, 3])],
    2,
  ),
  opts('EXPAND_DIMS int8', [i8([2, 3], iota(6)), constI32([1]), i8([2, 1, 3])], 2),
  opts('GATHER float32', [f32([5, 4], iota(20)), spec(TensorType.INT32, [3], [4, 0, 2]), f32([3, 4])], 2, { axis: 0, batchDims: 0 }),
  opts('GATHER_ND int8', [i8([3, 4], iota(12)), spec(TensorType.INT32, [2, 2], [0, 1, 2, 3]), i8([2])], 2),
  opts('MIRROR_PAD float32', [f32([2, 3], iota(6)), constI32([1, 1, 2, 2], [2, 2]), f32([4, 7])], 2, { mode: MirrorPadMode.REFLECT }),
  opts('PACK int8', [i8([2, 3], iota(6)), i8([2, 3], iota(6, 10)), i8([2, 2, 3])], 2, { valuesCount: 2, axis: 1 }),
  opts('UNPACK float32', [f32([3, 4], iota(12)), f32([4]), f32([4]), f32([4])], 1, { num: 3, axis: 0 }),
  opts('SPLIT int8', [constI32([1], []), i8([2, 6], iota(12)), i8([2, 3]), i8([2, 3])], 2, { numSplits: 2 }),
  opts('SPLIT_V float32', [f32([2, 7], iota(14)), constI32([2, 5]), constI32([1], []), f32([2, 2]), f32([2, 5])], 3, { numSplits: 2 }),
  opts('SQUEEZE float32', [f32([1, 3, 1, 4], iota(12)), f32([3, 4])], 1, { squeezeDims: new Int32Array(0) }),
  opts('SHAPE int32', [f32([2, 3, 4], iota(24)), out32([3])], 1),
  opts('SLICE float32', [f32([3, 4, 5], iota(60)), constI32([1, 0, 2]), constI32([2, -1, 3]), f32([2, 4, 3])], 3),
  opts(
    'SLICE runtime int32 begin/size',
    [i8([4, 4], iota(16)), spec(TensorType.INT32, [2], [1, 1]), spec(TensorType.INT32, [2], [3, 2]), i8([3, 2])],
    3,
  ),
  opts('REVERSE_V2 int8', [i8([2, 3, 4], iota(24)), constI32([1, 2]), i8([2, 3, 4])], 2),
  opts(
    'RESIZE_BILINEAR float32',
    [
      f32(
        [1, 3, 4, 2],
        iota(24).map((v) => v / 7),
      ),
      constI32([5, 7]),
      f32([1, 5, 7, 2]),
    ],
    2,
    { alignCorners: false, halfPixelCenters: true },
  ),
  opts('RESIZE_BILINEAR int8', [i8([1, 4, 4, 3], iota(48, -24)), constI32([7, 7]), i8([1, 7, 7, 3])], 2, {
    alignCorners: true,
    halfPixelCenters: false,
  }),
  opts('RESIZE_NEAREST_NEIGHBOR int8', [i8([1, 3, 3, 2], iota(18)), constI32([6, 5]), i8([1, 6, 5, 2])], 2, {
    alignCorners: false,
    halfPixelCenters: true,
  }),
  opts(
    'L2_POOL_2D float32',
    [
      f32(
        [1, 4, 4, 2],
        iota(32).map((v) => v / 9 - 1),
      ),
      f32([1, 2, 2, 2]),
    ],
    1,
    {
      padding: Padding.SAME,
      strideW: 2,
      strideH: 2,
      filterWidth: 3,
      filterHeight: 3,
      fusedActivationFunction: ActivationFunctionType.RELU6,
    },
  ),
  detection(false),
  detection(true),
];

describe('data kernels allocate nothing in invoke()', () => {
  it('covers every kernel of data.ts', () => {
    const covered = new Set(cases.map(([, o]) => o.registration));
    expect(dataKernels.filter((r) => !covered.has(r)).map((r) => r.name)).toEqual([]);
  });

  it.each(cases)('%s', (_, options) => {
    const h = new KernelHarness(options).prepare();
    const ctx = invokeOnlyContext(h);
    const r = options.registration;
    const m = measureAllocation(() => r.invoke(ctx, h.node), { warmup: 5000, trials: 5, iterations: 1000 });
    expect(m.bytesPerCall).toBeLessThan(1);
  });
});
