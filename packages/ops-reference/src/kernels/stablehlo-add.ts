/**
 * STABLEHLO_ADD (LiteRT tflite/kernels/stablehlo_add.cc): a + b, element-wise on two inputs of the same
 * type and shape. Types and arithmetic: stablehlo-elementwise-common.ts.
 */
import { BuiltinOperator } from '@micrort/core';
import { Computation, stablehloElementwise } from './stablehlo-elementwise-common.js';

/** The reference STABLEHLO_ADD kernel. */
export const STABLEHLO_ADD = stablehloElementwise(BuiltinOperator.STABLEHLO_ADD, 'STABLEHLO_ADD', Computation.Add);
