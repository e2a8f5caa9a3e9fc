import { describe, expect, it } from 'vitest';
import { buildFullyConnected, runBoth } from '../__tests__/single-op.js';

describe('FULLY_CONNECTED int8 (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random shapes: depths not multiples of 8, per-tensor and per-channel, extreme zero points, left shifts', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildFullyConnected(seed);
      const r = runBoth(m.def, [m.input]);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('FULLY_CONNECTED uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random shapes: filter zero points 0-255, extreme input and output zero points, left shifts', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildFullyConnected(seed, true);
      const r = runBoth(m.def, [m.input]);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});
