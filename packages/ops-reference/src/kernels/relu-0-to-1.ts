/**
 * RELU_0_TO_1 (TFLite activations.cc Relu0to1Eval, after TFLite 2.9): clamps to [0, 1]. float32, and
 * uint8/int8 requantized to the output with TFLite's QuantizedReluX (relu-common.ts).
 */
import { BuiltinOperator } from '@micrort/core';
import { clampReluKernel } from './relu-common.js';

/** RELU_0_TO_1 registration (op version 1). */
export const RELU_0_TO_1 = clampReluKernel('RELU_0_TO_1', BuiltinOperator.RELU_0_TO_1, 0, 1);
