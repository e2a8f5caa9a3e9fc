import { describe, expect, it } from 'vitest';
import { buildPad, runBoth } from '../__tests__/single-op.js';

describe('PAD (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random int8 / float32 tensors of rank 1-5 with random paddings', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildPad(seed);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('PAD uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 60 random uint8 tensors of rank 1-5 with random paddings, zero points 0, 255 and between', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const m = buildPad(seed, true);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});
