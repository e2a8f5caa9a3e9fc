/** RIGHT_SHIFT (TFLite right_shift.cc, after TFLite 2.9): elementwise x >> clamp(y) with broadcasting (integer-binary-common.ts). */
import { BuiltinOperator } from '@micrort/core';
import { integerBinaryKernel } from './integer-binary-common.js';

/** RIGHT_SHIFT registration (op version 1). */
export const RIGHT_SHIFT = integerBinaryKernel('RIGHT_SHIFT', BuiltinOperator.RIGHT_SHIFT, true);
