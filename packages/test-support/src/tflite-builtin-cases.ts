/**
 * The ops of ops-reference's registrations/tflite-builtins.ts (TFLite builtins TFLM lacks) and their
 * op-set recipes as test cases: ops-reference compares the combinations TFLite 2.9 has with TFLite 2.9,
 * benchmarks compares the newer ones with LiteRT.js. String combinations are left out (string tensors
 * are another slice of issue 20).
 */
import { buildRecipe, comboLabel } from './tflite-op-recipes.js';
import { TFLITE_OPS, tfliteResolverKey } from './tflite-op-set.js';
import type { RecipeModel } from './tflite-recipe-builder.js';

/**
 * Each op of the group, with the outputs of its recipe whose size depends on data (planned at an upper
 * bound, with their actual dims after invoke: the oracle tests compare those dims with TFLite's).
 */
export const TFLITE_BUILTIN_OPS: Readonly<Record<string, readonly number[]>> = {
  RELU_N1_TO_1: [],
  RELU_0_TO_1: [],
  GELU: [],
  SIGN: [],
  ATAN2: [],
  POW: [],
  BITWISE_XOR: [],
  RIGHT_SHIFT: [],
  BITCAST: [],
  REAL: [],
  IMAG: [],
  RANK: [],
  FAKE_QUANT: [],
  LOCAL_RESPONSE_NORMALIZATION: [],
  TILE: [],
  SELECT: [],
  ONE_HOT: [],
  REVERSE_SEQUENCE: [],
  MATRIX_DIAG: [],
  MATRIX_SET_DIAG: [],
  SCATTER_ND: [],
  SPARSE_TO_DENSE: [],
  RANGE: [],
  BUCKETIZE: [],
  REDUCE_ANY: [],
  REDUCE_PROD: [],
  SEGMENT_SUM: [],
  UNSORTED_SEGMENT_SUM: [],
  UNSORTED_SEGMENT_PROD: [],
  UNSORTED_SEGMENT_MAX: [],
  UNSORTED_SEGMENT_MIN: [],
  WHERE: [0],
  UNIQUE: [0],
  TOPK_V2: [],
  NON_MAX_SUPPRESSION_V4: [],
  NON_MAX_SUPPRESSION_V5: [],
  EMBEDDING_LOOKUP_SPARSE: [],
  CONV_3D: [],
  CONV_3D_TRANSPOSE: [],
  RANDOM_UNIFORM: [],
  RANDOM_STANDARD_NORMAL: [],
  MULTINOMIAL: [],
  'CUSTOM:AudioSpectrogram': [],
  'CUSTOM:Mfcc': [],
  'CUSTOM:NumericVerify': [],
};

/**
 * Combinations where TFLite's own kernel is wrong, so it cannot be the oracle: by op, the element types
 * and why. micrort moves these types at their own size; their tests check them against values computed
 * independently.
 */
export const TFLITE_KERNEL_FAULTS: Readonly<Record<string, { types: readonly string[]; reason: string }>> = {
  MATRIX_DIAG: {
    types: ['float64', 'uint64', 'complex64', 'bool', 'float16', 'uint16'],
    reason:
      'matrix_diag.cc handles int64, int32, int16, int8 and uint8 and moves every other type as float32: 8-byte types are half filled, 1- and 2-byte types written past the output',
  },
  MATRIX_SET_DIAG: {
    types: ['float64', 'uint64', 'complex64', 'bool', 'float16', 'uint16'],
    reason:
      'matrix_set_diag.cc handles int64, int32, int16, int8 and uint8 and moves every other type as float32: 8-byte types are half filled, 1- and 2-byte types written past the output',
  },
};

/**
 * Outputs TFLite 2.9 writes as int32 whatever integer type the model declares (the current kernel writes
 * the declared type): compared by value. By op, the output positions.
 */
export const TFLITE29_INT32_OUTPUTS: Readonly<Record<string, readonly number[]>> = {
  TOPK_V2: [1],
};

/** Whether TFLite's kernel is known wrong for this combination (see TFLITE_KERNEL_FAULTS). */
export function tfliteKernelFault(key: string, label: string): boolean {
  const f = TFLITE_KERNEL_FAULTS[key];
  return f !== undefined && f.types.some((t) => label.split('→')[1]!.split(',').includes(t));
}

/** One recipe of the group. */
export interface BuiltinRecipeCase {
  /** The op's resolver key (`GELU`, `CUSTOM:Mfcc`). */
  key: string;
  /** `inputs→outputs`. */
  label: string;
  model: RecipeModel;
  /** Outputs whose size depends on data (planned at an upper bound, actual dims after invoke). */
  bounded: readonly number[];
  /** TFLite's kernel is wrong for this combination (TFLITE_KERNEL_FAULTS): not an oracle for it. */
  faulty: boolean;
}

/** The recipes of the group's combinations newer than TFLite 2.9 (`after29` true) or not (false). */
export function builtinRecipeCases(after29: boolean): BuiltinRecipeCase[] {
  return TFLITE_OPS.filter((op) => tfliteResolverKey(op) in TFLITE_BUILTIN_OPS).flatMap((op) =>
    op.types
      .filter((c) => Boolean(c.after29 ?? op.after29) === after29 && !c.inputs.includes('string') && !c.outputs.includes('string'))
      .map((combo) => {
        const key = tfliteResolverKey(op);
        const label = comboLabel(combo);
        return { key, label, model: buildRecipe(op, combo), bounded: TFLITE_BUILTIN_OPS[key]!, faulty: tfliteKernelFault(key, label) };
      }),
  );
}
