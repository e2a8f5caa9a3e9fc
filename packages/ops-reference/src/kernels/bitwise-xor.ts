/** BITWISE_XOR (TFLite bitwise_xor.cc, after TFLite 2.9): elementwise XOR with broadcasting (integer-binary-common.ts). */
import { BuiltinOperator } from '@micrort/core';
import { integerBinaryKernel } from './integer-binary-common.js';

/** BITWISE_XOR registration (op version 1). */
export const BITWISE_XOR = integerBinaryKernel('BITWISE_XOR', BuiltinOperator.BITWISE_XOR, false);
