import { describe, expect, it } from 'vitest';
import { buildMean, runBoth } from '../__tests__/single-op.js';

describe('MEAN int8 over H and W (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random tensors: window counts 1-196, depths not multiples of 8, scale ratios, extreme zero points, keep_dims', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildMean(seed);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('MEAN uint8 over H and W (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random tensors: window counts 1-196, depths not multiples of 8, scale ratios, zero points 0-255, keep_dims', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildMean(seed, true);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});
