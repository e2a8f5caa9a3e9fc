import { BuiltinOperator } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { buildQuantizedBinary } from '../__tests__/single-op-elementwise.js';
import { runBoth } from '../__tests__/single-op.js';

describe('SQUARED_DIFFERENCE int8 and int16 (wasm qs_squared_difference) equals ops-reference byte for byte', () => {
  for (const type of ['int8', 'int16'] as const)
    it(`${type}: 150 random shapes, broadcasts (either side) and quantizations`, () => {
      for (let seed = 1; seed <= 150; seed++) {
        const m = buildQuantizedBinary(seed, BuiltinOperator.SQUARED_DIFFERENCE, type);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });
});
