/**
 * The op data of the reference AVERAGE_POOL_2D and MAX_POOL_2D (TFLM kernels/pooling_common.cc): TFLM's
 * OpDataPooling block in the arena and the geometry the loops read, filled from kernel-support's
 * `calculateOpDataPooling`.
 */
import { TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { allocateOpDataView, calculateOpDataPooling, emptyOpDataPooling, opData, type OpDataPooling } from '@micrort/kernel-support';

/**
 * sizeof(OpDataPooling) in TFLM: TfLitePaddingValues {width, height, width_offset, height_offset},
 * int32 activation_min/max, float activation_min_f32/max_f32.
 */
export const OP_DATA_POOLING_BYTES = 32;

/** The types the reference pools take (TFLM's float32, int8, int16; TFLite's uint8). */
const POOLING_TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16, TensorType.UINT8];

/**
 * Op data of the pooling kernels: kernel-support's `OpDataPooling` (the geometry and activation ranges
 * eval reads), TFLM's OpDataPooling struct in the arena (`block`), and the in-place variant's scratch.
 */
export interface PoolingOpData extends OpDataPooling {
  /** TFLM's OpDataPooling in the arena: TfLitePaddingValues, int32 and float activation ranges. */
  block: DataView;
  /** Scratch buffer of the in-place variant (pooling-in-place.ts), or -1 when the node runs normally. */
  inPlaceScratch: number;
}

/** init of both pooling kernels: TFLM's OpDataPooling block, the rest filled by `preparePooling`. */
export function initPooling(context: TfLiteContext): PoolingOpData {
  return {
    ...emptyOpDataPooling(),
    block: allocateOpDataView(context, OP_DATA_POOLING_BYTES),
    inPlaceScratch: -1,
  };
}

/**
 * TFLM PoolingPrepare for float32, int8, int16 and TFLite's uint8 (kernel-support's
 * `calculateOpDataPooling`): fills the node's op data and TFLM's OpDataPooling block and returns the op data.
 */
export function preparePooling(op: string, context: TfLiteContext, node: Node): PoolingOpData {
  const d = opData<PoolingOpData>(op, node);
  Object.assign(d, calculateOpDataPooling(op, context, node, POOLING_TYPES));
  d.inPlaceScratch = -1;
  const block = d.block;
  block.setInt32(0, d.padding.width, true);
  block.setInt32(4, d.padding.height, true);
  block.setInt32(8, d.padding.widthOffset, true);
  block.setInt32(12, d.padding.heightOffset, true);
  block.setInt32(16, d.actMin, true);
  block.setInt32(20, d.actMax, true);
  block.setFloat32(24, d.actMinF, true);
  block.setFloat32(28, d.actMaxF, true);
  return d;
}
