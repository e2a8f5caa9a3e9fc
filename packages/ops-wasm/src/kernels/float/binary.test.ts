import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '@micrort/core';
import { buildBinaryF32, buildUnaryF32, compareWithReference, runF32, type BinaryF32Op } from '../../__tests__/single-op-float.js';
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
