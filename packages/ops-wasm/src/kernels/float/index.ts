/**
 * The float32 registrations of ops-wasm: for the same builtin codes as the int8 ones, each accepting
 * float32 nodes only (`supports()` says why it declines anything else).
 */
import type { Registration } from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../../options.js';
import { createAddF32 } from './add.js';
import { createAveragePool2DF32 } from './average-pool-2d.js';
import { createBatchMatMulF32 } from './batch-matmul.js';
import { createConv2DF32 } from './conv-2d.js';
import { createDepthwiseConv2DF32 } from './depthwise-conv-2d.js';
import { createFullyConnectedF32 } from './fully-connected.js';
import { createHardSwishF32 } from './hard-swish.js';
import { createLogisticF32 } from './logistic.js';
import { createMaxPool2DF32 } from './max-pool-2d.js';
import { createMeanF32 } from './mean.js';
import { createSumF32 } from './sum.js';
import { createReduceMaxF32 } from './reduce-max.js';
import { createReduceMinF32 } from './reduce-min.js';
import { createMulF32 } from './mul.js';
import { createPreluF32 } from './prelu.js';
import { createReluF32 } from './relu.js';
import { createRelu6F32 } from './relu6.js';
import { createReluN1To1F32 } from './relu-n1-to-1.js';
import { createResizeBilinearF32 } from './resize-bilinear.js';
import { createSoftmaxF32 } from './softmax.js';
import { createSvdfF32 } from './svdf.js';
import { createTanhF32 } from './tanh.js';
import { createTransposeConvF32 } from './transpose-conv.js';
import { createUnidirectionalSequenceLstmF32 } from './unidirectional-sequence-lstm.js';
import { createConvolution2DTransposeBiasF32 } from './convolution-2d-transpose-bias.js';
import { createSubF32 } from './sub.js';
import { createDivF32 } from './div.js';
import { createMaximumF32 } from './maximum.js';
import { createMinimumF32 } from './minimum.js';
import { createSquaredDifferenceF32 } from './squared-difference.js';
import { createAbsF32 } from './abs.js';
import { createNegF32 } from './neg.js';
import { createSqrtF32 } from './sqrt.js';
import { createRsqrtF32 } from './rsqrt.js';
import { createSquareF32 } from './square.js';
import { createExpF32 } from './exp.js';
import { createGeluF32 } from './gelu.js';
import { createLogF32 } from './log.js';
import { createEluF32 } from './elu.js';

/**
 * CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL, ADD, MUL, PRELU, SUB, DIV, MAXIMUM, MINIMUM,
 * SQUARED_DIFFERENCE, AVERAGE_POOL_2D, MAX_POOL_2D, MEAN, SUM, REDUCE_MAX, REDUCE_MIN, LOGISTIC, TANH, SOFTMAX, SVDF, RELU, RELU6, RELU_N1_TO_1,
 * HARD_SWISH, ABS, NEG, SQRT, RSQRT, SQUARE, EXP, GELU, LOG, ELU, RESIZE_BILINEAR, TRANSPOSE_CONV, UNIDIRECTIONAL_SEQUENCE_LSTM
 * and MediaPipe's custom Convolution2DTransposeBias for float32 (PAD and CONCATENATION of float32 are the type-agnostic byte
 * kernels').
 */
export function createFloatKernels(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration[] {
  return [
    createConv2DF32(options),
    createDepthwiseConv2DF32(options),
    createFullyConnectedF32(options),
    createBatchMatMulF32(options),
    createAddF32(),
    createMulF32(),
    createPreluF32(),
    createSubF32(),
    createDivF32(),
    createMaximumF32(),
    createMinimumF32(),
    createSquaredDifferenceF32(),
    createAveragePool2DF32(),
    createMaxPool2DF32(),
    createMeanF32(),
    createSumF32(),
    createReduceMaxF32(),
    createReduceMinF32(),
    createLogisticF32(),
    createTanhF32(),
    createSoftmaxF32(),
    createSvdfF32(),
    createReluF32(),
    createRelu6F32(),
    createReluN1To1F32(),
    createHardSwishF32(),
    createAbsF32(),
    createNegF32(),
    createSqrtF32(),
    createRsqrtF32(),
    createSquareF32(),
    createExpF32(),
    createGeluF32(),
    createLogF32(),
    createEluF32(),
    createResizeBilinearF32(),
    createTransposeConvF32(options),
    createConvolution2DTransposeBiasF32(options),
    createUnidirectionalSequenceLstmF32(),
  ] as Registration[];
}
