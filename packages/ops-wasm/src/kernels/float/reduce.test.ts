import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { reduceLoops, resolveReduceAxes } from '@micrort/kernel-support';
import { firstMismatchExactSpecials, floats, runF32 } from '../../__tests__/single-op-float.js';
import { int, pick, rng } from '../../__tests__/single-op.js';

const OPS = [BuiltinOperator.MEAN, BuiltinOperator.SUM, BuiltinOperator.REDUCE_MAX, BuiltinOperator.REDUCE_MIN] as const;

/** A reduction `op` of a random float32 tensor of `shape` over `axes` (raw: negative and repeated allowed). */
function buildReduce(seed: number, op: BuiltinOperator, shape: number[], axes: number[], keepDims: boolean, specials: boolean) {
  const r = rng(seed);
  const rank = shape.length;
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape });
  const a = b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [axes.length], data: Int32Array.from(axes) });
  const reduced = new Set(axes.map((v) => (v < 0 ? v + rank : v)));
  const outShape = keepDims ? shape.map((d, i) => (reduced.has(i) ? 1 : d)) : shape.filter((_, i) => !reduced.has(i));
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: outShape });
  b.addOperator({ op, inputs: [x, a], outputs: [y], options: { keepDims } });
  b.setInputs([x]).setOutputs([y]);
  const n = shape.reduce((p, d) => p * d, 1);
  const input = floats(r, n, -5, 5);
  // NaN, infinities (and for REDUCE_MAX / REDUCE_MIN the largest floats) here and there: REDUCE_MAX /
  // REDUCE_MIN skip NaN, sums keep it; with these the sums' non-finite results do not depend on the order
  const minMax = op === BuiltinOperator.REDUCE_MAX || op === BuiltinOperator.REDUCE_MIN;
  const special = minMax ? [NaN, Infinity, -Infinity, 3.4e38, -3.4e38, -0] : [NaN, Infinity, -Infinity, -0];
  if (specials) for (let i = 0; i < n; i++) if (r() < 0.05) input[i] = pick(r, special);
  return { def: b.buildDef(), inputs: [input], desc: JSON.stringify({ seed, op: BuiltinOperator[op], shape, axes, keepDims, specials }) };
}

/** Random rank 1-5 shapes (sizes 1-9, the last up to 37) and 1-3 random axes, negative and repeated ones among them. */
function randomCase(seed: number, op: BuiltinOperator) {
  const r = rng(seed * 31 + op);
  const rank = int(r, 1, 5);
  const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 ? int(r, 1, 37) : int(r, 1, 9)));
  const axes = Array.from({ length: int(r, 1, Math.min(3, rank)) }, () => {
    const a = int(r, 0, rank - 1);
    return r() < 0.3 ? a - rank : a;
  });
  return buildReduce(seed, op, shape, axes, r() < 0.5, r() < 0.3);
}

describe('MEAN, SUM, REDUCE_MAX, REDUCE_MIN float32 (wasm f32_reduce)', () => {
  for (const op of OPS)
    it(`${BuiltinOperator[op]}: 80 random tensors and axes (alternating with kept ones too), equal to ops-reference ${op === BuiltinOperator.MEAN || op === BuiltinOperator.SUM ? '(bit for bit unless the last axis is reduced, then within 1e-5 + 1e-4·|b|)' : 'bit for bit'}`, () => {
      let lastKept = 0;
      let alternating = 0;
      for (let seed = 1; seed <= 80; seed++) {
        const m = randomCase(seed, op);
        const { shape, axes } = JSON.parse(m.desc) as { shape: number[]; axes: number[] };
        const loops = reduceLoops(shape, resolveReduceAxes('test', { index: 0 } as never, shape.length, axes).reduced)!;
        const ref = runF32(m.def, m.inputs, false);
        const got = runF32(m.def, m.inputs, true);
        expect(got.served, m.desc).toBe(1);
        if (loops.inner > 1) lastKept++;
        // reduced axes in more than one group: kept ones between them
        if (loops.reduced.filter((g) => g.n > 1).length > 1) alternating++;
        const exact = op === BuiltinOperator.REDUCE_MAX || op === BuiltinOperator.REDUCE_MIN || loops.inner > 1;
        if (exact) expect(got.outs[0], m.desc).toEqual(ref.outs[0]);
        else expect(firstMismatchExactSpecials(got.outs[0]!, ref.outs[0]!), m.desc).toBeNull();
      }
      // both loop forms occur, and alternating axes
      expect(lastKept).toBeGreaterThan(20);
      expect(80 - lastKept).toBeGreaterThan(20);
      expect(alternating).toBeGreaterThan(3);
    });

  it('MEAN over height and width of NHWC images (the global pooling of CNN heads), axes written several ways', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = rng(seed + 1000);
      const shape = [int(r, 1, 3), int(r, 1, 9), int(r, 1, 9), int(r, 1, 41)];
      const axes = pick(r, [
        [1, 2],
        [2, 1],
        [-3, -2],
        [1, 2, 1],
      ]);
      const m = buildReduce(seed, BuiltinOperator.MEAN, shape, axes, r() < 0.5, false);
      const ref = runF32(m.def, m.inputs, false);
      const got = runF32(m.def, m.inputs, true);
      expect(got.served, m.desc).toBe(1);
      expect(got.outs[0], m.desc).toEqual(ref.outs[0]);
    }
  });

  it('a long last axis (a layer norm’s mean over 768 channels) within the tolerance', () => {
    for (const op of OPS) {
      const m = buildReduce(7, op, [2, 5, 768], [-1], true, false);
      const ref = runF32(m.def, m.inputs, false);
      const got = runF32(m.def, m.inputs, true);
      expect(got.served).toBe(1);
      expect(firstMismatchExactSpecials(got.outs[0]!, ref.outs[0]!), BuiltinOperator[op]).toBeNull();
    }
  });
});
