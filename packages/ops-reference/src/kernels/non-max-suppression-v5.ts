/** NON_MAX_SUPPRESSION_V5 (TFLite non_max_suppression.cc): soft NMS with scores, see non-max-suppression-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { nonMaxSuppressionKernel } from './non-max-suppression-common.js';

/** NON_MAX_SUPPRESSION_V5 registration (op version 1). */
export const NON_MAX_SUPPRESSION_V5 = nonMaxSuppressionKernel('NON_MAX_SUPPRESSION_V5', BuiltinOperator.NON_MAX_SUPPRESSION_V5, true);
