import { BuiltinOperator } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { buildQuantizedBinary } from '../__tests__/single-op-elementwise.js';
import { runBoth } from '../__tests__/single-op.js';

describe('PRELU int8 and uint8 (wasm qs8_prelu) equals ops-reference byte for byte', () => {
  for (const type of ['int8', 'uint8'] as const)
    it(`${type}: 150 random shapes, broadcasts (per-channel alpha, scalar, either side) and quantizations`, () => {
      for (let seed = 1; seed <= 150; seed++) {
        const m = buildQuantizedBinary(seed, BuiltinOperator.PRELU, type);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });

  it('int16 (int8 alpha in TFLM) stays on ops-reference', () => {
    const m = buildQuantizedBinary(5, BuiltinOperator.PRELU, 'int16');
    // TFLite's int16 alpha: ops-reference runs it; ops-wasm declines
    const r = runBoth(m.def, m.inputs);
    expect(r.served).toBe(0);
    expect(r.got[0]).toEqual(r.ref[0]);
  });
});
