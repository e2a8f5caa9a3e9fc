/**
 * The op data of the reference AVERAGE_POOL_2D and MAX_POOL_2D (TFLM kernels/pooling_common.cc): TFLM's
 * OpDataPooling block in the arena and the geometry the loops read, filled from kernel-support's
 * `calculateOpDataPooling`.
 */
import { TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { allocateOpDataView, calculateOpDataPooling, opData } from '@micrort/kernel-support';

/**
 * sizeof(OpDataPooling) in TFLM: TfLitePaddingValues {width, height, width_offset, height_offset},
 * int32 activation_min/max, float activation_min_f32/max_f32.
 */
export const OP_DATA_POOLING_BYTES = 32;

/** The types the reference pools take (TFLM's float32, int8, int16; TFLite's uint8). */
const POOLING_TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16, TensorType.UINT8];

/** Op data of the pooling kernels: TFLM's OpDataPooling block (`block`) and the geometry eval reads. */
export interface PoolingOpData {
  /** TFLM's OpDataPooling in the arena. */
  block: DataView;
  type: TensorType;
  batches: number;
  inHeight: number;
  inWidth: number;
  depth: number;
  outHeight: number;
  outWidth: number;
  strideHeight: number;
  strideWidth: number;
  filterHeight: number;
  filterWidth: number;
  padHeight: number;
  padWidth: number;
  /** Quantized activation range (int8/int16/uint8). */
  activationMin: number;
  activationMax: number;
  /** Float activation range (float32). */
  activationMinF: number;
  activationMaxF: number;
  /** Scratch buffer of the in-place variant (pooling-in-place.ts), or -1 when the node runs normally. */
  inPlaceScratch: number;
}

/** init of both pooling kernels: TFLM's OpDataPooling block, the rest filled by `preparePooling`. */
export function initPooling(context: TfLiteContext): PoolingOpData {
  return {
    block: allocateOpDataView(context, OP_DATA_POOLING_BYTES),
    type: TensorType.FLOAT32,
    batches: 0,
    inHeight: 0,
    inWidth: 0,
    depth: 0,
    outHeight: 0,
    outWidth: 0,
    strideHeight: 1,
    strideWidth: 1,
    filterHeight: 1,
    filterWidth: 1,
    padHeight: 0,
    padWidth: 0,
    activationMin: 0,
    activationMax: 0,
    activationMinF: 0,
    activationMaxF: 0,
    inPlaceScratch: -1,
  };
}

/**
 * TFLM PoolingPrepare for float32, int8, int16 and TFLite's uint8 (kernel-support's
 * `calculateOpDataPooling`): fills the node's op data and TFLM's OpDataPooling block and returns the op data.
 */
export function preparePooling(op: string, context: TfLiteContext, node: Node): PoolingOpData {
  const d = opData<PoolingOpData>(op, node);
  const o = calculateOpDataPooling(op, context, node, POOLING_TYPES);
  d.type = o.type;
  d.batches = o.batches;
  d.inHeight = o.inHeight;
  d.inWidth = o.inWidth;
  d.depth = o.depth;
  d.outHeight = o.outHeight;
  d.outWidth = o.outWidth;
  d.strideHeight = o.strideHeight;
  d.strideWidth = o.strideWidth;
  d.filterHeight = o.filterHeight;
  d.filterWidth = o.filterWidth;
  d.padHeight = o.padding.height;
  d.padWidth = o.padding.width;
  d.activationMin = o.actMin;
  d.activationMax = o.actMax;
  d.activationMinF = o.actMinF;
  d.activationMaxF = o.actMaxF;
  d.inPlaceScratch = -1;
  const block = d.block;
  block.setInt32(0, o.padding.width, true);
  block.setInt32(4, o.padding.height, true);
  block.setInt32(8, o.padding.widthOffset, true);
  block.setInt32(12, o.padding.heightOffset, true);
  block.setInt32(16, o.actMin, true);
  block.setInt32(20, o.actMax, true);
  block.setFloat32(24, o.actMinF, true);
  block.setFloat32(28, o.actMaxF, true);
  return d;
}
