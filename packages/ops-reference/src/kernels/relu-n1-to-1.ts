/**
 * RELU_N1_TO_1 (TFLite activations.cc Relu1Eval; TFLM has no such kernel): clamps to [-1, 1]. float32,
 * and uint8/int8 requantized to the output with TFLite's QuantizedReluX (relu-common.ts).
 */
import { BuiltinOperator } from '@micrort/core';
import { clampReluKernel } from './relu-common.js';

/** RELU_N1_TO_1 registration (op version 1). */
export const RELU_N1_TO_1 = clampReluKernel('RELU_N1_TO_1', BuiltinOperator.RELU_N1_TO_1, -1, 1);
