/**
 * DEPTH_TO_SPACE (TFLM kernels/depth_to_space.cc) in WebAssembly: the transpose of the input viewed as
 * [N, H, W, bs, bs, C / bs²] that swaps axes 2 and 3 (block-rearrange.ts); float32, int8, uint8, int32,
 * int64, byte-exact.
 */
import { BuiltinOperator } from '@micrort/core';
import { createBlockRearrange } from './block-rearrange.js';

/** The DEPTH_TO_SPACE registration. */
export function createDepthToSpace(): ReturnType<typeof createBlockRearrange> {
  return createBlockRearrange('DEPTH_TO_SPACE', BuiltinOperator.DEPTH_TO_SPACE, 'depthToSpace');
}
