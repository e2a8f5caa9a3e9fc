/**
 * GELU, float32, in WebAssembly: f32_math (assembly/float/unary.ts), x·Φ(x) with erfc by Abramowitz and
 * Stegun 7.1.26, or with the node's `approximate` TFLite's tanh form in float32; within the float tolerance
 * of ops-reference (TFLite's double-precision erf form, kernel-support's geluExact).
 */
import { BuiltinOperator, type GeluOptions, type Registration } from '@micrort/core';
import { MathOp, unaryRegistration, type UnaryData } from './unary-common.js';

/** The float32 GELU registration. */
export function createGeluF32(): Registration<UnaryData> {
  return unaryRegistration('GELU', BuiltinOperator.GELU, 2, 'f32_math', [0, 0], (node) =>
    (node.builtinData as GeluOptions | null)?.approximate ? MathOp.GeluTanh : MathOp.Gelu,
  );
}
