/**
 * "invoke() allocates nothing" for the math, comparison, logic and reduction kernels of math.ts: each
 * kernel is prepared with KernelHarness, then invoked many times through a bare invoke-phase context (the
 * harness' own context allocates in its phase guards) while V8's heap usage is watched. Integer and
 * float paths are both covered where a kernel has them.
 */
import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { BuiltinOptions, Registration } from '@micrort/core';
import type { HarnessTensorSpec } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
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

const F = (shape: number[], fill?: number): HarnessTensorSpec => ({
  type: TensorType.FLOAT32,
  shape,
  data: fill === undefined ? undefined : new Array(shape.reduce((a, b) => a * b, 1)).fill(fill),
});
const Q = (type: TensorType.INT8 | TensorType.INT16, shape: number[], fill?: number, scale = 0.05, zeroPoint = 0): HarnessTensorSpec => ({
  type,
  shape,
  scale,
  zeroPoint,
  data: fill === undefined ? undefined : new Array(shape.reduce((a, b) => a * b, 1)).fill(fill),
});
const I8 = TensorType.INT8;
const I16 = TensorType.INT16;
const B = (shape: number[], fill?: number): HarnessTensorSpec => ({
  type: TensorType.BOOL,
  shape,
  data: fill === undefined ? undefined : new Array(shape.reduce((a, b) => a * b, 1)).fill(fill),
});
const I32 = (shape: number[], data: number[] | undefined, constant = false): HarnessTensorSpec => ({
  type: TensorType.INT32,
  shape,
  data,
  constant,
});
const I64 = (shape: number[], fill: bigint): HarnessTensorSpec => ({
  type: TensorType.INT64,
  shape,
  data: new Array<bigint>(shape.reduce((a, b) => a * b, 1)).fill(fill),
});

type Case = [string, Registration, HarnessTensorSpec[], number[], number[], BuiltinOptions | null];
const unary = (
  name: string,
  reg: Registration,
  input: HarnessTensorSpec,
  output: HarnessTensorSpec,
  options: BuiltinOptions | null = null,
): Case => [name, reg, [input, output], [0], [1], options];
const binary = (
  name: string,
  reg: Registration,
  a: HarnessTensorSpec,
  b: HarnessTensorSpec,
  out: HarnessTensorSpec,
  options: BuiltinOptions | null = null,
): Case => [name, reg, [a, b, out], [0, 1], [2], options];

const cases: Case[] = [
  unary('CEIL', CEIL, F([8], 1.5), F([8])),
  unary('FLOOR', FLOOR, F([8], 1.5), F([8])),
  unary('ROUND', ROUND, F([8], 2.5), F([8])),
  unary('EXP', EXP, F([8], 0.5), F([8])),
  unary('LOG', LOG, F([8], 0.5), F([8])),
  unary('SQRT', SQRT, F([8], 2), F([8])),
  unary('SQUARE', SQUARE, F([8], 2), F([8])),
  unary('NEG', NEG, F([8], 2), F([8])),
  unary('RSQRT float32', RSQRT, F([8], 2), F([8])),
  unary('RSQRT int8', RSQRT, Q(I8, [8], 20, 0.02, -128), Q(I8, [8], undefined, 0.03, -128)),
  unary('ELU int8', ELU, Q(I8, [8], -20), Q(I8, [8])),
  unary('ELU float32', ELU, F([8], -1), F([8])),
  unary('HARD_SWISH int8', HARD_SWISH, Q(I8, [8], 30, 0.04), Q(I8, [8], undefined, 0.04)),
  unary('HARD_SWISH float32', HARD_SWISH, F([8], 1), F([8])),
  unary('LOGICAL_NOT', LOGICAL_NOT, B([8], 1), B([8])),
  unary('ZEROS_LIKE int64', ZEROS_LIKE, I64([4], 3n), I64([4], 0n)),
  unary('L2_NORMALIZATION int8', L2_NORMALIZATION, Q(I8, [2, 4], 30), Q(I8, [2, 4], undefined, 1 / 128)),
  unary('L2_NORMALIZATION float32', L2_NORMALIZATION, F([2, 4], 1), F([2, 4])),
  unary('LOG_SOFTMAX int8', LOG_SOFTMAX, Q(I8, [2, 4], 30), Q(I8, [2, 4], undefined, 16 / 256, 127)),
  unary('LOG_SOFTMAX float32', LOG_SOFTMAX, F([2, 4], 1), F([2, 4])),
  binary('EQUAL int8 broadcast', EQUAL, Q(I8, [2, 4], 3, 0.1), Q(I8, [4], 1, 0.2, 5), B([2, 4])),
  binary('NOT_EQUAL float32', NOT_EQUAL, F([8], 1), F([8], 2), B([8])),
  binary('GREATER int64', GREATER, I64([8], 5n), I64([8], -5n), B([8])),
  binary('GREATER_EQUAL int32', GREATER_EQUAL, I32([8], [1, 2, 3, 4, 5, 6, 7, 8]), I32([1], [4]), B([8])),
  binary('LESS float32', LESS, F([8], 1), F([8], 2), B([8])),
  binary('GREATER int16', GREATER, Q(I16, [8], 3, 0.001), Q(I16, [8], 1, 0.002), B([8])),
  binary('LESS_EQUAL int8', LESS_EQUAL, Q(I8, [8], 3, 0.1), Q(I8, [8], 1, 0.2, 5), B([8])),
  binary('LOGICAL_AND', LOGICAL_AND, B([2, 4], 1), B([4], 0), B([2, 4])),
  binary('LOGICAL_OR', LOGICAL_OR, B([8], 1), B([8], 0), B([8])),
  binary('SQUARED_DIFFERENCE int8', SQUARED_DIFFERENCE, Q(I8, [2, 4], 10), Q(I8, [4], -10, 0.04), Q(I8, [2, 4], undefined, 0.2)),
  binary('SQUARED_DIFFERENCE float32', SQUARED_DIFFERENCE, F([8], 1), F([8], 3), F([8])),
  binary('FLOOR_DIV', FLOOR_DIV, F([8], 7), F([1], 2), F([8])),
  binary('FLOOR_MOD', FLOOR_MOD, F([8], 7), F([8], -2), F([8])),
  binary('PRELU int8', PRELU, Q(I8, [2, 4], -10), Q(I8, [4], 20, 0.01), Q(I8, [2, 4])),
  binary('PRELU float32', PRELU, F([2, 4], -1), F([4], 0.25), F([2, 4])),
  binary('CUMSUM int8', CUMSUM, Q(I8, [2, 4], 3, 0.05, -2), I32([1], [1], true), Q(I8, [2, 4], undefined, 0.1), {
    exclusive: true,
    reverse: true,
  }),
  binary('CUMSUM float32', CUMSUM, F([2, 4], 1), I32([1], [0], true), F([2, 4]), { exclusive: false, reverse: false }),
  binary('FILL', FILL, I32([1], [8], true), F([], 3), F([8])),
  binary('SUM int8', SUM, Q(I8, [2, 4], 3), I32([1], [1], true), Q(I8, [2], undefined, 0.2), { keepDims: false }),
  binary('SUM float32', SUM, F([2, 4], 1), I32([1], [0], true), F([4]), { keepDims: false }),
  binary('REDUCE_MAX int8', REDUCE_MAX, Q(I8, [2, 4], 3), I32([1], [1], true), Q(I8, [2]), { keepDims: false }),
  binary('REDUCE_MIN float32', REDUCE_MIN, F([2, 4], 1), I32([1], [0], true), F([4]), { keepDims: false }),
  binary('REDUCE_ALL', REDUCE_ALL, B([2, 4], 1), I32([1], [1], true), B([2]), { keepDims: false }),
  binary('BATCH_MATMUL int8', BATCH_MATMUL, Q(I8, [2, 4, 3], 3), Q(I8, [4, 2], 2), Q(I8, [2, 3, 2], undefined, 0.5), {
    adjX: true,
    adjY: false,
    asymmetricQuantizeInputs: false,
  }),
  binary('BATCH_MATMUL int16', BATCH_MATMUL, Q(I16, [3, 4], 3), Q(I16, [4, 2], 2), Q(I16, [3, 2], undefined, 0.5), {
    adjX: false,
    adjY: false,
    asymmetricQuantizeInputs: false,
  }),
  binary('BATCH_MATMUL float32', BATCH_MATMUL, F([3, 4], 1), F([2, 4], 2), F([3, 2]), {
    adjX: false,
    adjY: true,
    asymmetricQuantizeInputs: false,
  }),
  [
    'ADD_N int8',
    ADD_N,
    [Q(I8, [8], 3, 0.05, -4), Q(I8, [8], 5, 0.05, -4), Q(I8, [8], 7, 0.05, -4), Q(I8, [8], undefined, 0.1)],
    [0, 1, 2],
    [3],
    null,
  ],
  ['ADD_N float32', ADD_N, [F([8], 1), F([8], 2), F([8])], [0, 1], [2], null],
  ['SELECT_V2 int8', SELECT_V2, [B([2, 1], 1), Q(I8, [2, 4], 3), Q(I8, [4], 5), Q(I8, [2, 4])], [0, 1, 2], [3], null],
];

describe('math kernels allocate nothing in invoke()', () => {
  it.each(cases)('%s', (_, registration, tensors, inputs, outputs, builtinData) => {
    const h = new KernelHarness({ registration, tensors, inputs, outputs, builtinData }).prepare();
    const ctx = invokeOnlyContext(h);
    const m = measureAllocation(() => registration.invoke(ctx, h.node), { warmup: 5000, trials: 5, iterations: 1000 });
    expect(m.bytesPerCall).toBeLessThan(1);
  });
});

describe('the measure itself', () => {
  let sink: number[] = [];
  it('sees a function that allocates one small array per call (the check above can fail)', () => {
    let i = 0;
    const m = measureAllocation(
      () => {
        sink = [i++];
      },
      { warmup: 5000, trials: 5, iterations: 1000 },
    );
    expect(sink.length).toBe(1);
    expect(m.bytesPerCall).toBeGreaterThanOrEqual(16);
  });
  it('reports the baseline it subtracts (the heap statistics object)', () => {
    const m = measureAllocation(() => undefined, { warmup: 500, trials: 5, iterations: 1000 });
    expect(m.baselineTrialBytes).toBeGreaterThanOrEqual(0);
    expect(m.bytesPerCall).toBeLessThan(1);
  });
});
