/**
 * STABLEHLO_MULTIPLY (LiteRT tflite/kernels/stablehlo_multiply.cc): a × b, element-wise on two inputs of the same
 * type and shape. Types and arithmetic: stablehlo-elementwise-common.ts.
 */
import { BuiltinOperator } from '@micrort/core';
import { Computation, stablehloElementwise } from './stablehlo-elementwise-common.js';

/** The reference STABLEHLO_MULTIPLY kernel. */
export const STABLEHLO_MULTIPLY = stablehloElementwise(BuiltinOperator.STABLEHLO_MULTIPLY, 'STABLEHLO_MULTIPLY', Computation.Mul);
