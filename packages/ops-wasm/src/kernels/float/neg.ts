/** NEG, float32, in WebAssembly: f32_math (assembly/float/unary.ts), -x. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 NEG registration. */
export function createNegF32(): Registration<UnaryData> {
  return unaryRegistration('NEG', BuiltinOperator.NEG, 2, 'f32_math', [0, 0], MathOp.Neg);
}
