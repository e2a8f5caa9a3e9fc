/**
 * The hybrid registrations of ops-wasm (float32 activations × int8 weights, the converter's
 * dynamic-range quantization): for CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, UNIDIRECTIONAL_SEQUENCE_LSTM,
 * BATCH_MATMUL, SVDF and TRANSPOSE_CONV, each accepting float32 nodes with quantized weights only (`supports()` says why it declines anything else).
 */
import type { Registration } from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../../options.js';
import { createBatchMatMulHybrid } from './batch-matmul.js';
import { createConv2DHybrid } from './conv-2d.js';
import { createDepthwiseConv2DHybrid } from './depthwise-conv-2d.js';
import { createFullyConnectedHybrid } from './fully-connected.js';
import { createSvdfHybrid } from './svdf.js';
import { createTransposeConvHybrid } from './transpose-conv.js';
import { createUnidirectionalSequenceLstmHybrid } from './unidirectional-sequence-lstm.js';

/** Hybrid CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, UNIDIRECTIONAL_SEQUENCE_LSTM, BATCH_MATMUL, SVDF and TRANSPOSE_CONV. */
export function createHybridKernels(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration[] {
  return [
    createConv2DHybrid(options),
    createDepthwiseConv2DHybrid(options),
    createFullyConnectedHybrid(options),
    createUnidirectionalSequenceLstmHybrid(),
    createBatchMatMulHybrid(options),
    createSvdfHybrid(),
    createTransposeConvHybrid(options),
  ] as Registration[];
}
