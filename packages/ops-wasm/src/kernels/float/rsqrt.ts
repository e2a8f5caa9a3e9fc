/** RSQRT, float32, in WebAssembly: f32_math (assembly/float/unary.ts), 1 / sqrt(x) with two float32 roundings, as TFLite's 1.0f / std::sqrt(x). */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 RSQRT registration. */
export function createRsqrtF32(): Registration<UnaryData> {
  return unaryRegistration('RSQRT', BuiltinOperator.RSQRT, 3, 'f32_math', [0, 0], MathOp.Rsqrt);
}
