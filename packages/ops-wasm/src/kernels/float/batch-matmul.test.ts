import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { buildBatchMatMul, randomBatchMatMulCase } from '../../__tests__/single-op-batch-matmul.js';
import { compareWithReference } from '../../__tests__/single-op-float.js';

describe('BATCH_MATMUL float32 (wasm) agrees with ops-reference within 1e-5 + 1e-4·|b|', () => {
  it('on 150 random shapes: ranks 2-5, broadcast batch dims, adj_x / adj_y, constant and runtime operands', () => {
    const seen = { adjX: 0, adjY: 0, constRhs: 0, runtimeRhs: 0, broadcast: 0 };
    for (let seed = 1; seed <= 150; seed++) {
      const c = randomBatchMatMulCase(seed, TensorType.FLOAT32);
      const m = buildBatchMatMul(c);
      expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
      if (c.adjX) seen.adjX++;
      if (c.adjY) seen.adjY++;
      if (c.constRhs) seen.constRhs++;
      else seen.runtimeRhs++;
      if (c.lhs.length !== c.rhs.length || c.lhs.slice(0, -2).some((v, i) => v !== c.rhs.slice(0, -2)[i])) seen.broadcast++;
    }
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(20);
  });

  it('on large rows (the GEMM tile over many rows, one GEMM when the RHS is shared)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const m = buildBatchMatMul(randomBatchMatMulCase(1000 + seed, TensorType.FLOAT32, 70));
      expect(compareWithReference(m.def, m.inputs, 1)).toBeNull();
    }
  });
});
