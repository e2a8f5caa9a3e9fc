/** REDUCE_MIN, int8 and uint8, in WebAssembly (reduce-quantized.ts): the smallest raw value, from the type's highest. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind } from './reduce-common.js';
import { quantizedReduceRegistration } from './reduce-quantized.js';

/** The int8 / uint8 REDUCE_MIN registration. */
export function createReduceMin(): Registration {
  return quantizedReduceRegistration('REDUCE_MIN', BuiltinOperator.REDUCE_MIN, 3, ReduceKind.Min) as Registration;
}
