import { describe, expect, it } from 'vitest';
import { buildQuantize, runBoth } from '../__tests__/single-op.js';

describe('QUANTIZE / DEQUANTIZE int8 (wasm) equal ops-reference byte for byte', () => {
  for (const kind of ['from-float', 'requantize', 'dequantize'] as const) {
    it(`${kind}: 100 random tensors (ties, near-ties, huge values, infinities, NaN; extreme zero points)`, () => {
      for (let seed = 1; seed <= 100; seed++) {
        const m = buildQuantize(seed, kind);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });
  }
});

describe("QUANTIZE / DEQUANTIZE with TFLite's uint8 (wasm) equal ops-reference byte for byte", () => {
  const cases = [
    ['from-float', { output: true }, 'float32 -> uint8'],
    ['requantize', { input: true, output: false }, 'uint8 -> int8'],
    ['requantize', { input: false, output: true }, 'int8 -> uint8'],
    ['requantize', { input: true, output: true }, 'uint8 -> uint8'],
    ['dequantize', { input: true }, 'uint8 -> float32'],
  ] as const;
  for (const [kind, u8, name] of cases) {
    it(`${name}: 100 random tensors (ties, near-ties, huge values, infinities, NaN; zero points 0 and 255)`, () => {
      for (let seed = 1; seed <= 100; seed++) {
        const m = buildQuantize(seed, kind, u8);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });
  }
});
