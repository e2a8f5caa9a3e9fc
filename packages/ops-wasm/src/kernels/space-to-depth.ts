/**
 * SPACE_TO_DEPTH (TFLM kernels/space_to_depth.cc) in WebAssembly: the transpose of the input viewed as
 * [N, H / bs, bs, W / bs, bs, C] that swaps axes 2 and 3 (block-rearrange.ts); float32, int8, uint8, int32,
 * int64, byte-exact.
 */
import { BuiltinOperator } from '@micrort/core';
import { createBlockRearrange } from './block-rearrange.js';

/** The SPACE_TO_DEPTH registration. */
export function createSpaceToDepth(): ReturnType<typeof createBlockRearrange> {
  return createBlockRearrange('SPACE_TO_DEPTH', BuiltinOperator.SPACE_TO_DEPTH, 'spaceToDepth');
}
