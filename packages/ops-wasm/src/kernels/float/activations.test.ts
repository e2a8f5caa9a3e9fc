import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '@micrort/core';
import { buildUnaryF32, compareWithReference, firstMismatch, runF32 } from '../../__tests__/single-op-float.js';

const SPECIALS = [0, -0, 3, -3, 6, -6, 1, -1, 16.619047164916992, -9];

describe('RELU family, LOGISTIC, HARD_SWISH float32 (wasm)', () => {
  for (const op of [BuiltinOperator.RELU, BuiltinOperator.RELU6, BuiltinOperator.LOGISTIC, BuiltinOperator.HARD_SWISH] as const) {
    it(`${BuiltinOperator[op]} agrees with ops-reference within 1e-5 + 1e-4·|b| on 40 random tensors (odd sizes, thresholds mixed in)`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const m = buildUnaryF32(seed, op, seed % 4 === 0 ? 100 : 10, SPECIALS);
        expect(compareWithReference(m.def, m.inputs, 1), m.desc).toBeNull();
      }
    });
  }

  it('RELU_N1_TO_1 (no reference kernel) clamps to [-1, 1]', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const m = buildUnaryF32(seed, BuiltinOperator.RELU_N1_TO_1, 3, SPECIALS);
      const got = runF32(m.def, m.inputs, true);
      expect(got.served).toBe(1);
      expect(
        firstMismatch(
          got.outs[0]!,
          m.inputs[0]!.map((x) => Math.min(1, Math.max(-1, x))),
        ),
      ).toBeNull();
    }
  });

  it('LOGISTIC is within 2e-7 of 1 / (1 + exp(-x)) in double from -100 to 100', () => {
    const m = buildUnaryF32(5, BuiltinOperator.LOGISTIC, 1);
    const n = m.inputs[0]!.length;
    const x = Float32Array.from({ length: n }, (_, i) => -100 + (200 * i) / (n - 1));
    const y = runF32(m.def, [x], true).outs[0]!;
    for (let i = 0; i < n; i++) expect(Math.abs(y[i]! - 1 / (1 + Math.exp(-x[i]!)))).toBeLessThan(2e-7);
  });
});
