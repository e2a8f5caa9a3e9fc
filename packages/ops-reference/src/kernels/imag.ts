/** IMAG (TFLite complex_support.cc): the imaginary part of a complex64/complex128 tensor (complex-part-common.ts). */
import { BuiltinOperator } from '@micrort/core';
import { complexPartKernel } from './complex-part-common.js';

/** IMAG registration (op version 1). */
export const IMAG = complexPartKernel('IMAG', BuiltinOperator.IMAG, 1);
