import type { Registration } from '@micrort/core';
import { ADD_N } from '../kernels/add-n.js';
import { BATCH_MATMUL } from '../kernels/batch-matmul.js';
import { CEIL } from '../kernels/ceil.js';
import { CUMSUM } from '../kernels/cumsum.js';
import { ELU } from '../kernels/elu.js';
import { EQUAL } from '../kernels/equal.js';
import { EXP } from '../kernels/exp.js';
import { FILL } from '../kernels/fill.js';
import { FLOOR } from '../kernels/floor.js';
import { FLOOR_DIV } from '../kernels/floor-div.js';
import { FLOOR_MOD } from '../kernels/floor-mod.js';
import { GREATER } from '../kernels/greater.js';
import { GREATER_EQUAL } from '../kernels/greater-equal.js';
import { HARD_SWISH } from '../kernels/hard-swish.js';
import { L2_NORMALIZATION } from '../kernels/l2-normalization.js';
import { LESS } from '../kernels/less.js';
import { LESS_EQUAL } from '../kernels/less-equal.js';
import { LOG } from '../kernels/log.js';
import { LOG_SOFTMAX } from '../kernels/log-softmax.js';
import { LOGICAL_AND } from '../kernels/logical-and.js';
import { LOGICAL_NOT } from '../kernels/logical-not.js';
import { LOGICAL_OR } from '../kernels/logical-or.js';
import { NEG } from '../kernels/neg.js';
import { NOT_EQUAL } from '../kernels/not-equal.js';
import { PRELU } from '../kernels/prelu.js';
import { REDUCE_ALL } from '../kernels/reduce-all.js';
import { REDUCE_MAX } from '../kernels/reduce-max.js';
import { REDUCE_MIN } from '../kernels/reduce-min.js';
import { ROUND } from '../kernels/round.js';
import { RSQRT } from '../kernels/rsqrt.js';
import { SELECT_V2 } from '../kernels/select-v2.js';
import { SQRT } from '../kernels/sqrt.js';
import { SQUARE } from '../kernels/square.js';
import { SQUARED_DIFFERENCE } from '../kernels/squared-difference.js';
import { SUM } from '../kernels/sum.js';
import { ZEROS_LIKE } from '../kernels/zeros-like.js';
import { pointwiseSpatial, withSpatial } from '@micrort/kernel-support';

/** Kernels of this group (math, comparison, logic, reductions), in registration order. */
export const mathKernels: Registration[] = [
  CEIL,
  FLOOR,
  ROUND,
  EXP,
  LOG,
  SQRT,
  RSQRT,
  SQUARE,
  withSpatial(NEG, pointwiseSpatial),
  ELU,
  withSpatial(HARD_SWISH, pointwiseSpatial),
  PRELU,
  withSpatial(SQUARED_DIFFERENCE, pointwiseSpatial),
  FLOOR_DIV,
  FLOOR_MOD,
  EQUAL,
  NOT_EQUAL,
  GREATER,
  GREATER_EQUAL,
  LESS,
  LESS_EQUAL,
  LOGICAL_AND,
  LOGICAL_OR,
  LOGICAL_NOT,
  SELECT_V2,
  ADD_N,
  CUMSUM,
  ZEROS_LIKE,
  FILL,
  L2_NORMALIZATION,
  LOG_SOFTMAX,
  SUM,
  REDUCE_MAX,
  REDUCE_MIN,
  REDUCE_ALL,
  BATCH_MATMUL,
];
