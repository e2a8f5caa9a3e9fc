import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { buildUnaryF32, compareWithReference, firstMismatch, floats, runF32 } from '../../__tests__/single-op-float.js';
import { int, rng } from '../../__tests__/single-op.js';

const SPECIALS = [0, -0, 3, -3, 6, -6, 1, -1, 16.619047164916992, -9, 0.25, -0.25, 1e-30, -1e-6];

describe('RELU family, LOGISTIC, TANH, HARD_SWISH float32 (wasm)', () => {
  for (const op of [
    BuiltinOperator.RELU,
    BuiltinOperator.RELU6,
    BuiltinOperator.LOGISTIC,
    BuiltinOperator.TANH,
    BuiltinOperator.HARD_SWISH,
  ] as const) {
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

  it('TANH is within 1e-6 relative (and 1e-38 absolute) of tanh in double from -20 to 20, odd, ±1 at ±infinity, NaN for NaN', () => {
    const m = buildUnaryF32(5, BuiltinOperator.TANH, 1);
    const n = m.inputs[0]!.length;
    const x = Float32Array.from(
      { length: n },
      (_, i) => (i % 7 === 3 ? -1 : 1) * (i < n / 2 ? 2 ** (-30 + (60 * i) / n) : -20 + (40 * i) / (n - 1)),
    );
    const y = runF32(m.def, [x], true).outs[0]!;
    for (let i = 0; i < n; i++) {
      const t = Math.tanh(x[i]!);
      expect(Math.abs(y[i]! - t), `tanh(${x[i]}) = ${y[i]}, want ${t}`).toBeLessThanOrEqual(1e-6 * Math.abs(t) + 1e-38);
    }
    const specials = Float32Array.from({ length: n }, (_, i) => [Infinity, -Infinity, NaN, 0, -0][i % 5]!);
    const z = runF32(m.def, [specials], true).outs[0]!;
    for (let i = 0; i < n; i++) {
      const v = specials[i]!;
      if (Number.isNaN(v)) expect(z[i]).toBeNaN();
      else expect(Object.is(z[i], v === 0 ? v : Math.sign(v)), `tanh(${v}) = ${z[i]}`).toBe(true);
    }
  });
});

/** A random float32 SOFTMAX: rank 1-4, rows of 1-40 values (tails of 1-3), beta in {0, 0.5, 1, 2.7}. */
function buildSoftmaxF32(seed: number, range: number) {
  const r = rng(seed);
  const rank = int(r, 1, 4);
  const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 ? int(r, 1, 40) : int(r, 1, 4)));
  const n = shape.reduce((p, v) => p * v, 1);
  const x = floats(r, n, -range, range);
  const beta = [0, 0.5, 1, 2.7][int(r, 0, 3)]!;
  const b = new ModelBuilder();
  const i = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape });
  const o = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [i], outputs: [o], options: { beta } });
  b.setInputs([i]).setOutputs([o]);
  return { def: b.buildDef(), inputs: [x], desc: JSON.stringify({ seed, shape, beta }) };
}

describe('SOFTMAX float32 (wasm)', () => {
  it('agrees with ops-reference within 1e-5 + 1e-4·|b| on 100 random tensors: ranks 1-4, rows of 1-40, beta 0-2.7, values to ±10 and ±100', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildSoftmaxF32(seed, seed % 3 === 0 ? 100 : 10);
      expect(compareWithReference(m.def, m.inputs, 1), m.desc).toBeNull();
    }
  });

  it('rows sum to 1, equal inputs are uniform, and a dominant input gives exactly [1, 0] (exp past 87 is 0)', () => {
    const m = buildSoftmaxF32(7, 1);
    const n = m.inputs[0]!.length;
    const y = runF32(m.def, [Float32Array.from({ length: n }, (_, i) => (i * 13) % 17)], true).outs[0]!;
    const depth = JSON.parse(m.desc).shape.at(-1) as number;
    for (let r = 0; r < n / depth; r++) {
      let s = 0;
      for (let c = 0; c < depth; c++) s += y[r * depth + c]!;
      expect(Math.abs(s - 1)).toBeLessThan(1e-6);
    }
    const b = new ModelBuilder();
    const i = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [3, 5] });
    const o = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [3, 5] });
    b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [i], outputs: [o], options: { beta: 1 } });
    const def = b.setInputs([i]).setOutputs([o]).buildDef();
    const x = Float32Array.of(3, 3, 3, 3, 3, 0, -1000, -1000, -1000, -1000, -1e30, 5, -1e30, 2, 2);
    const got = runF32(def, [x], true);
    expect(got.served).toBe(1);
    expect(Array.from(got.outs[0]!.subarray(0, 10))).toEqual([0.2, 0.2, 0.2, 0.2, 0.2, 1, 0, 0, 0, 0].map(Math.fround));
    expect(firstMismatch(got.outs[0]!, runF32(def, [x], false).outs[0]!)).toBeNull();
  });

  it('declines a negative beta (ops-reference serves it)', () => {
    const b = new ModelBuilder();
    const i = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 6] });
    const o = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [2, 6] });
    b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [i], outputs: [o], options: { beta: -1 } });
    const def = b.setInputs([i]).setOutputs([o]).buildDef();
    expect(runF32(def, [Float32Array.from({ length: 12 }, (_, k) => k / 3)], true).served).toBe(0);
  });
});

describe('float TANH and SOFTMAX (wasm) infer an output stored without a shape', () => {
  it('a [2, 5] input through TANH and SOFTMAX whose outputs are stored as [] gives [2, 5] outputs equal to ops-reference', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 5] });
    const t = b.addTensor({ name: 't', type: TensorType.FLOAT32, shape: [] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [] });
    b.addOperator({ op: BuiltinOperator.TANH, inputs: [x], outputs: [t] });
    b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [t], outputs: [y], options: { beta: 1.5 } });
    const def = b.setInputs([x]).setOutputs([y]).buildDef();
    const input = Float32Array.from({ length: 10 }, (_, i) => (i - 4.5) / 2);
    expect(compareWithReference(def, [input], 2)).toBeNull();
    expect(runF32(def, [input], true).outs[0]!.length).toBe(10);
  });
});
