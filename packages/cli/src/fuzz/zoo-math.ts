/**
 * Seeds for the math, comparison, logic and reduction builtins (float32, int8, int16), with
 * broadcasting, constant axes and the quantization TFLM requires of each op's output.
 */
import { BuiltinOperator as Op, TensorType } from '@micrort/core';
import { Zoo, lcg } from './zoo-common.js';

/** float32 unary and binary math: EXP … HARD_SWISH, FLOOR_DIV/MOD, PRELU, ADD_N, L2 norm, log-softmax, CUMSUM, BATCH_MATMUL. */
export function floatMath(): Uint8Array {
  const z = new Zoo('float32 math');
  const x = z.f32('x', [2, 3, 4]);
  const y = z.f32('y', [4]);
  const o = (name: string, shape = [2, 3, 4]) => z.f32(name, shape);
  const outs: number[] = [];
  const unary = (op: Op, input: number, name: string) => {
    const t = o(name);
    z.op(op, [input], [t]);
    return t;
  };
  const e = unary(Op.EXP, x, 'exp');
  const sq = unary(Op.SQUARE, x, 'square');
  outs.push(unary(Op.SQRT, sq, 'sqrt'), unary(Op.RSQRT, sq, 'rsqrt'), unary(Op.LOG, sq, 'log'));
  for (const [op, name] of [
    [Op.NEG, 'neg'],
    [Op.CEIL, 'ceil'],
    [Op.FLOOR, 'floor'],
    [Op.ROUND, 'round'],
    [Op.ELU, 'elu'],
    [Op.HARD_SWISH, 'hard_swish'],
    [Op.LOG_SOFTMAX, 'log_softmax'],
    [Op.L2_NORMALIZATION, 'l2_norm'],
  ] as [Op, string][])
    outs.push(unary(op, x, name));
  for (const [op, name] of [
    [Op.FLOOR_DIV, 'floor_div'],
    [Op.FLOOR_MOD, 'floor_mod'],
    [Op.SQUARED_DIFFERENCE, 'squared_difference'],
  ] as [Op, string][]) {
    const t = o(name);
    z.op(op, [x, y], [t]);
    outs.push(t);
  }
  const alpha = z.f32('prelu/alpha', [4], [0.1, -0.2, 0.5, 1.5]);
  const prelu = o('prelu');
  z.op(Op.PRELU, [x, alpha], [prelu]);
  const addN = o('add_n');
  z.op(Op.ADD_N, [x, e, sq], [addN]);
  const axis = z.t({ name: 'cumsum/axis', type: TensorType.INT32, shape: [], data: Int32Array.of(1) });
  const cum = o('cumsum');
  z.op(Op.CUMSUM, [prelu, axis], [cum], { exclusive: true, reverse: false });
  const w = z.f32(
    'matmul/w',
    [4, 5],
    lcg(20, 11, -8, 8).map((v) => v / 8),
  );
  const mm = o('matmul', [2, 3, 5]);
  z.op(Op.BATCH_MATMUL, [addN, w], [mm], { adjX: false, adjY: false });
  const lhs = z.f32('lhs', [2, 1, 4, 3]);
  const mmAdj = o('matmul_adj', [2, 2, 3, 3]);
  const rhs = z.f32(
    'matmul/rhs',
    [2, 3, 4],
    lcg(24, 12, -8, 8).map((v) => v / 8),
  );
  z.op(Op.BATCH_MATMUL, [lhs, rhs], [mmAdj], { adjX: true, adjY: true });
  outs.push(cum, mm, mmAdj);
  return z.build([x, y, lhs], outs);
}

/** int8 math with TFLM's output quantization: ELU, HARD_SWISH, PRELU, SQUARED_DIFFERENCE, RSQRT, ADD_N, CUMSUM, L2 norm, log-softmax, BATCH_MATMUL. */
export function int8Math(): Uint8Array {
  const z = new Zoo('int8 math');
  const x = z.i8('x', [1, 4, 8], 0.05, -3);
  const y = z.i8('y', [8], 0.04, 2);
  const outs: number[] = [];
  const node = (op: Op, inputs: number[], name: string, scale: number, zp: number, options?: object, shape = [1, 4, 8]) => {
    const t = z.i8(name, shape, scale, zp);
    z.op(op, inputs, [t], options as never);
    return t;
  };
  outs.push(node(Op.ELU, [x], 'elu', 0.02, -78));
  outs.push(node(Op.HARD_SWISH, [x], 'hard_swish', 0.05, -10));
  const alpha = z.i8('prelu/alpha', [8], 0.01, 0, lcg(8, 13, -100, 100));
  const prelu = node(Op.PRELU, [x, alpha], 'prelu', 0.05, -3); // quantized like x: an ADD_N input below
  outs.push(prelu);
  outs.push(node(Op.SQUARED_DIFFERENCE, [x, y], 'squared_difference', 0.1, -128));
  // quantized RSQRT refuses inputs below the zero point: feed it a RELU output (>= its zero point)
  const relu = node(Op.RELU, [x], 'relu', 0.05, -128);
  outs.push(node(Op.RSQRT, [relu], 'rsqrt', 0.1, -128));
  outs.push(node(Op.ADD_N, [x, prelu, x], 'add_n', 0.15, 0));
  const axis = z.t({ name: 'cumsum/axis', type: TensorType.INT32, shape: [], data: Int32Array.of(2) });
  outs.push(node(Op.CUMSUM, [x, axis], 'cumsum', 0.4, 5, { exclusive: false, reverse: true }));
  outs.push(node(Op.L2_NORMALIZATION, [x], 'l2_norm', 1 / 128, 0));
  outs.push(node(Op.LOG_SOFTMAX, [x], 'log_softmax', 16 / 256, 127));
  const w = z.t({
    name: 'matmul/w',
    type: TensorType.INT8,
    shape: [8, 3],
    data: Int8Array.from(lcg(24, 14, -127, 127)),
    quantization: { scale: 0.02, zeroPoint: 0 },
  });
  outs.push(node(Op.BATCH_MATMUL, [x, w], 'matmul', 0.5, 0, { adjX: false, adjY: false }, [1, 4, 3]));
  return z.build([x, y], outs);
}

/** int16 (symmetric) math: SQUARED_DIFFERENCE, PRELU, ABS → RSQRT, SUM, BATCH_MATMUL. */
export function int16Math(): Uint8Array {
  const z = new Zoo('int16 math');
  const x = z.i16('x', [2, 6], 1 / 1024);
  const y = z.i16('y', [6], 1 / 2048);
  const outs: number[] = [];
  const sd = z.i16('squared_difference', [2, 6], 1 / 64);
  z.op(Op.SQUARED_DIFFERENCE, [x, y], [sd]);
  const alpha = z.i8('prelu/alpha', [6], 1 / 128, 0, lcg(6, 15, -127, 127)); // TFLM: int16 PRELU takes an int8 alpha
  const prelu = z.i16('prelu', [2, 6], 1 / 1024);
  z.op(Op.PRELU, [x, alpha], [prelu]);
  const abs = z.i16('abs', [2, 6], 1 / 1024);
  z.op(Op.ABS, [x], [abs]);
  const rsqrt = z.i16('rsqrt', [2, 6], 1 / 256);
  z.op(Op.RSQRT, [abs], [rsqrt]);
  const axes = z.i32('sum/axes', [1]);
  const sum = z.i16('sum', [2, 1], 1 / 128);
  z.op(Op.SUM, [x, axes], [sum], { keepDims: true });
  const rhs = z.i16('matmul/rhs', [6, 3], 1 / 2048, lcg(18, 16, -2048, 2048));
  const mm = z.i16('matmul', [2, 3], 1 / 256);
  z.op(Op.BATCH_MATMUL, [x, rhs], [mm], { adjX: false, adjY: false });
  outs.push(sd, prelu, rsqrt, sum, mm);
  return z.build([x, y], outs);
}

/** Comparisons (float32, int8 rescaled, int32) with broadcasting, logic, SELECT_V2, REDUCE_ALL, ARG_MAX/ARG_MIN. */
export function compareLogic(): Uint8Array {
  const z = new Zoo('comparisons and logic');
  const a = z.f32('a', [2, 3, 4]);
  const b = z.f32('b', [4]);
  const c = z.i8('c', [2, 3, 4], 0.1, 0);
  const d = z.i8('d', [1, 1, 4], 0.2, 5);
  const e = z.t({ name: 'e', type: TensorType.INT32, shape: [2, 3, 4] });
  const f = z.t({ name: 'f', type: TensorType.INT32, shape: [1] });
  const cmp = (op: Op, x: number, y: number, name: string) => {
    const t = z.bool(name, [2, 3, 4]);
    z.op(op, [x, y], [t]);
    return t;
  };
  const eq = cmp(Op.EQUAL, a, b, 'equal');
  const ne = cmp(Op.NOT_EQUAL, c, d, 'not_equal');
  const gt = cmp(Op.GREATER, e, f, 'greater');
  const ge = cmp(Op.GREATER_EQUAL, a, b, 'greater_equal');
  const lt = cmp(Op.LESS, c, d, 'less');
  const le = cmp(Op.LESS_EQUAL, e, f, 'less_equal');
  const and = z.bool('and', [2, 3, 4]);
  z.op(Op.LOGICAL_AND, [eq, ge], [and]);
  const or = z.bool('or', [2, 3, 4]);
  z.op(Op.LOGICAL_OR, [ne, lt], [or]);
  const or2 = z.bool('or2', [2, 3, 4]);
  z.op(Op.LOGICAL_OR, [gt, le], [or2]);
  const not = z.bool('not', [2, 3, 4]);
  z.op(Op.LOGICAL_NOT, [and], [not]);
  const sel = z.f32('select', [2, 3, 4]);
  z.op(Op.SELECT_V2, [not, a, b], [sel]);
  const sel8 = z.i8('select_int8', [2, 3, 4], 0.1, 0);
  const c2 = z.i8('c2', [2, 3, 4], 0.1, 0, lcg(24, 17, -128, 127));
  z.op(Op.SELECT_V2, [or2, c, c2], [sel8]);
  const axes = z.i32('all/axes', [1, 2]);
  const all = z.bool('reduce_all', [2]);
  z.op(Op.REDUCE_ALL, [or, axes], [all], { keepDims: false });
  const amAxis = z.i32('argmax/axis', [2]);
  const argmax = z.t({ name: 'arg_max', type: TensorType.INT32, shape: [2, 3] });
  z.op(Op.ARG_MAX, [sel, amAxis], [argmax], { outputType: TensorType.INT32 });
  const aminAxis = z.i32('argmin/axis', [1]);
  const argmin = z.t({ name: 'arg_min', type: TensorType.INT32, shape: [2, 4] });
  z.op(Op.ARG_MIN, [sel8, aminAxis], [argmin], { outputType: TensorType.INT32 });
  return z.build([a, b, c, d, e, f], [all, argmax, argmin, not]);
}

/** Reductions with keep_dims and negative axes: SUM, REDUCE_MAX, REDUCE_MIN (float32 and int8). */
export function reductions(): Uint8Array {
  const z = new Zoo('reductions');
  const x = z.f32('x', [2, 3, 4]);
  const x8 = z.i8('x8', [2, 3, 4], 0.1, -4);
  const outs: number[] = [];
  const red = (op: Op, input: number, axes: number[], shape: number[], keepDims: boolean, name: string, q?: [number, number]) => {
    const ax = z.i32(`${name}/axes`, axes);
    const t = q ? z.i8(name, shape, q[0], q[1]) : z.f32(name, shape);
    z.op(op, [input, ax], [t], { keepDims });
    outs.push(t);
  };
  red(Op.SUM, x, [-1], [2, 3, 1], true, 'sum');
  red(Op.REDUCE_MAX, x, [0, 2], [3], false, 'reduce_max');
  red(Op.REDUCE_MIN, x, [1], [2, 1, 4], true, 'reduce_min');
  red(Op.SUM, x8, [1, 2], [2], false, 'sum_int8', [0.5, 0]);
  red(Op.REDUCE_MAX, x8, [-1], [2, 3], false, 'reduce_max_int8', [0.1, -4]);
  red(Op.REDUCE_MIN, x8, [0], [1, 3, 4], true, 'reduce_min_int8', [0.1, -4]);
  return z.build([x, x8], outs);
}
