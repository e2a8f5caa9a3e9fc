/** ELU, float32, in WebAssembly: f32_math (assembly/float/unary.ts), exp(x) − 1 below zero within the float tolerance, x elsewhere. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 ELU registration. */
export function createEluF32(): Registration<UnaryData> {
  return unaryRegistration('ELU', BuiltinOperator.ELU, 1, 'f32_math', [0, 0], MathOp.Elu);
}
