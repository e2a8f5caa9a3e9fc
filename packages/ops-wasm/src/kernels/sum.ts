/** SUM, int8, in WebAssembly (reduce-quantized.ts): TFLM's QuantizedMeanOrSum with the sums rescaled by scale_in / scale_out. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind } from './reduce-common.js';
import { quantizedReduceRegistration } from './reduce-quantized.js';

/** The int8 SUM registration. */
export function createSum(): Registration {
  return quantizedReduceRegistration('SUM', BuiltinOperator.SUM, 2, ReduceKind.Sum) as Registration;
}
