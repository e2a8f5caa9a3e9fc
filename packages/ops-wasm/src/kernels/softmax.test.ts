import { describe, expect, it } from 'vitest';
import { buildSoftmax, runBoth } from '../__tests__/single-op.js';
import { buildSoftmaxUint8ToInt16 } from '../__tests__/single-op-resize.js';

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

describe('SOFTMAX uint8 → int16 (wasm) equals ops-reference byte for byte', () => {
  it('on 200 random rows: depths 1-40, input scales and betas, output scales 1/32768, 1/65536 and others, zero points 0, -32768 and others', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const m = buildSoftmaxUint8ToInt16(seed);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});
