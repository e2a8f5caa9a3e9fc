/**
 * STABLEHLO_MAXIMUM (LiteRT tflite/kernels/stablehlo_maximum.cc): max(a, b), element-wise on two inputs of the same
 * type and shape. Types and arithmetic: stablehlo-elementwise-common.ts.
 */
import { BuiltinOperator } from '@micrort/core';
import { Computation, stablehloElementwise } from './stablehlo-elementwise-common.js';

/** The reference STABLEHLO_MAXIMUM kernel. */
export const STABLEHLO_MAXIMUM = stablehloElementwise(BuiltinOperator.STABLEHLO_MAXIMUM, 'STABLEHLO_MAXIMUM', Computation.Max);
