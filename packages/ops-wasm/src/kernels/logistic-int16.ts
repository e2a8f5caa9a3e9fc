/**
 * LOGISTIC, int16 (16x8-quantized models, zero points 0, output scale 2^-15), in WebAssembly:
 * TFLM's reference_integer_ops::Logistic (its sigmoid table with 9 interpolation bits; the general input
 * multiplier and the power-of-two scale 2^-12) as qs16_logistic, byte-equal to ops-reference
 * (sigmoid-int16-common.ts). int8 and uint8 are sigmoid-lut.ts's, float32 kernels/float/'s.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { LOGISTIC_SPEC } from '@micrort/kernel-support';
import { sigmoid16Registration, type Sigmoid16Data } from './sigmoid-int16-common.js';

/** The int16 LOGISTIC registration. */
export function createLogisticInt16(): Registration<Sigmoid16Data> {
  return sigmoid16Registration('LOGISTIC', BuiltinOperator.LOGISTIC, LOGISTIC_SPEC);
}
