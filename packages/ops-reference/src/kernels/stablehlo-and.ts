/**
 * STABLEHLO_AND (LiteRT tflite/kernels/stablehlo_and.cc): a & b (bitwise; logical for bool), element-wise on two inputs of the same
 * type and shape. Types and arithmetic: stablehlo-elementwise-common.ts.
 */
import { BuiltinOperator } from '@micrort/core';
import { Computation, stablehloElementwise } from './stablehlo-elementwise-common.js';

/** The reference STABLEHLO_AND kernel. */
export const STABLEHLO_AND = stablehloElementwise(BuiltinOperator.STABLEHLO_AND, 'STABLEHLO_AND', Computation.And);
