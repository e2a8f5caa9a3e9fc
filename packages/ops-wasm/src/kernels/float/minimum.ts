/**
 * MINIMUM, float32, in WebAssembly: f32_binary (assembly/float/binary.ts) with x < y ? x : y (a NaN in x gives y, as TFLM), broadcasting over up to
 * three collapsed outer dimensions (no fused activation: nothing clamped); constant inputs are copied into the arena at prepare. Declines other
 * types and broadcasts needing more loops.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { BinaryOp, binaryRegistration, type BinaryData } from './binary-common.js';

/** The float32 MINIMUM registration. */
export function createMinimumF32(): Registration<BinaryData> {
  return binaryRegistration('MINIMUM', BuiltinOperator.MINIMUM, 4, BinaryOp.Minimum, false);
}
