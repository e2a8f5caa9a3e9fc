import { describe, expect, it } from 'vitest';
import { buildConcat, runBoth } from '../__tests__/single-op.js';

describe('CONCATENATION (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random int8 / float32 concatenations of 1-4 inputs (some constant) along every axis', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildConcat(seed);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('CONCATENATION uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 150 random uint8 concatenations of 1-4 inputs (some constant) along every axis, each copied or requantized (scale ratios, zero points 0 and 255, values 0 and 255, runs not multiples of 8)', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const m = buildConcat(seed, true);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});
