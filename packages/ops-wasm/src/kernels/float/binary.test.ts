import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import {
  buildBinaryF32,
  buildUnaryF32,
  compareWithReference,
  firstMismatchExactSpecials,
  runF32,
  type BinaryF32Op,
} from '../../__tests__/single-op-float.js';
import { broadcastPlan } from './binary-common.js';

/** A float32 array's values as bit patterns, every NaN as 'NaN' (NaN payloads are not compared). */
function bits(f: Float32Array): (number | string)[] {
  const u = new Uint32Array(f.buffer, f.byteOffset, f.length);
  return Array.from(f, (x, i) => (Number.isNaN(x) ? 'NaN' : u[i]!));
}

/** Values that exercise the IEEE corners: zeros of both signs, NaN, infinities, the largest finite floats. */
const SPECIALS = [0, -0, Number.NaN, Infinity, -Infinity, 3.4028234663852886e38, -3.4028234663852886e38, 1, -1];

describe('float32 binary ops (wasm) agree with ops-reference', () => {
  for (const op of [BuiltinOperator.ADD, BuiltinOperator.MUL] as const) {
    it(`${BuiltinOperator[op]} within 1e-5 + 1e-4·|b| on 120 random broadcasts (same shape, scalars, trailing dimensions, size-1 dimensions; constant inputs; every fused activation)`, () => {
      for (let seed = 1; seed <= 120; seed++) {
        const m = buildBinaryF32(seed, op);
        expect(compareWithReference(m.def, m.inputs, 1), m.desc).toBeNull();
      }
    });
  }

  it('PRELU on 200 random broadcasts (alpha per channel, scalar, full, size-1 dimensions; constant inputs; zeros, -0 and NaN among the inputs) equals ops-reference bit for bit', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const m = buildBinaryF32(seed, BuiltinOperator.PRELU);
      const ref = runF32(m.def, m.inputs, false);
      const got = runF32(m.def, m.inputs, true);
      expect(got.served, m.desc).toBe(1);
      expect(bits(got.outs[0]!), m.desc).toEqual(bits(ref.outs[0]!));
    }
  });

  const exact: BinaryF32Op[] = [
    BuiltinOperator.SUB,
    BuiltinOperator.DIV,
    BuiltinOperator.MAXIMUM,
    BuiltinOperator.MINIMUM,
    BuiltinOperator.SQUARED_DIFFERENCE,
    BuiltinOperator.PRELU,
    BuiltinOperator.ADD,
    BuiltinOperator.MUL,
  ];
  for (const op of exact) {
    it(`${BuiltinOperator[op]} on 80 random broadcasts with zeros, -0, NaN, infinities and the largest floats among both inputs equals ops-reference bit for bit (every fused activation where the op has one)`, () => {
      for (let seed = 1; seed <= 80; seed++) {
        const m = buildBinaryF32(seed, op, SPECIALS);
        const ref = runF32(m.def, m.inputs, false);
        const got = runF32(m.def, m.inputs, true);
        expect(got.served, m.desc).toBe(1);
        expect(bits(got.outs[0]!), m.desc).toEqual(bits(ref.outs[0]!));
      }
    });
  }

  it('collapses broadcasts into outer loops with byte strides around one inner run', () => {
    // per-channel scale of an image: one outer loop over the pixels, input 2 not advancing
    expect(broadcastPlan([1, 4, 5, 8], [8], [1, 4, 5, 8])).toEqual({ n: [1, 1, 20], a: [0, 0, 32], b: [0, 0, 0], inner: 8, mode: 0 });
    // scalar: input 2 repeated over the whole run
    expect(broadcastPlan([2, 3], [], [2, 3])).toEqual({ n: [1, 1, 1], a: [0, 0, 0], b: [0, 0, 0], inner: 6, mode: 2 });
    // [3, 1] x [1, 4]: input 1 repeated along the run, input 2 contiguous, neither advancing the same way
    expect(broadcastPlan([3, 1], [1, 4], [3, 4])).toEqual({ n: [1, 1, 3], a: [0, 0, 4], b: [0, 0, 0], inner: 4, mode: 1 });
    expect(broadcastPlan([2, 3], [4, 3], [4, 3])).toMatch(/do not broadcast/);
    expect(broadcastPlan([2, 1, 2, 1, 2], [1, 2, 1, 2, 1], [2, 2, 2, 2, 2])).toMatch(/4 outer loops/);
  });
});

describe('ABS, NEG, SQRT, RSQRT, SQUARE float32 (wasm)', () => {
  const ops = [BuiltinOperator.ABS, BuiltinOperator.NEG, BuiltinOperator.SQRT, BuiltinOperator.RSQRT, BuiltinOperator.SQUARE];
  for (const op of ops) {
    it(`${BuiltinOperator[op]} equals ops-reference bit for bit on 60 random tensors (odd sizes; zeros, -0, NaN, infinities, tiny and huge values mixed in)`, () => {
      for (let seed = 1; seed <= 60; seed++) {
        const m = buildUnaryF32(seed, op, seed % 3 === 0 ? 1e30 : 10, [...SPECIALS, 1e-38, 1e-45, 2.5e-39]);
        const ref = runF32(m.def, m.inputs, false);
        const got = runF32(m.def, m.inputs, true);
        expect(got.served, m.desc).toBe(1);
        expect(bits(got.outs[0]!), m.desc).toEqual(bits(ref.outs[0]!));
      }
    });
  }
});

describe('EXP, GELU, LOG and ELU float32 (wasm) within 1e-5 + 1e-4·|b| of ops-reference', () => {
  /**
   * The op over every float32 from -120 to 120 in steps of 1/64 (and the IEEE specials), GELU with
   * `approximate`; with `logScale`, also 2^-149 · 1.37^i up to the largest float32 (LOG's subnormals,
   * normals and extremes).
   */
  function sweep(op: BuiltinOperator, approximate?: boolean, logScale = false) {
    const xs: number[] = [];
    for (let v = -120; v <= 120; v += 1 / 64) xs.push(v);
    xs.push(0, -0, Number.NaN, Infinity, -Infinity, 88.72, 88.73, -87.3, -103.9, 1e-30, -1e-30);
    if (logScale) for (let v = 2 ** -149; v < 3.4e38; v *= 1.37) xs.push(v);
    xs.push(3.4028234663852886e38, 1.1754943508222875e-38, 1.1754942106924411e-38);
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [xs.length] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [xs.length] });
    b.addOperator({ op, inputs: [x], outputs: [y], ...(approximate === undefined ? {} : { options: { approximate } }) });
    b.setInputs([x]).setOutputs([y]);
    const input = Float32Array.from(xs);
    const ref = runF32(b.buildDef(), [input], false);
    const got = runF32(b.buildDef(), [input], true);
    expect(got.served).toBe(1);
    const e = ref.outs[0]!;
    const a = got.outs[0]!;
    // infinities and NaN exactly, the rest within the tolerance
    expect(firstMismatchExactSpecials(a, e)).toBeNull();
  }
  it('EXP on 15,361 values from -120 to 120 and the IEEE specials (overflow to +inf, underflow to 0)', () => sweep(BuiltinOperator.EXP));
  it('GELU (exact form) on the same values', () => sweep(BuiltinOperator.GELU, false));
  it('GELU (tanh form) on the same values', () => sweep(BuiltinOperator.GELU, true));
  it('LOG on the same values (−inf at ±0, NaN below 0) and on every power of 1.37 from the smallest subnormal to the largest float32', () =>
    sweep(BuiltinOperator.LOG, undefined, true));
  it('ELU on the same values', () => sweep(BuiltinOperator.ELU));
  it('EXP, GELU, LOG and ELU on 20 random tensors each', () => {
    for (let seed = 1; seed <= 20; seed++)
      for (const op of [BuiltinOperator.EXP, BuiltinOperator.GELU, BuiltinOperator.LOG, BuiltinOperator.ELU]) {
        const m = buildUnaryF32(seed, op, 20);
        expect(compareWithReference(m.def, m.inputs, 1), m.desc).toBeNull();
      }
  });
});
