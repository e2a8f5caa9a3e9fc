/**
 * EQUAL (tflite-micro kernels/comparisons.cc): bool output, x == y elementwise with broadcasting up to 4-D,
 * for bool, float32, int32, int64, int8 (int8 compared after TFLM's rescaling; see comparison-common.ts),
 * and as TFLite int16, float16 and string.
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import { Relation, comparisonKernel } from './comparison-common.js';

/** EQUAL reference kernel. */
export const EQUAL = comparisonKernel({
  name: 'EQUAL',
  builtinCode: BuiltinOperator.EQUAL,
  version: 4,
  relation: Relation.Equal,
  types: [
    TensorType.BOOL,
    TensorType.FLOAT32,
    TensorType.INT32,
    TensorType.INT64,
    TensorType.INT8,
    TensorType.UINT8,
    TensorType.INT16,
    TensorType.FLOAT16,
    TensorType.STRING,
  ],
  int16: 'scaled-if-quantized',
});
