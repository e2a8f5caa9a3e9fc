/** RANDOM_STANDARD_NORMAL (TFLite random_ops.cc): standard normal float32 values by Box-Muller from TFLite's seeded Philox generator (random-common.ts). */
import { BuiltinOperator } from '@micrort/core';
import { randomKernel } from './random-common.js';

/** RANDOM_STANDARD_NORMAL registration (op version 1). */
export const RANDOM_STANDARD_NORMAL = randomKernel('RANDOM_STANDARD_NORMAL', BuiltinOperator.RANDOM_STANDARD_NORMAL, true);
