/** NON_MAX_SUPPRESSION_V4 (TFLite non_max_suppression.cc): hard NMS, see non-max-suppression-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { nonMaxSuppressionKernel } from './non-max-suppression-common.js';

/** NON_MAX_SUPPRESSION_V4 registration (op version 1). */
export const NON_MAX_SUPPRESSION_V4 = nonMaxSuppressionKernel('NON_MAX_SUPPRESSION_V4', BuiltinOperator.NON_MAX_SUPPRESSION_V4, false);
