/**
 * TANH, float32, in WebAssembly: f32_tanh (assembly/float/unary.ts), sign(x) * (1 - e) / (1 + e) with
 * e = exp(-2|x|) for |x| >= 1/4, the odd Taylor polynomial to x^9 below (relative error below 1e-6).
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 TANH registration. */
export function createTanhF32(): Registration<UnaryData> {
  return unaryRegistration('TANH', BuiltinOperator.TANH, 3, 'f32_tanh');
}
