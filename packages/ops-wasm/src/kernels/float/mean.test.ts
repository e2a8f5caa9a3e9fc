import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { compareWithReference, floats, runF32 } from '../../__tests__/single-op-float.js';
import { int, pick, rng } from '../../__tests__/single-op.js';

function buildMean(seed: number, axes: number[], keepDims: boolean) {
  const r = rng(seed);
  const shape = [int(r, 1, 3), int(r, 1, 9), int(r, 1, 9), int(r, 1, 41)];
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape });
  const a = b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [axes.length], data: Int32Array.from(axes) });
  const reduced = new Set(axes.map((a) => (a < 0 ? a + 4 : a)));
  const outShape = keepDims ? shape.map((d, i) => (reduced.has(i) ? 1 : d)) : shape.filter((_, i) => !reduced.has(i));
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: outShape });
  b.addOperator({ op: BuiltinOperator.MEAN, inputs: [x, a], outputs: [y], options: { keepDims } });
  b.setInputs([x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: [
      floats(
        r,
        shape.reduce((p, d) => p * d, 1),
        -5,
        5,
      ),
    ],
    desc: JSON.stringify({ seed, shape, axes, keepDims }),
  };
}

describe('MEAN over height and width, float32 (wasm)', () => {
  it('agrees with ops-reference within 1e-5 + 1e-4·|b| on 60 random images (axes {1, 2} written several ways, keep_dims both ways)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const r = rng(seed + 1000);
      const m = buildMean(
        seed,
        pick(r, [
          [1, 2],
          [2, 1],
          [-3, -2],
          [1, 2, 1],
        ]),
        r() < 0.5,
      );
      expect(compareWithReference(m.def, m.inputs, 1), m.desc).toBeNull();
    }
  });

  it('declines other axes (ops-reference serves them)', () => {
    for (const axes of [[1], [3], [0, 1, 2], [1, 2, 3]]) {
      const m = buildMean(3, axes, true);
      expect(runF32(m.def, m.inputs, true).served, JSON.stringify(axes)).toBe(0);
      expect(compareWithReference(m.def, m.inputs, 0)).toBeNull();
    }
  });
});
