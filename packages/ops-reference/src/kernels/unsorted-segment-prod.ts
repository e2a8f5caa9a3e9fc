/** UNSORTED_SEGMENT_PROD (TFLite unsorted_segment.cc, after TFLite 2.9): see unsorted-segment-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { SegmentOp, unsortedSegmentKernel } from './unsorted-segment-common.js';

/** UNSORTED_SEGMENT_PROD registration (op version 1). */
export const UNSORTED_SEGMENT_PROD = unsortedSegmentKernel('UNSORTED_SEGMENT_PROD', BuiltinOperator.UNSORTED_SEGMENT_PROD, SegmentOp.Prod);
