/**
 * MEAN, int8 and TFLite's uint8, in WebAssembly (reduce-quantized.ts) over any set of axes — the
 * height and width of NHWC images (global average pooling), the last axis (a layer norm's mean), ... —:
 * TFLM's QuantizedMeanOrSum with 1/count folded into the multiplier.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind } from './reduce-common.js';
import { quantizedReduceRegistration } from './reduce-quantized.js';

/** The int8 / uint8 MEAN registration. */
export function createMean(): Registration {
  return quantizedReduceRegistration('MEAN', BuiltinOperator.MEAN, 3, ReduceKind.Mean) as Registration;
}
