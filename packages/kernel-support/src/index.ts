/**
 * @micrort/kernel-support — TFLM's shared kernel math, written once for every kernel package (as TFLM's
 * `kernels/*_common.cc` and `padding.h` serve both its reference and its CMSIS-NN kernels): padding and
 * output geometry, fused-activation ranges, the op-data calculators of CONV_2D / DEPTHWISE_CONV_2D /
 * TRANSPOSE_CONV, FULLY_CONNECTED, ADD, SUB, MUL, the pools and SOFTMAX, GELU's arithmetic and table, broadcast plans, the prepare
 * checks with typed errors, the reasons `supports()` gives, the op-data idiom (init allocates,
 * prepare fills, invoke reads), and the arithmetic of TFLite's hybrid kernels (tensor_utils). It
 * imports only `@micrort/core`; integer results follow TFLM to the bit by construction, since every
 * package computes its parameters here.
 */
export * from './activation.js';
export * from './add.js';
export * from './block-rearrange.js';
export * from './blockwise.js';
export * from './batch-matmul.js';
export * from './broadcast.js';
export * from './checks.js';
export * from './constant-index.js';
export * from './conv.js';
export * from './custom-options.js';
export * from './decline.js';
export * from './fully-connected.js';
export * from './gather.js';
export * from './hybrid.js';
export * from './lstm-integer.js';
export * from './macs.js';
export * from './mul.js';
export * from './mirror-pad.js';
export * from './op-data.js';
export * from './output-shape.js';
export * from './pack.js';
export * from './padding.js';
export * from './pooling.js';
export * from './reduce-axes.js';
export * from './resize.js';
export * from './reverse.js';
export * from './slice.js';
export * from './softmax.js';
export * from './split.js';
export * from './spatial.js';
export * from './sub.js';
export * from './svdf.js';
export * from './strings.js';
export * from './float16.js';
export * from './gelu.js';
export * from './int64.js';
export * from './lut.js';
export * from './transpose-conv.js';
export * from './sigmoid.js';
export * from './hard-swish.js';
export * from './leaky-relu.js';
export * from './rsqrt.js';
export * from './prelu.js';
export * from './squared-difference.js';
