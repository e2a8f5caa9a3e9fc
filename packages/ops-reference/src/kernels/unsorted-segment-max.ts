/** UNSORTED_SEGMENT_MAX (TFLite unsorted_segment.cc, after TFLite 2.9): see unsorted-segment-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { SegmentOp, unsortedSegmentKernel } from './unsorted-segment-common.js';

/** UNSORTED_SEGMENT_MAX registration (op version 1). */
export const UNSORTED_SEGMENT_MAX = unsortedSegmentKernel('UNSORTED_SEGMENT_MAX', BuiltinOperator.UNSORTED_SEGMENT_MAX, SegmentOp.Max);
