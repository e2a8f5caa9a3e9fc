/**
 * The math, comparison, logic and reduction kernels against TensorFlow Lite itself (the TFLite oracle of
 * test-support), on shapes, options and values the conformance-ops data do not cover: 4-D and 5-D
 * broadcasting, every CUMSUM / BATCH_MATMUL option, several reduction axes, int64 values beyond 32 bits,
 * NaN-free float edge values. Only float32, int32, int64 and bool models: TFLite's optimized int8 kernels
 * round differently from TFLM's reference kernels, which the conformance-ops data pin instead.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType, elementSize, type BuiltinOptionsSpec } from '@micrort/core';
import { ORACLE_SKIP_REASON, compareWithTflite, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { lcg } from '../src/kernels/__fixtures__/conv-testing.js';

if (!oracleAvailable) it.skip(`math kernels vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

const F32 = TensorType.FLOAT32;
const I32 = TensorType.INT32;
const I64 = TensorType.INT64;
const BOOL = TensorType.BOOL;

/** An input of the model: runtime data drawn by `draw`, or a constant with `data`. */
interface In {
  type: TensorType;
  shape: number[];
  /** Runtime input values (one number or bigint per element). */
  draw?: (r: () => number, i: number) => number | bigint;
  /** Constant contents. */
  data?: ArrayBufferView;
}

const count = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

function bytesOf(type: TensorType, values: (number | bigint)[]): Uint8Array {
  const view =
    type === F32
      ? Float32Array.from(values as number[])
      : type === I32
        ? Int32Array.from(values as number[])
        : type === I64
          ? BigInt64Array.from(values as bigint[])
          : Uint8Array.from(values as number[]);
  return new Uint8Array(view.buffer);
}

/** Builds a one-operator model, draws its runtime inputs, and compares micrort with TFLite. */
function check(
  op: BuiltinOperator,
  inputs: In[],
  output: { type: TensorType; shape: number[] },
  options?: BuiltinOptionsSpec,
  seed = 1,
): void {
  const b = new ModelBuilder();
  const r = lcg(seed);
  const ids: number[] = [];
  const runtime: number[] = [];
  const bytes: Uint8Array[] = [];
  inputs.forEach((spec, k) => {
    const id = b.addTensor({ name: `in${k}`, type: spec.type, shape: spec.shape, data: spec.data });
    ids.push(id);
    if (!spec.data) {
      runtime.push(id);
      const n = count(spec.shape);
      const values = Array.from({ length: n }, (_, i) => spec.draw!(r, i));
      bytes.push(bytesOf(spec.type, values));
      expect(bytes[bytes.length - 1]!.byteLength).toBe(n * elementSize(spec.type)!);
    }
  });
  const out = b.addTensor({ name: 'out', type: output.type, shape: output.shape });
  b.addOperator({ op, inputs: ids, outputs: [out], options });
  const model = b.setInputs(runtime).setOutputs([out]).build();
  const cmp = compareWithTflite(model, bytes);
  expect(cmp.pass, `${BuiltinOperator[op]}: ${JSON.stringify(cmp.outputs)}`).toBe(true);
}

const uniform = (lo: number, hi: number) => (r: () => number) => Math.fround(lo + (hi - lo) * r());
const grid = (lo: number, step: number, n: number) => (r: () => number) => lo + step * Math.floor(r() * n);
const ints = (lo: number, hi: number) => (r: () => number) => lo + Math.floor(r() * (hi - lo + 1));
const bools = (p: number) => (r: () => number) => (r() < p ? 1 : 0);
const i32Const = (values: number[]) => Int32Array.from(values);

describe.skipIf(!oracleAvailable)('math kernels vs TFLite (float32, int32, int64, bool)', () => {
  it('float32 unary ops, including exact ties for ROUND', () => {
    const shape = [2, 3, 4, 2];
    for (const [op, draw] of [
      [BuiltinOperator.CEIL, uniform(-4, 4)],
      [BuiltinOperator.FLOOR, uniform(-4, 4)],
      [BuiltinOperator.ROUND, grid(-4, 0.25, 33)],
      [BuiltinOperator.NEG, uniform(-10, 10)],
      [BuiltinOperator.EXP, uniform(-5, 5)],
      [BuiltinOperator.LOG, uniform(0.01, 10)],
      [BuiltinOperator.SQRT, uniform(0, 10)],
      [BuiltinOperator.RSQRT, uniform(0.05, 10)],
      [BuiltinOperator.SQUARE, uniform(-3, 3)],
      [BuiltinOperator.ELU, uniform(-3, 3)],
      [BuiltinOperator.HARD_SWISH, uniform(-5, 5)],
      [BuiltinOperator.LOG_SOFTMAX, uniform(-4, 4)],
      [BuiltinOperator.L2_NORMALIZATION, uniform(-1, 1)],
    ] as const)
      check(op, [{ type: F32, shape, draw }], { type: F32, shape });
  });

  it('binary float32 / int32 ops broadcasting up to 4-D', () => {
    check(
      BuiltinOperator.SQUARED_DIFFERENCE,
      [
        { type: F32, shape: [2, 1, 3, 4], draw: uniform(-2, 2) },
        { type: F32, shape: [3, 1], draw: uniform(-2, 2) },
      ],
      { type: F32, shape: [2, 1, 3, 4] },
    );
    check(
      BuiltinOperator.SQUARED_DIFFERENCE,
      [
        { type: I32, shape: [3, 4], draw: ints(-1000, 1000) },
        { type: I32, shape: [4], draw: ints(-1000, 1000) },
      ],
      { type: I32, shape: [3, 4] },
    );
    const divisor = (r: () => number) => Math.fround((0.5 + 2.5 * r()) * (r() < 0.5 ? -1 : 1));
    check(
      BuiltinOperator.FLOOR_DIV,
      [
        { type: F32, shape: [2, 3, 1, 4], draw: uniform(-10, 10) },
        { type: F32, shape: [3, 2, 1], draw: divisor },
      ],
      { type: F32, shape: [2, 3, 2, 4] },
    );
    check(
      BuiltinOperator.FLOOR_MOD,
      [
        { type: F32, shape: [2, 3, 1, 4], draw: uniform(-10, 10) },
        { type: F32, shape: [3, 2, 1], draw: divisor },
      ],
      { type: F32, shape: [2, 3, 2, 4] },
    );
    check(
      BuiltinOperator.PRELU,
      [
        { type: F32, shape: [1, 3, 3, 4], draw: uniform(-2, 2) },
        { type: F32, shape: [1, 1, 4], data: Float32Array.from([0.25, -0.5, 1.5, 0]) },
      ],
      { type: F32, shape: [1, 3, 3, 4] },
    );
  });

  it('comparisons: float32 ties, int32 broadcast both ways, int64 beyond 32 bits, bool', () => {
    const big = (r: () => number) => BigInt(Math.floor(r() * 5) - 2) * 4294967296n + BigInt(Math.floor(r() * 3) - 1);
    for (const op of [
      BuiltinOperator.EQUAL,
      BuiltinOperator.NOT_EQUAL,
      BuiltinOperator.GREATER,
      BuiltinOperator.GREATER_EQUAL,
      BuiltinOperator.LESS,
      BuiltinOperator.LESS_EQUAL,
    ]) {
      check(
        op,
        [
          { type: F32, shape: [2, 3, 4], draw: grid(-2, 0.5, 9) },
          { type: F32, shape: [3, 1], draw: grid(-2, 0.5, 9) },
        ],
        { type: BOOL, shape: [2, 3, 4] },
      );
      check(
        op,
        [
          { type: I32, shape: [4, 1, 3], draw: ints(-3, 3) },
          { type: I32, shape: [2, 1], draw: ints(-3, 3) },
        ],
        { type: BOOL, shape: [4, 2, 3] },
      );
      check(
        op,
        [
          { type: I64, shape: [3, 5], draw: big },
          { type: I64, shape: [3, 5], draw: big },
        ],
        { type: BOOL, shape: [3, 5] },
      );
    }
    check(
      BuiltinOperator.EQUAL,
      [
        { type: BOOL, shape: [6], draw: bools(0.5) },
        { type: BOOL, shape: [6], draw: bools(0.5) },
      ],
      { type: BOOL, shape: [6] },
    );
  });

  it('logical ops and SELECT_V2 with three-way broadcasting', () => {
    check(
      BuiltinOperator.LOGICAL_AND,
      [
        { type: BOOL, shape: [2, 1, 4], draw: bools(0.6) },
        { type: BOOL, shape: [3, 1], draw: bools(0.6) },
      ],
      { type: BOOL, shape: [2, 3, 4] },
    );
    check(
      BuiltinOperator.LOGICAL_OR,
      [
        { type: BOOL, shape: [2, 3, 4], draw: bools(0.3) },
        { type: BOOL, shape: [4], draw: bools(0.3) },
      ],
      { type: BOOL, shape: [2, 3, 4] },
    );
    check(BuiltinOperator.LOGICAL_NOT, [{ type: BOOL, shape: [7], draw: bools(0.5) }], { type: BOOL, shape: [7] });
    check(
      BuiltinOperator.SELECT_V2,
      [
        { type: BOOL, shape: [1, 3, 1], draw: bools(0.5) },
        { type: F32, shape: [2, 1, 4], draw: uniform(-1, 1) },
        { type: F32, shape: [4], draw: uniform(-1, 1) },
      ],
      { type: F32, shape: [2, 3, 4] },
    );
  });

  it('ADD_N, CUMSUM in every option combination, ZEROS_LIKE and FILL', () => {
    check(
      BuiltinOperator.ADD_N,
      [0, 1, 2].map(() => ({ type: F32, shape: [2, 3, 4], draw: uniform(-1, 1) })),
      { type: F32, shape: [2, 3, 4] },
    );
    for (const axis of [0, 1, -1])
      for (const exclusive of [false, true])
        for (const reverse of [false, true])
          check(
            BuiltinOperator.CUMSUM,
            [
              { type: F32, shape: [3, 4, 5], draw: uniform(-1, 1) },
              { type: I32, shape: [], data: i32Const([axis]) },
            ],
            { type: F32, shape: [3, 4, 5] },
            { exclusive, reverse },
          );
    check(BuiltinOperator.ZEROS_LIKE, [{ type: I64, shape: [3, 2], draw: () => -123456789012n }], { type: I64, shape: [3, 2] });
    check(
      BuiltinOperator.FILL,
      [
        { type: I32, shape: [3], data: i32Const([2, 3, 4]) },
        { type: F32, shape: [], draw: uniform(-10, 10) },
      ],
      { type: F32, shape: [2, 3, 4] },
    );
  });

  it('reductions over several axes, negative and duplicated, with and without keep_dims', () => {
    const x = { type: F32, shape: [2, 3, 4, 5], draw: uniform(-1, 1) };
    for (const op of [BuiltinOperator.SUM, BuiltinOperator.REDUCE_MAX, BuiltinOperator.REDUCE_MIN]) {
      check(op, [x, { type: I32, shape: [2], data: i32Const([1, -1]) }], { type: F32, shape: [2, 4] }, { keepDims: false });
      check(op, [x, { type: I32, shape: [3], data: i32Const([0, 2, 0]) }], { type: F32, shape: [1, 3, 1, 5] }, { keepDims: true });
    }
    check(
      BuiltinOperator.REDUCE_ALL,
      [
        { type: BOOL, shape: [3, 2, 4], draw: bools(0.85) },
        { type: I32, shape: [1], data: i32Const([2]) },
      ],
      { type: BOOL, shape: [3, 2] },
      { keepDims: false },
    );
  });

  it('BATCH_MATMUL in every adj_x / adj_y combination with batch broadcasting', () => {
    for (const adjX of [false, true])
      for (const adjY of [false, true])
        check(
          BuiltinOperator.BATCH_MATMUL,
          [
            { type: F32, shape: adjX ? [2, 1, 4, 3] : [2, 1, 3, 4], draw: uniform(-1, 1) },
            { type: F32, shape: adjY ? [3, 5, 4] : [3, 4, 5], draw: uniform(-1, 1) },
          ],
          { type: F32, shape: [2, 3, 3, 5] },
          { adjX, adjY },
        );
  });
});
