/** SQRT, float32, in WebAssembly: f32_math (assembly/float/unary.ts), sqrt(x), correctly rounded. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 SQRT registration. */
export function createSqrtF32(): Registration<UnaryData> {
  return unaryRegistration('SQRT', BuiltinOperator.SQRT, 1, 'f32_math', [0, 0], MathOp.Sqrt);
}
