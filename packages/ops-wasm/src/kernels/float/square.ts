/** SQUARE, float32, in WebAssembly: f32_math (assembly/float/unary.ts), x * x. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 SQUARE registration. */
export function createSquareF32(): Registration<UnaryData> {
  return unaryRegistration('SQUARE', BuiltinOperator.SQUARE, 1, 'f32_math', [0, 0], MathOp.Square);
}
