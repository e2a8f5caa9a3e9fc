import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '@micrort/core';
import { buildPool, runBoth } from '../__tests__/single-op.js';

describe('AVERAGE_POOL_2D / MAX_POOL_2D int8 (wasm) equal ops-reference byte for byte', () => {
  for (const op of [BuiltinOperator.AVERAGE_POOL_2D, BuiltinOperator.MAX_POOL_2D] as const) {
    it(`${BuiltinOperator[op]} on 120 random windows: clipped edges, strides, SAME/VALID, depths not multiples of 8/16, extreme zero points`, () => {
      for (let seed = 1; seed <= 120; seed++) {
        const m = buildPool(seed, op);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });
  }
});

describe('AVERAGE_POOL_2D / MAX_POOL_2D uint8 (wasm) equal ops-reference byte for byte', () => {
  for (const op of [BuiltinOperator.AVERAGE_POOL_2D, BuiltinOperator.MAX_POOL_2D] as const) {
    it(`${BuiltinOperator[op]} on 120 random uint8 windows: clipped edges, strides, SAME/VALID, depths not multiples of 8/16, zero points 0-255, values 0 and 255, activations`, () => {
      for (let seed = 1; seed <= 120; seed++) {
        const m = buildPool(seed, op, true);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });
  }
});
