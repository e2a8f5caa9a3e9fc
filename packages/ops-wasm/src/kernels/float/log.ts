/** LOG, float32, in WebAssembly: f32_math (assembly/float/unary.ts), log(x) within the float tolerance (−inf at ±0, NaN below 0 and for NaN, +inf at +inf, as logf). */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 LOG registration. */
export function createLogF32(): Registration<UnaryData> {
  return unaryRegistration('LOG', BuiltinOperator.LOG, 2, 'f32_math', [0, 0], MathOp.Log);
}
