/** REDUCE_MIN, float32, in WebAssembly (reduce-common.ts): from FLT_MAX, a value replaces the running one when less. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind, reduceRegistration } from './reduce-common.js';

/** The float32 REDUCE_MIN registration. */
export function createReduceMinF32(): Registration {
  return reduceRegistration('REDUCE_MIN', BuiltinOperator.REDUCE_MIN, 3, ReduceKind.Min) as Registration;
}
