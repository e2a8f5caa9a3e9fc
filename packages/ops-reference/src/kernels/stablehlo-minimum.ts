/**
 * STABLEHLO_MINIMUM (LiteRT tflite/kernels/stablehlo_minimum.cc): min(a, b), element-wise on two inputs of the same
 * type and shape. Types and arithmetic: stablehlo-elementwise-common.ts.
 */
import { BuiltinOperator } from '@micrort/core';
import { Computation, stablehloElementwise } from './stablehlo-elementwise-common.js';

/** The reference STABLEHLO_MINIMUM kernel. */
export const STABLEHLO_MINIMUM = stablehloElementwise(BuiltinOperator.STABLEHLO_MINIMUM, 'STABLEHLO_MINIMUM', Computation.Min);
