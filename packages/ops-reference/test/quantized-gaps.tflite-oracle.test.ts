/**
 * The uint8 / int16 combinations that closed issue 20's last type gaps and that TFLite 2.9 has
 * (TRANSPOSE_CONV, PRELU, LOG_SOFTMAX, L2_NORMALIZATION uint8; RESIZE_BILINEAR int16) against TFLite 2.9 on writer-made models
 * beyond the op-set recipes: zero points other than the recipes', several scales, biases, broadcast
 * alphas, inputs over each type's whole range. Integers byte for byte. Each test says which of TFLite's
 * kernels (reference or optimized) the oracle runs and which one micrort equals. Skips with the oracle's
 * reason without it.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator as Op, Padding } from '@micrort/core';
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

const q = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });
/** Every value of a 8-bit type, then more drawn at random, `n` in all. */
const all8 = (t: 'uint8' | 'int8', n: number, seed: number): number[] => {
  let s = seed >>> 0;
  return Array.from({ length: n }, (_, i) => {
    if (i < 256) return t === 'uint8' ? i : i - 128;
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 24) - (t === 'uint8' ? 0 : 128);
  });
};

describe.skipIf(!oracleAvailable)('quantized type gaps closed, vs TFLite 2.9', () => {
  it('TRANSPOSE_CONV uint8: weight zero points, bias, strides, SAME/VALID (2.9 runs the optimized TransposeConvV2; the reference gives the same integers)', () => {
    for (const [padding, stride, wzp, withBias, qi, qw, qo] of [
      [Padding.SAME, 2, 0, false, q(0.02, 128), q(0.01, 0), q(0.1, 120)],
      [Padding.SAME, 2, 131, true, q(0.03, 100), q(0.005, 131), q(0.05, 90)],
      [Padding.VALID, 1, 77, true, q(0.015, 7), q(0.02, 77), q(0.08, 250)],
      [Padding.SAME, 3, 255, true, q(0.05, 255), q(0.004, 255), q(0.02, 3)],
    ] as const) {
      const inH = 3;
      const k = 3;
      const outH = padding === Padding.SAME ? inH * stride : (inH - 1) * stride + k;
      const bias = withBias
        ? [{ type: 'int32' as const, shape: [2], constant: true, range: [-3000, 3000] as [number, number], q: q(qi.scale * qw.scale, 0) }]
        : [null];
      const inputs: (Operand | null)[] = [
        { type: 'int32', shape: [4], constant: true, values: [1, outH, outH, 2] },
        { type: 'uint8', shape: [2, k, k, 3], constant: true, q: { ...qw, zeroPoint: wzp } },
        { type: 'uint8', shape: [1, inH, inH, 3], q: qi },
        ...bias,
      ];
      expectSame(
        'TRANSPOSE_CONV',
        compareSingleOp(
          singleOpModel({ op: Op.TRANSPOSE_CONV, options: { padding, strideW: stride, strideH: stride } }, inputs, [
            { type: 'uint8', shape: [1, outH, outH, 2], q: qo },
          ]),
        ),
      );
    }
  });

  it('PRELU uint8: alpha zero points, per-channel and full alphas, float32-rounded multipliers (reference_ops::Prelu in 2.9)', () => {
    for (const [shapeA, qi, qa, qo] of [
      [[3], q(0.02, 128), q(0.01, 128), q(0.02, 128)],
      [[1, 1, 3], q(0.03, 50), q(0.004, 200), q(0.017, 140)],
      [[4, 5, 3], q(0.011, 255), q(0.0077, 3), q(0.013, 251)],
      [[5, 1], q(0.1, 0), q(0.02, 0), q(0.07, 200)],
    ] as const) {
      const shape = [2, 4, 5, 3];
      const n = shape.reduce((a, b) => a * b, 1);
      expectSame(
        'PRELU',
        compareSingleOp(
          singleOpModel(
            { op: Op.PRELU },
            [
              { type: 'uint8', shape, q: qi, values: all8('uint8', n, 11) },
              { type: 'uint8', shape: [...shapeA], q: qa, constant: true },
            ],
            [{ type: 'uint8', shape, q: qo }],
          ),
        ),
      );
    }
  });

  it('LOG_SOFTMAX uint8: several input scales and zero points, rows of 1 to 40, every input value (the fixed-point reference_ops::LogSoftmax; 2.9 gives the same bytes)', () => {
    for (const [qi, shape] of [
      [q(0.1, 128), [8, 40]],
      [q(0.02, 10), [16, 20]],
      [q(0.5, 0), [4, 80]],
      [q(0.05, 255), [320, 1]],
      [q(1.3, 77), [40, 8]],
    ] as const) {
      expectSame(
        'LOG_SOFTMAX',
        compareSingleOp(
          singleOpModel(
            { op: Op.LOG_SOFTMAX },
            [{ type: 'uint8', shape: [...shape], q: qi, values: all8('uint8', 320, 3) }],
            [{ type: 'uint8', shape: [...shape], q: q(16 / 256, 255) }],
          ),
        ),
      );
    }
  });

  it('L2_NORMALIZATION uint8: zero points across the range, rows of 1 to 64, every input value (reference_ops::L2Normalization; the optimized uint8 kernel does the same steps)', () => {
    for (const [qi, shape] of [
      [q(0.1, 128), [5, 64]],
      [q(0.02, 0), [10, 32]],
      [q(0.5, 255), [40, 8]],
      [q(0.05, 37), [320, 1]],
      [q(0.003, 200), [2, 160]],
    ] as const) {
      expectSame(
        'L2_NORMALIZATION',
        compareSingleOp(
          singleOpModel(
            { op: Op.L2_NORMALIZATION },
            [{ type: 'uint8', shape: [...shape], q: qi, values: all8('uint8', 320, 5) }],
            [{ type: 'uint8', shape: [...shape], q: q(1 / 128, 128) }],
          ),
        ),
      );
    }
  });

  it('RESIZE_BILINEAR int16: up and down, align_corners, half_pixel_centers, whole-range values (reference_ops::ResizeBilinearInteger, which 2.9 runs for int16)', () => {
    for (const [inHW, outHW, alignCorners, halfPixelCenters] of [
      [[4, 5], [7, 3], false, true],
      [[3, 3], [8, 8], true, false],
      [[6, 4], [2, 9], false, false],
      [[2, 2], [5, 5], false, true],
    ] as const) {
      const inShape = [2, inHW[0], inHW[1], 3];
      expectSame(
        'RESIZE_BILINEAR',
        compareSingleOp(
          singleOpModel(
            { op: Op.RESIZE_BILINEAR, options: { alignCorners, halfPixelCenters } },
            [
              { type: 'int16', shape: inShape, q: q(1 / 4096, 0), range: [-32768, 32767] },
              { type: 'int32', shape: [2], constant: true, values: [...outHW] },
            ],
            [{ type: 'int16', shape: [2, outHW[0], outHW[1], 3], q: q(1 / 4096, 0) }],
          ),
        ),
      );
    }
  });

  it('prints the largest difference per op', () => {
    console.log([...maxDiff].map(([k, v]) => `${k}: max |Δ| ${v}`).join('\n'));
  });
});
