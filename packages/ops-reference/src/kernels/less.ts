/**
 * LESS (tflite-micro kernels/comparisons.cc): bool output, x < y elementwise with broadcasting up to 4-D,
 * for float32, int32, int64, int8 (int8 compared after TFLM's rescaling; see comparison-common.ts), and as
 * TFLite int16 (the raw values) and float16.
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import { Relation, comparisonKernel } from './comparison-common.js';

/** LESS reference kernel. */
export const LESS = comparisonKernel({
  name: 'LESS',
  builtinCode: BuiltinOperator.LESS,
  version: 3,
  relation: Relation.Less,
  types: [TensorType.FLOAT32, TensorType.INT32, TensorType.INT64, TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.FLOAT16],
  int16: 'raw',
});
