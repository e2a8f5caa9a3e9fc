import { describe, expect, it } from 'vitest';
import { TensorType, type BatchMatMulOptions } from '@micrort/core';
import { type HarnessTensorSpec } from '@micrort/core/testing';
import { f32, harness, kernelError, q, run } from './__fixtures__/math-testing.js';
import { lcg } from './__fixtures__/conv-testing.js';
import { BATCH_MATMUL } from './batch-matmul.js';

const I8 = TensorType.INT8;
const I16 = TensorType.INT16;
const opts = (adjX = false, adjY = false): BatchMatMulOptions => ({ adjX, adjY, asymmetricQuantizeInputs: false });

/** Naive batched matmul over row-major data with numpy broadcasting of the batch dims. */
function naive(
  l: number[],
  ls: number[],
  r: number[],
  rs: number[],
  adjX: boolean,
  adjY: boolean,
  mul: (a: number, b: number) => number,
): { out: number[]; shape: number[] } {
  const rank = Math.max(ls.length, rs.length);
  const pad = (s: number[]) => [...new Array<number>(rank - s.length).fill(1), ...s];
  const L = pad(ls);
  const R = pad(rs);
  const A = adjX ? L[rank - 1]! : L[rank - 2]!;
  const K = adjX ? L[rank - 2]! : L[rank - 1]!;
  const C = adjY ? R[rank - 2]! : R[rank - 1]!;
  const batch = L.slice(0, rank - 2).map((d, i) => Math.max(d, R[i]!));
  const out: number[] = [];
  const count = batch.reduce((a, b) => a * b, 1);
  for (let b = 0; b < count; b++) {
    let rem = b;
    const idx = batch.map(() => 0);
    for (let i = batch.length - 1; i >= 0; i--) {
      idx[i] = rem % batch[i]!;
      rem = Math.floor(rem / batch[i]!);
    }
    const off = (S: number[]) => idx.reduce((o, v, i) => o * S[i]! + (S[i] === 1 ? 0 : v), 0) * S[rank - 2]! * S[rank - 1]!;
    const lo = off(L);
    const ro = off(R);
    for (let a = 0; a < A; a++)
      for (let c = 0; c < C; c++) {
        let t = 0;
        for (let k = 0; k < K; k++)
          t = mul(t, (adjX ? l[lo + k * A + a]! : l[lo + a * K + k]!) * (adjY ? r[ro + c * K + k]! : r[ro + k * C + c]!));
        out.push(t);
      }
  }
  return { out, shape: [...batch, A, C] };
}

function randoms(n: number, seed: number, lo: number, hi: number, int: boolean): number[] {
  const g = lcg(seed);
  return Array.from({ length: n }, () => (int ? lo + Math.floor(g() * (hi - lo + 1)) : Math.fround(lo + g() * (hi - lo))));
}

describe('BATCH_MATMUL', () => {
  it('float32 in every adj_x / adj_y combination, with batch broadcasting, summing in float32', () => {
    const f = Math.fround;
    const fmul = (t: number, p: number) => f(t + f(p));
    for (const [adjX, adjY] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      const ls = adjX ? [2, 1, 4, 3] : [2, 1, 3, 4];
      const rs = adjY ? [3, 5, 4] : [3, 4, 5];
      const l = randoms(24, 1, -1, 1, false);
      const r = randoms(60, 2, -1, 1, false);
      const want = naive(l, ls, r, rs, adjX, adjY, fmul);
      const out = run(BATCH_MATMUL, [f32(ls, l), f32(rs, r), f32(want.shape)], [0, 1], [2], opts(adjX, adjY));
      expect(want.shape).toEqual([2, 3, 3, 5]);
      expect(out).toEqual(want.out);
    }
  });

  it('a constant RHS is transposed once in prepare; a non-constant one at every invoke', () => {
    const l = [1, 2, 3, 4, 5, 6];
    const r = [1, 0, 2, 1, 0, 1];
    const h = harness(BATCH_MATMUL, [f32([2, 3], l), f32([3, 2], r, true), f32([2, 2])], [0, 1], [2], opts()).prepare();
    expect(h.invoke().outputArray()).toEqual([5, 5, 14, 11]);
    const hv = harness(BATCH_MATMUL, [f32([2, 3], l), f32([3, 2], r), f32([2, 2])], [0, 1], [2], opts()).prepare();
    expect(hv.invoke().outputArray()).toEqual([5, 5, 14, 11]);
    hv.setInput(1, [0, 1, 0, 1, 0, 1]);
    expect(hv.invoke().outputArray()).toEqual([0, 6, 0, 15]);
  });

  it('int8: int32 sums of zero-point-corrected products, requantized and clamped', () => {
    const [sl, zl, sr, so, zo] = [0.05, -3, 0.02, 0.1, 4];
    const l = randoms(24, 3, -128, 127, true);
    const r = randoms(48, 4, -127, 127, true);
    const exact = naive(
      l.map((v) => v - zl),
      [1, 3, 8],
      r,
      [8, 6],
      false,
      false,
      (t, p) => t + p,
    );
    const out = run(
      BATCH_MATMUL,
      [q(I8, [1, 3, 8], sl, zl, l), q(I8, [8, 6], sr, 0, r, true), q(I8, [1, 3, 6], so, zo)],
      [0, 1],
      [2],
      opts(),
    );
    const m = Math.fround(sl * sr) / so;
    exact.out.forEach((acc, i) =>
      expect(Math.abs(out[i]! - Math.max(-128, Math.min(127, Math.round(acc * m) + zo)))).toBeLessThanOrEqual(1),
    );
  });

  it('int16 (zero points 0): 64-bit sums requantized, within one step; other zero points refused', () => {
    const l = randoms(48, 5, -32768, 32767, true);
    const r = randoms(36, 6, -32768, 32767, true);
    const exact = naive(l, [2, 4, 6], r, [2, 6, 3], false, false, (t, p) => t + p);
    const [sl, sr, so] = [1 / 4096, 1 / 8192, 0.05];
    const out = run(
      BATCH_MATMUL,
      [q(I16, [2, 4, 6], sl, 0, l), q(I16, [2, 6, 3], sr, 0, r), q(I16, [2, 4, 3], so, 0)],
      [0, 1],
      [2],
      opts(),
    );
    const m = Math.fround(sl * sr) / so;
    exact.out.forEach((acc, i) =>
      expect(Math.abs(out[i]! - Math.max(-32768, Math.min(32767, Math.round(acc * m))))).toBeLessThanOrEqual(1),
    );
    expect(
      kernelError(() =>
        harness(
          BATCH_MATMUL,
          [q(I16, [2, 2], 0.1, 1, [1, 2, 3, 4]), q(I16, [2, 2], 0.1, 0, [1, 2, 3, 4]), q(I16, [2, 2], 0.1, 0)],
          [0, 1],
          [2],
          opts(),
        ).prepare(),
      ).message,
    ).toMatch(/lhs \(tensor 0\) zero point must be 0, got 1/);
  });

  it('refuses mixed types, ranks outside 2..5, unequal depths, unbroadcastable batches and a wrong output size', () => {
    const bad = (tensors: HarnessTensorSpec[], o = opts()) =>
      kernelError(() => harness(BATCH_MATMUL, tensors, [0, 1], [2], o).prepare()).message;
    // float32 × int8 is the hybrid kernel, which needs constant weights; int8 × float32 is nobody's
    expect(bad([f32([2, 2], [1, 2, 3, 4]), q(I8, [2, 2], 0.1, 0, [1, 2, 3, 4]), f32([2, 2])])).toMatch(
      /hybrid rhs \(tensor 1\) must be a constant/,
    );
    expect(bad([q(I8, [2, 2], 0.1, 0, [1, 2, 3, 4]), f32([2, 2], [1, 2, 3, 4]), f32([2, 2])])).toMatch(
      /must share one type, or be float32 × int8 → float32 \(hybrid\) or int16 × int8 → int16; got int8, float32, float32/,
    );
    expect(bad([f32([4], [1, 2, 3, 4]), f32([4, 1], [1, 2, 3, 4]), f32([1])])).toMatch(
      /lhs \(tensor 0\) has rank 1; ranks 2 to 5 are supported/,
    );
    expect(bad([f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([2, 3])])).toMatch(
      /disagree on the accumulation depth: 3 vs 2/,
    );
    expect(bad([f32([2, 1, 2], [1, 2, 3, 4]), f32([3, 2, 1], [1, 2, 3, 4, 5, 6]), f32([3, 1, 1])])).toMatch(/cannot be broadcast/);
    expect(bad([f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([3, 2], [1, 2, 3, 4, 5, 6]), f32([2, 3])])).toMatch(
      /output \(tensor 2\) has shape \[2, 3\], expected \[2, 2\]/,
    );
    const h = harness(
      BATCH_MATMUL,
      [
        { type: TensorType.INT32, shape: [1, 1], data: [1] },
        { type: TensorType.INT32, shape: [1, 1], data: [1] },
        { type: TensorType.INT32, shape: [1, 1] },
      ],
      [0, 1],
      [2],
      opts(),
    );
    expect(h.supportsAnswer()).toBe('int32 lhs (handles float32, int8, int16)');
  });

  it("allocates TFLM's persistent buffers: OpData, quantization, transposed operands with their eval tensor and dims, output dims", () => {
    // float32, rhs [3, 2] transposed (not adj_y): 32 + (32 + 16 + 32) + 16
    expect(
      harness(BATCH_MATMUL, [f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([3, 2], [1, 2, 3, 4, 5, 6]), f32([2, 2])], [0, 1], [2], opts()).prepare()
        .persistentBytes,
    ).toBe(128);
    // int8 with adj_x and adj_y: 32 + 32 (quantization) + lhs (32 + 16 + 16) + 16
    expect(
      harness(
        BATCH_MATMUL,
        [q(I8, [3, 2], 0.1, 0, [1, 2, 3, 4, 5, 6]), q(I8, [2, 3], 0.1, 0, [1, 2, 3, 4, 5, 6]), q(I8, [2, 2], 0.1, 0)],
        [0, 1],
        [2],
        opts(true, true),
      ).prepare().persistentBytes,
    ).toBe(144);
  });
});
