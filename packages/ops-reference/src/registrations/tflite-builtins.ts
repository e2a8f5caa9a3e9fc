/**
 * Kernels of the builtins of TFLite's BuiltinOpResolver that TFLM lacks (issue 20): activations, element-
 * wise math and bit operations, data movement and scatter/gather, reductions and segment sums,
 * data-dependent outputs (WHERE, UNIQUE, TOPK_V2, NON_MAX_SUPPRESSION), 3-D convolutions, seeded random
 * ops, and TFLite's custom audio ops. Each follows TFLite's kernel (tensorflow/lite/kernels/<op>.cc) and
 * is checked against TFLite 2.9, or LiteRT.js where 2.9 predates the op.
 */
import type { Registration } from '@micrort/core';
import { ATAN2 } from '../kernels/atan2.js';
import { AUDIO_SPECTROGRAM } from '../kernels/audio-spectrogram.js';
import { BITCAST } from '../kernels/bitcast.js';
import { BITWISE_XOR } from '../kernels/bitwise-xor.js';
import { BUCKETIZE } from '../kernels/bucketize.js';
import { CONV_3D } from '../kernels/conv-3d.js';
import { CONV_3D_TRANSPOSE } from '../kernels/conv-3d-transpose.js';
import { EMBEDDING_LOOKUP_SPARSE } from '../kernels/embedding-lookup-sparse.js';
import { FAKE_QUANT } from '../kernels/fake-quant.js';
import { GELU } from '../kernels/gelu.js';
import { IMAG } from '../kernels/imag.js';
import { LOCAL_RESPONSE_NORMALIZATION } from '../kernels/local-response-normalization.js';
import { MATRIX_DIAG } from '../kernels/matrix-diag.js';
import { MATRIX_SET_DIAG } from '../kernels/matrix-set-diag.js';
import { MFCC } from '../kernels/mfcc.js';
import { MULTINOMIAL } from '../kernels/multinomial.js';
import { NON_MAX_SUPPRESSION_V4 } from '../kernels/non-max-suppression-v4.js';
import { NON_MAX_SUPPRESSION_V5 } from '../kernels/non-max-suppression-v5.js';
import { NUMERIC_VERIFY } from '../kernels/numeric-verify.js';
import { ONE_HOT } from '../kernels/one-hot.js';
import { POW } from '../kernels/pow.js';
import { RANDOM_STANDARD_NORMAL } from '../kernels/random-standard-normal.js';
import { RANDOM_UNIFORM } from '../kernels/random-uniform.js';
import { RANGE } from '../kernels/range.js';
import { RANK } from '../kernels/rank.js';
import { REAL } from '../kernels/real.js';
import { REDUCE_ANY } from '../kernels/reduce-any.js';
import { REDUCE_PROD } from '../kernels/reduce-prod.js';
import { RELU_0_TO_1 } from '../kernels/relu-0-to-1.js';
import { RELU_N1_TO_1 } from '../kernels/relu-n1-to-1.js';
import { REVERSE_SEQUENCE } from '../kernels/reverse-sequence.js';
import { RIGHT_SHIFT } from '../kernels/right-shift.js';
import { SCATTER_ND } from '../kernels/scatter-nd.js';
import { SEGMENT_SUM } from '../kernels/segment-sum.js';
import { SELECT } from '../kernels/select.js';
import { SIGN } from '../kernels/sign.js';
import { SPARSE_TO_DENSE } from '../kernels/sparse-to-dense.js';
import { TILE } from '../kernels/tile.js';
import { TOPK_V2 } from '../kernels/topk-v2.js';
import { UNIQUE } from '../kernels/unique.js';
import { UNSORTED_SEGMENT_MAX } from '../kernels/unsorted-segment-max.js';
import { UNSORTED_SEGMENT_MIN } from '../kernels/unsorted-segment-min.js';
import { UNSORTED_SEGMENT_PROD } from '../kernels/unsorted-segment-prod.js';
import { UNSORTED_SEGMENT_SUM } from '../kernels/unsorted-segment-sum.js';
import { WHERE } from '../kernels/where.js';

/** Kernels of this group, in registration order. */
export const tfliteBuiltinKernels: Registration[] = [
  RELU_N1_TO_1,
  RELU_0_TO_1,
  GELU,
  SIGN,
  ATAN2,
  POW,
  BITWISE_XOR,
  RIGHT_SHIFT,
  BITCAST,
  REAL,
  IMAG,
  RANK,
  FAKE_QUANT,
  LOCAL_RESPONSE_NORMALIZATION,
  TILE,
  SELECT,
  ONE_HOT,
  REVERSE_SEQUENCE,
  MATRIX_DIAG,
  MATRIX_SET_DIAG,
  SCATTER_ND,
  SPARSE_TO_DENSE,
  RANGE,
  BUCKETIZE,
  REDUCE_ANY,
  REDUCE_PROD,
  SEGMENT_SUM,
  UNSORTED_SEGMENT_SUM,
  UNSORTED_SEGMENT_PROD,
  UNSORTED_SEGMENT_MAX,
  UNSORTED_SEGMENT_MIN,
  WHERE,
  UNIQUE,
  TOPK_V2,
  NON_MAX_SUPPRESSION_V4,
  NON_MAX_SUPPRESSION_V5,
  EMBEDDING_LOOKUP_SPARSE,
  CONV_3D,
  CONV_3D_TRANSPOSE,
  RANDOM_UNIFORM,
  RANDOM_STANDARD_NORMAL,
  MULTINOMIAL,
  AUDIO_SPECTROGRAM,
  MFCC,
  NUMERIC_VERIFY,
];
