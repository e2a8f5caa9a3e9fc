/** REDUCE_MAX, float32, in WebAssembly (reduce-common.ts): from -FLT_MAX, a value replaces the running one when greater. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind, reduceRegistration } from './reduce-common.js';

/** The float32 REDUCE_MAX registration. */
export function createReduceMaxF32(): Registration {
  return reduceRegistration('REDUCE_MAX', BuiltinOperator.REDUCE_MAX, 3, ReduceKind.Max) as Registration;
}
