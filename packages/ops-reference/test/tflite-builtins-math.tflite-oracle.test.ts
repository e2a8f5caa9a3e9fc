/**
 * The activation and elementwise kernels of registrations/tflite-builtins.ts against TFLite 2.9 on
 * writer-made models beyond the op-set recipes: every option, quantizations with different input and
 * output parameters, broadcasting, ranges that reach the clamps and the edges of each function.
 * Integers byte for byte, floats within 1e-5 + 1e-4·|TFLite|. Ops newer than 2.9 (SIGN, ATAN2,
 * RELU_0_TO_1, BITWISE_XOR, RIGHT_SHIFT, BITCAST) are compared with LiteRT.js in benchmarks.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator as Op } from '@micrort/core';
import type { OutputDiff } from '@micrort/test-support/output-compare';
import { compareSingleOp, singleOpModel, type Operand } from '@micrort/test-support/single-op-model';
import { ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const maxDiff = new Map<string, number>();
function expectSame(op: string, diffs: OutputDiff[]): void {
  diffs.forEach((d, j) => {
    maxDiff.set(op, Math.max(maxDiff.get(op) ?? 0, d.maxAbsDiff));
    expect(d.ok, `${op} output ${j}: ${d.detail}`).toBe(true);
  });
}

const q8 = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });

describe.skipIf(!oracleAvailable)('TFLite builtins (activations, elementwise) vs TFLite 2.9', () => {
  it('RELU_N1_TO_1: float32 over the clamps; uint8 and int8 requantized to other output parameters', () => {
    const shape = [3, 40];
    expectSame(
      'RELU_N1_TO_1',
      compareSingleOp(singleOpModel({ op: Op.RELU_N1_TO_1 }, [{ type: 'float32', shape, range: [-3, 3] }], [{ type: 'float32', shape }])),
    );
    for (const [t, qi, qo] of [
      ['uint8', q8(0.03, 120), q8(0.01, 100)],
      ['uint8', q8(0.005, 0), q8(0.02, 200)],
      ['int8', q8(0.03, -5), q8(0.009, 7)],
      ['int8', q8(0.2, 0), q8(1 / 128, 0)],
    ] as const)
      expectSame(
        'RELU_N1_TO_1',
        compareSingleOp(singleOpModel({ op: Op.RELU_N1_TO_1 }, [{ type: t, shape, q: qi }], [{ type: t, shape, q: qo }])),
      );
  });

  it('GELU: exact and tanh forms; float32 over [-8, 8]; uint8/int8 tables for several quantizations', () => {
    const shape = [4, 64];
    for (const approximate of [false, true]) {
      const spec = { op: Op.GELU, rawOptions: [{ id: 0, type: 'bool' as const, value: approximate }] };
      expectSame('GELU', compareSingleOp(singleOpModel(spec, [{ type: 'float32', shape, range: [-8, 8] }], [{ type: 'float32', shape }])));
      for (const [t, qi, qo] of [
        ['int8', q8(0.05, 3), q8(0.04, -20)],
        ['int8', q8(0.1, -128), q8(0.1, -128)],
        ['uint8', q8(0.04, 128), q8(0.03, 10)],
        ['uint8', q8(0.02, 100), q8(0.05, 127)],
      ] as const) {
        const values = Array.from({ length: 256 }, (_, i) => (t === 'int8' ? i - 128 : i));
        expectSame(
          'GELU',
          compareSingleOp(singleOpModel(spec, [{ type: t, shape: [256], q: qi, values }], [{ type: t, shape: [256], q: qo }])),
        );
      }
    }
  });

  it('POW: float32 and int32, broadcast both ways', () => {
    for (const [a, b] of [
      [[2, 3, 4], [4]],
      [
        [1, 4],
        [3, 1],
      ],
      [
        [2, 1, 3],
        [2, 4, 1],
      ],
    ] as const) {
      const shapeOut = Array.from({ length: Math.max(a.length, b.length) }, (_, i) => {
        const x = a[i - Math.max(a.length, b.length) + a.length] ?? 1;
        const y = b[i - Math.max(a.length, b.length) + b.length] ?? 1;
        return Math.max(x, y);
      });
      expectSame(
        'POW',
        compareSingleOp(
          singleOpModel(
            { op: Op.POW },
            [
              { type: 'float32', shape: [...a], range: [0.1, 3] },
              { type: 'float32', shape: [...b], range: [-2.5, 2.5] },
            ],
            [{ type: 'float32', shape: shapeOut }],
          ),
        ),
      );
      expectSame(
        'POW',
        compareSingleOp(
          singleOpModel(
            { op: Op.POW },
            [
              { type: 'int32', shape: [...a], range: [-6, 6] },
              { type: 'int32', shape: [...b], range: [0, 9] },
            ],
            [{ type: 'int32', shape: shapeOut }],
          ),
        ),
      );
    }
  });

  it('FAKE_QUANT: several ranges and bit widths (float computation as TFLite nudges it)', () => {
    const shape = [4, 50];
    for (const [min, max, bits] of [
      [-1, 1, 8],
      [-0.3, 6.1, 8],
      [0, 1, 4],
      [-2.7, 0.4, 16],
      [-10, 10, 2],
      [0.5, 3, 8],
    ] as const)
      expectSame(
        'FAKE_QUANT',
        compareSingleOp(
          singleOpModel(
            {
              op: Op.FAKE_QUANT,
              rawOptions: [
                { id: 0, type: 'float32', value: min },
                { id: 1, type: 'float32', value: max },
                { id: 2, type: 'int32', value: bits },
                { id: 3, type: 'bool', value: false },
              ],
            },
            [{ type: 'float32', shape, range: [min - 1, max + 1] }],
            [{ type: 'float32', shape }],
          ),
        ),
      );
  });

  it('LOCAL_RESPONSE_NORMALIZATION: radius, bias, alpha and beta', () => {
    const shape = [2, 3, 4, 9];
    for (const [radius, bias, alpha, beta] of [
      [0, 1, 1, 0.5],
      [2, 1, 0.5, 0.75],
      [5, 2, 0.1, 1],
      [1, 0.5, 2, 0.3],
    ])
      expectSame(
        'LOCAL_RESPONSE_NORMALIZATION',
        compareSingleOp(
          singleOpModel(
            {
              op: Op.LOCAL_RESPONSE_NORMALIZATION,
              rawOptions: [
                { id: 0, type: 'int32', value: radius! },
                { id: 1, type: 'float32', value: bias! },
                { id: 2, type: 'float32', value: alpha! },
                { id: 3, type: 'float32', value: beta! },
              ],
            },
            [{ type: 'float32', shape, range: [-3, 3] }],
            [{ type: 'float32', shape }],
          ),
        ),
      );
  });

  it('REAL and IMAG of complex64 constants; RANK of 0-D to 5-D inputs', () => {
    for (const op of [Op.REAL, Op.IMAG]) {
      const x: Operand = { type: 'complex64', shape: [3, 5], constant: true, range: [-4, 4] };
      expectSame(op === Op.REAL ? 'REAL' : 'IMAG', compareSingleOp(singleOpModel({ op }, [x], [{ type: 'float32', shape: [3, 5] }])));
    }
    for (const shape of [[], [7], [2, 3], [1, 2, 3, 4, 5]])
      expectSame(
        'RANK',
        compareSingleOp(singleOpModel({ op: Op.RANK }, [{ type: 'int8', shape, q: q8(1, 0) }], [{ type: 'int32', shape: [] }])),
      );
  });

  it('prints the largest float difference per op', () => {
    console.log([...maxDiff].map(([k, v]) => `${k}: max |Δ| ${v.toExponential(2)}`).join('\n'));
  });
});
