import { describe, expect, it } from 'vitest';
import { buildSoftmax, runBoth } from '../__tests__/single-op.js';

describe('SOFTMAX int8 (wasm) equals ops-reference byte for byte', () => {
  it('on 150 random rows: depths 1-40, int8 and int16 outputs, input scales and betas that put differences below diff_min', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const m = buildSoftmax(seed);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('SOFTMAX uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 150 random rows: depths 1-40 (tails of the 16-wide maximum), input scales and betas, output scales 1/256 and others', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const m = buildSoftmax(seed, true);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});
