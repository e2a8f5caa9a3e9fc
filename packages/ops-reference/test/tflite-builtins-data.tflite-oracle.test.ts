/**
 * The data-movement kernels of registrations/tflite-builtins.ts against TFLite 2.9 on writer-made models
 * beyond the op-set recipes: ranks, axes and options each op takes, broadcast-free selection forms,
 * duplicate and out-of-range indices where TFLite defines the result. Everything byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator as Op } from '@micrort/core';
import type { OutputDiff } from '@micrort/test-support/output-compare';
import { compareSingleOp, singleOpModel } from '@micrort/test-support/single-op-model';
import { ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

function expectSame(op: string, diffs: OutputDiff[]): void {
  diffs.forEach((d, j) => expect(d.ok, `${op} output ${j}: ${d.detail}`).toBe(true));
}

const q8 = { scale: 0.5, zeroPoint: 3 };

describe.skipIf(!oracleAvailable)('TFLite builtins (data movement) vs TFLite 2.9', () => {
  it('TILE: 1-D to 4-D inputs, multiples with 1s and 0s, int32 and int64 multiples', () => {
    for (const [shape, mult] of [
      [[5], [3]],
      [
        [2, 3],
        [1, 4],
      ],
      [
        [2, 1, 3],
        [3, 2, 1],
      ],
      [
        [1, 2, 2, 3],
        [2, 1, 3, 2],
      ],
      [
        [2, 3],
        [0, 2],
      ],
    ] as const)
      for (const mt of ['int32', 'int64'] as const)
        for (const t of ['float32', 'int8', 'int64', 'bool'] as const)
          expectSame(
            'TILE',
            compareSingleOp(
              singleOpModel(
                { op: Op.TILE },
                [
                  { type: t, shape: [...shape], ...(t === 'int8' ? { q: q8 } : {}) },
                  { type: mt, shape: [mult.length], values: [...mult], constant: true },
                ],
                [{ type: t, shape: shape.map((d, i) => d * mult[i]!), ...(t === 'int8' ? { q: q8 } : {}) }],
              ),
            ),
          );
  });

  it('SELECT: same-shape, 0-D and 1-D (row) conditions', () => {
    for (const cond of [[3, 4, 2], [], [3]])
      for (const t of ['float32', 'int32', 'uint8'] as const)
        expectSame(
          'SELECT',
          compareSingleOp(
            singleOpModel(
              { op: Op.SELECT },
              [
                { type: 'bool', shape: cond },
                { type: t, shape: [3, 4, 2], ...(t === 'uint8' ? { q: q8 } : {}) },
                { type: t, shape: [3, 4, 2], ...(t === 'uint8' ? { q: q8 } : {}) },
              ],
              [{ type: t, shape: [3, 4, 2], ...(t === 'uint8' ? { q: q8 } : {}) }],
            ),
          ),
        );
  });

  it('ONE_HOT: every axis, int32 and int64 indices, out-of-range indices, bool and int64 values', () => {
    const indices = [0, 4, 2, -1, 3, 7];
    for (const it of ['int32', 'int64'] as const)
      for (const [axis, out] of [
        [-1, [2, 3, 5]],
        [0, [5, 2, 3]],
        [1, [2, 5, 3]],
        [2, [2, 3, 5]],
      ] as const)
        for (const [t, on, off] of [
          ['float32', 2.5, -1],
          ['int64', 7, 3],
          ['bool', 1, 0],
          ['int8', 5, -6],
        ] as const)
          expectSame(
            'ONE_HOT',
            compareSingleOp(
              singleOpModel(
                { op: Op.ONE_HOT, rawOptions: [{ id: 0, type: 'int32', value: axis }] },
                [
                  { type: it, shape: [2, 3], values: indices },
                  { type: 'int32', shape: [], values: [5], constant: true },
                  { type: t, shape: [], values: [on], constant: true },
                  { type: t, shape: [], values: [off], constant: true },
                ],
                [{ type: t, shape: [...out] }],
              ),
            ),
          );
  });

  it('REVERSE_SEQUENCE: batch before and after the sequence dimension, 3-D and 4-D', () => {
    for (const [shape, seqDim, batchDim, lengths] of [
      [[3, 5, 2], 1, 0, [5, 0, 3]],
      [[5, 3, 2], 0, 1, [2, 5, 1]],
      [[2, 3, 4, 2], 2, 1, [4, 1, 3]],
      [[2, 4, 3, 2], 1, 3, [4, 2]],
    ] as const)
      for (const lt of ['int32', 'int64'] as const)
        expectSame(
          'REVERSE_SEQUENCE',
          compareSingleOp(
            singleOpModel(
              {
                op: Op.REVERSE_SEQUENCE,
                rawOptions: [
                  { id: 0, type: 'int32', value: seqDim },
                  { id: 1, type: 'int32', value: batchDim },
                ],
              },
              [
                { type: 'float32', shape: [...shape] },
                { type: lt, shape: [lengths.length], values: [...lengths] },
              ],
              [{ type: 'float32', shape: [...shape] }],
            ),
          ),
        );
  });

  it('MATRIX_DIAG and MATRIX_SET_DIAG: batches, non-square matrices', () => {
    for (const t of ['float32', 'int32', 'uint8', 'int64'] as const) {
      expectSame(
        'MATRIX_DIAG',
        compareSingleOp(singleOpModel({ op: Op.MATRIX_DIAG }, [{ type: t, shape: [2, 3, 4] }], [{ type: t, shape: [2, 3, 4, 4] }])),
      );
      for (const [m, n] of [
        [3, 5],
        [5, 3],
        [4, 4],
      ] as const)
        expectSame(
          'MATRIX_SET_DIAG',
          compareSingleOp(
            singleOpModel(
              { op: Op.MATRIX_SET_DIAG },
              [
                { type: t, shape: [2, m, n] },
                { type: t, shape: [2, Math.min(m, n)] },
              ],
              [{ type: t, shape: [2, m, n] }],
            ),
          ),
        );
    }
  });

  it('SCATTER_ND: duplicate indices accumulate, slices of rank 0 to 2', () => {
    for (const [indices, ishape, ushape, shape] of [
      [[1, 3, 1, 0], [4, 1], [4], [5]],
      [
        [0, 1, 2, 2, 0, 1],
        [3, 2],
        [3, 4],
        [3, 3, 4],
      ],
      [
        [2, 0, 2],
        [3, 1],
        [3, 2, 3],
        [4, 2, 3],
      ],
      [[1, 2, 0, 0, 1, 2], [2, 3], [2], [2, 3, 4]],
    ] as const)
      for (const t of ['float32', 'int32', 'int64', 'uint8'] as const)
        expectSame(
          'SCATTER_ND',
          compareSingleOp(
            singleOpModel(
              { op: Op.SCATTER_ND },
              [
                { type: 'int32', shape: [...ishape], values: [...indices], constant: true },
                { type: t, shape: [...ushape], ...(t === 'uint8' ? { range: [0, 100] as [number, number] } : {}) },
                { type: 'int32', shape: [shape.length], values: [...shape], constant: true },
              ],
              [{ type: t, shape: [...shape] }],
            ),
          ),
        );
  });

  // 0-D indices are left out: TFLite reads their count from dims[0] of a 0-D shape (out of bounds).
  it('SPARSE_TO_DENSE: 1- and 2-D indices, scalar and vector values, up to 4-D outputs', () => {
    for (const [indices, ishape, shape, values] of [
      [[0, 4, 2], [3], [6], [3]],
      [[0, 1, 2, 0, 1, 1], [3, 2], [3, 2], [3]],
      [[0, 1, 2, 3, 1, 0, 2, 1], [2, 4], [2, 2, 3, 4], [2]],
      [[1, 0, 2], [1, 3], [2, 1, 3], []],
    ] as const)
      for (const it of ['int32', 'int64'] as const)
        for (const t of ['float32', 'int64', 'int8'] as const)
          expectSame(
            'SPARSE_TO_DENSE',
            compareSingleOp(
              singleOpModel(
                { op: Op.SPARSE_TO_DENSE, rawOptions: [{ id: 0, type: 'bool', value: false }] },
                [
                  { type: it, shape: [...ishape], values: [...indices], constant: true },
                  { type: it, shape: [shape.length], values: [...shape], constant: true },
                  { type: t, shape: [...values] },
                  { type: t, shape: [], values: [t === 'float32' ? -0.5 : -2], constant: true },
                ],
                [{ type: t, shape: [...shape] }],
              ),
            ),
          );
  });

  it('RANGE: ascending and descending, float steps that do not divide the span', () => {
    for (const [t, start, limit, delta] of [
      ['int32', -5, 17, 3],
      ['int32', 20, -3, -4],
      ['float32', 0.1, 2.35, 0.3],
      ['float32', 5, -1, -0.7],
      ['float32', -1, 1, 0.1],
    ] as const) {
      const n = Math.ceil(Math.abs((limit - start) / delta));
      expectSame(
        'RANGE',
        compareSingleOp(
          singleOpModel(
            { op: Op.RANGE },
            [
              { type: t, shape: [], values: [start], constant: true },
              { type: t, shape: [], values: [limit], constant: true },
              { type: t, shape: [], values: [delta], constant: true },
            ],
            [{ type: t, shape: [n] }],
          ),
        ),
      );
    }
  });

  it('BUCKETIZE: values on, between and beyond the boundaries, for every input type', () => {
    const boundaries = [-3, -1, -1, 0, 0.5, 2, 100];
    for (const t of ['float32', 'float64', 'int32', 'int64'] as const) {
      const values = [-5, -3, -1, -0.5, 0, 0.25, 0.5, 1, 2, 3, 100, 101].map((v) => (t === 'int32' || t === 'int64' ? Math.round(v) : v));
      expectSame(
        'BUCKETIZE',
        compareSingleOp(
          singleOpModel(
            { op: Op.BUCKETIZE, rawOptions: [{ id: 0, type: 'float32[]', value: boundaries }] },
            [{ type: t, shape: [3, 4], values }],
            [{ type: 'int32', shape: [3, 4] }],
          ),
        ),
      );
    }
  });
});
