/** MEAN, float32, in WebAssembly (reduce-common.ts): the sum of each output's values in input order, divided by their count in float32. */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { ReduceKind, reduceRegistration } from './reduce-common.js';

/** The float32 MEAN registration. */
export function createMeanF32(): Registration {
  return reduceRegistration('MEAN', BuiltinOperator.MEAN, 3, ReduceKind.Mean) as Registration;
}
