import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '@micrort/core';
import { buildBinaryF32, compareWithReference, runF32 } from '../../__tests__/single-op-float.js';
import { broadcastPlan } from './binary-common.js';

describe('ADD / MUL / PRELU float32 (wasm) agree with ops-reference within 1e-5 + 1e-4·|b|', () => {
  for (const op of [BuiltinOperator.ADD, BuiltinOperator.MUL] as const) {
    it(`${BuiltinOperator[op]} on 120 random broadcasts (same shape, scalars, trailing dimensions, size-1 dimensions; constant inputs; every fused activation)`, () => {
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
      const bits = (f: Float32Array) =>
        Array.from(new Uint32Array(f.buffer, f.byteOffset, f.length), (u) =>
          Number.isNaN(new Float32Array(new Uint32Array([u]).buffer)[0]) ? 'NaN' : u,
        );
      expect(bits(got.outs[0]!), m.desc).toEqual(bits(ref.outs[0]!));
    }
  });

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
