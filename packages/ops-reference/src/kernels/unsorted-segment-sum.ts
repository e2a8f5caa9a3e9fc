/** UNSORTED_SEGMENT_SUM (TFLite unsorted_segment.cc, after TFLite 2.9): see unsorted-segment-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import { SegmentOp, unsortedSegmentKernel } from './unsorted-segment-common.js';

/** UNSORTED_SEGMENT_SUM registration (op version 1). */
export const UNSORTED_SEGMENT_SUM = unsortedSegmentKernel('UNSORTED_SEGMENT_SUM', BuiltinOperator.UNSORTED_SEGMENT_SUM, SegmentOp.Sum);
