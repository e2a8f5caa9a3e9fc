/** ABS, float32, in WebAssembly: f32_math (assembly/float/unary.ts), |x|. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 ABS registration. */
export function createAbsF32(): Registration<UnaryData> {
  return unaryRegistration('ABS', BuiltinOperator.ABS, 5, 'f32_math', [0, 0], MathOp.Abs);
}
