/** REAL (TFLite complex_support.cc): the real part of a complex64/complex128 tensor (complex-part-common.ts). */
import { BuiltinOperator } from '@micrort/core';
import { complexPartKernel } from './complex-part-common.js';

/** REAL registration (op version 1). */
export const REAL = complexPartKernel('REAL', BuiltinOperator.REAL, 0);
