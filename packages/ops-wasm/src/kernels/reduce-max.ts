/** REDUCE_MAX, int8 and uint8, in WebAssembly (reduce-quantized.ts): the largest raw value, from the type's lowest. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind } from './reduce-common.js';
import { quantizedReduceRegistration } from './reduce-quantized.js';

/** The int8 / uint8 REDUCE_MAX registration. */
export function createReduceMax(): Registration {
  return quantizedReduceRegistration('REDUCE_MAX', BuiltinOperator.REDUCE_MAX, 3, ReduceKind.Max) as Registration;
}
