/**
 * PRELU, float32, in WebAssembly: f32_binary (assembly/float/binary.ts) with x >= 0 ? x : x * alpha per
 * lane (TFLite's reference kernel: the product rounded once to float32; -0 and NaN stay x), input and
 * alpha broadcast against each other over up to three collapsed outer dimensions (the usual per-channel
 * alpha is a repeated run); a constant alpha is copied into the arena at prepare. Declines other types
 * and broadcasts needing more loops.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { BinaryOp, binaryRegistration, type BinaryData } from './binary-common.js';

/** The float32 PRELU registration. */
export function createPreluF32(): Registration<BinaryData> {
  return binaryRegistration('PRELU', BuiltinOperator.PRELU, 1, BinaryOp.Prelu, false);
}
