import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '@micrort/core';
import { buildAdd, runBoth } from '../__tests__/single-op.js';

describe('MUL int8 (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random cases, same shapes and broadcasts: tails of 1-7 elements, multipliers below and above 1, extreme zero points, activations', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildAdd(seed, BuiltinOperator.MUL);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('MUL uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random cases, same shapes and broadcasts: tails of 1-7 elements, multipliers below and above 1, zero points 0-255, activations', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildAdd(seed, BuiltinOperator.MUL, true);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});
