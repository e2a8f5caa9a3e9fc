/**
 * GREATER (tflite-micro kernels/comparisons.cc): bool output, x > y elementwise with broadcasting up to 4-D,
 * for float32, int32, int64, int8, int16 (int8 and int16 compared after TFLM's rescaling; see
 * comparison-common.ts), and float16 as TFLite.
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import { Relation, comparisonKernel } from './comparison-common.js';

/** GREATER reference kernel. */
export const GREATER = comparisonKernel({
  name: 'GREATER',
  builtinCode: BuiltinOperator.GREATER,
  version: 2,
  relation: Relation.Greater,
  types: [TensorType.FLOAT32, TensorType.INT32, TensorType.INT64, TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.FLOAT16],
});
