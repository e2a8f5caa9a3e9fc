/** EXP, float32, in WebAssembly: f32_math (assembly/float/unary.ts), exp(x) within the float tolerance (overflow to +inf past 88.72, NaN kept). */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 EXP registration. */
export function createExpF32(): Registration<UnaryData> {
  return unaryRegistration('EXP', BuiltinOperator.EXP, 2, 'f32_math', [0, 0], MathOp.Exp);
}
