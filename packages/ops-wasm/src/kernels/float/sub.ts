/**
 * SUB, float32, in WebAssembly: f32_binary (assembly/float/binary.ts) with x - y, broadcasting over up to
 * three collapsed outer dimensions, the fused activation clamped before the store; constant inputs are copied into the arena at prepare. Declines other
 * types and broadcasts needing more loops.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { BinaryOp, binaryRegistration, type BinaryData } from './binary-common.js';

/** The float32 SUB registration. */
export function createSubF32(): Registration<BinaryData> {
  return binaryRegistration('SUB', BuiltinOperator.SUB, 5, BinaryOp.Sub);
}
