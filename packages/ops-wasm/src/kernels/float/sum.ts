/** SUM, float32, in WebAssembly (reduce-common.ts): float32 sums in input order. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind, reduceRegistration } from './reduce-common.js';

/** The float32 SUM registration. */
export function createSumF32(): Registration {
  return reduceRegistration('SUM', BuiltinOperator.SUM, 2, ReduceKind.Sum) as Registration;
}
