/**
 * SQUARED_DIFFERENCE, float32, in WebAssembly: f32_binary (assembly/float/binary.ts) with (x - y) rounded to float32, then squared, broadcasting over up to
 * three collapsed outer dimensions (no fused activation: nothing clamped); constant inputs are copied into the arena at prepare. Declines other
 * types and broadcasts needing more loops.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { BinaryOp, binaryRegistration, type BinaryData } from './binary-common.js';

/** The float32 SQUARED_DIFFERENCE registration. */
export function createSquaredDifferenceF32(): Registration<BinaryData> {
  return binaryRegistration('SQUARED_DIFFERENCE', BuiltinOperator.SQUARED_DIFFERENCE, 2, BinaryOp.SquaredDifference, false);
}
