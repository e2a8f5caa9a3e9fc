/** UNSORTED_SEGMENT_MIN (TFLite unsorted_segment.cc, after TFLite 2.9): see unsorted-segment-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { SegmentOp, unsortedSegmentKernel } from './unsorted-segment-common.js';

/** UNSORTED_SEGMENT_MIN registration (op version 1). */
export const UNSORTED_SEGMENT_MIN = unsortedSegmentKernel('UNSORTED_SEGMENT_MIN', BuiltinOperator.UNSORTED_SEGMENT_MIN, SegmentOp.Min);
