/**
 * TANH, int16 (16x8-quantized models, zero points 0, output scale 2^-15), in WebAssembly: TFLM's
 * reference_integer_ops::Tanh (tanh(x) = 2 sigmoid(2x) − 1 on its sigmoid table with 8 interpolation
 * bits; the general input multiplier and the power-of-two scales 2^-12 and 2^-11) as qs16_tanh,
 * byte-equal to ops-reference (sigmoid-int16-common.ts). int8 and uint8 are sigmoid-lut.ts's, float32
 * kernels/float/'s.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { TANH_SPEC } from '@micrort/kernel-support';
import { sigmoid16Registration, type Sigmoid16Data } from './sigmoid-int16-common.js';

/** The int16 TANH registration. */
export function createTanhInt16(): Registration<Sigmoid16Data> {
  return sigmoid16Registration('TANH', BuiltinOperator.TANH, TANH_SPEC);
}
