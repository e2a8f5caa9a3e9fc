/**
 * DIV, float32, in WebAssembly: f32_binary (assembly/float/binary.ts) with x / y (x / 0 and 0 / 0 as IEEE float32: infinities then clamped to the activation range, NaN kept), broadcasting over up to
 * three collapsed outer dimensions, the fused activation clamped before the store; constant inputs are copied into the arena at prepare. Declines other
 * types and broadcasts needing more loops.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { BinaryOp, binaryRegistration, type BinaryData } from './binary-common.js';

/** The float32 DIV registration. */
export function createDivF32(): Registration<BinaryData> {
  return binaryRegistration('DIV', BuiltinOperator.DIV, 2, BinaryOp.Div);
}
