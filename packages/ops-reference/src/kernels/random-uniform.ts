/** RANDOM_UNIFORM (TFLite random_ops.cc): float32 values in [0, 1) from TFLite's seeded Philox generator (random-common.ts). */
import { BuiltinOperator } from '@micrort/core';
import { randomKernel } from './random-common.js';

/** RANDOM_UNIFORM registration (op version 1). */
export const RANDOM_UNIFORM = randomKernel('RANDOM_UNIFORM', BuiltinOperator.RANDOM_UNIFORM, false);
