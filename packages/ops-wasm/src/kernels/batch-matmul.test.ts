import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { buildBatchMatMul, randomBatchMatMulCase } from '../__tests__/single-op-batch-matmul.js';
import { runBoth } from '../__tests__/single-op.js';

const bytes = (x: ArrayBufferView) => new Int8Array(x.buffer, x.byteOffset, x.byteLength);

describe('BATCH_MATMUL int8 (wasm) equals ops-reference byte for byte', () => {
  it('on 200 random shapes: ranks 2-5, broadcast batch dims, adj_x / adj_y, nonzero zero points, constant and runtime operands', () => {
    const seen = { adjX: 0, adjY: 0, constRhs: 0, runtimeRhs: 0, rhsZeroPoint: 0 };
    for (let seed = 1; seed <= 200; seed++) {
      const c = randomBatchMatMulCase(seed, TensorType.INT8);
      const m = buildBatchMatMul(c);
      const r = runBoth(m.def, m.inputs.map(bytes));
      expect(r.served, JSON.stringify(c)).toBe(1);
      expect(r.got, JSON.stringify(c)).toEqual(r.ref);
      if (c.adjX) seen.adjX++;
      if (c.adjY) seen.adjY++;
      if (c.constRhs) seen.constRhs++;
      else seen.runtimeRhs++;
      if (c.q[1]!.zeroPoint !== 0) seen.rhsZeroPoint++;
    }
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(30);
  });

  it('on large rows and depths (saturating outputs, one call over every batch when the RHS is shared)', () => {
    for (let seed = 1; seed <= 16; seed++) {
      const c = randomBatchMatMulCase(500 + seed, TensorType.INT8, 70);
      const m = buildBatchMatMul({ ...c, q: [c.q[0]!, c.q[1]!, { ...c.q[2]!, scale: c.q[2]!.scale * (seed % 2 ? 0.05 : 1) }] });
      const r = runBoth(m.def, m.inputs.map(bytes));
      expect(r.served).toBe(1);
      expect(r.got).toEqual(r.ref);
    }
  });
});

describe('BATCH_MATMUL int16 (wasm) equals ops-reference byte for byte', () => {
  it('on 120 random shapes: full-range values (int64 sums), ranks 2-5, broadcast batch dims, adj_x / adj_y, constant and runtime operands', () => {
    let adjX = 0;
    let inside = 0;
    let saturated = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const c = randomBatchMatMulCase(seed, TensorType.INT16, seed % 10 === 0 ? 60 : 11);
      const m = buildBatchMatMul(c);
      const r = runBoth(m.def, m.inputs.map(bytes));
      expect(r.served, JSON.stringify(c)).toBe(1);
      expect(r.got, JSON.stringify(c)).toEqual(r.ref);
      if (c.adjX) adjX++;
      const out = new Int16Array(Int8Array.from(r.ref[0]!).buffer);
      for (const v of out)
        if (v === 32767 || v === -32768) saturated++;
        else inside++;
    }
    expect(adjX).toBeGreaterThan(20);
    // most outputs are requantized values, not the clamp
    expect(inside, `${saturated} saturated`).toBeGreaterThan(10 * saturated);
    expect(saturated).toBeGreaterThan(0);
  });
});
