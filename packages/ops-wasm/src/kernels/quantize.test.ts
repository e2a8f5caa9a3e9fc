import { BuiltinOperator, ModelBuilder, OpResolver, TensorType, checkModel, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { describe, expect, it } from 'vitest';
import { buildQuantize, int, pick, rng, runBoth, wasm } from '../__tests__/single-op.js';

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

/** Integer types of a requantization and their value ranges. */
const INTS = {
  int8: { type: TensorType.INT8, lo: -128, hi: 127, bytes: 1 },
  int16: { type: TensorType.INT16, lo: -32768, hi: 32767, bytes: 2 },
  int32: { type: TensorType.INT32, lo: -2147483648, hi: 2147483647, bytes: 4 },
} as const;
type IntName = keyof typeof INTS;

/** Values of `t`'s type: a tenth at the range ends, a third near `zp`, the rest anywhere; as bytes. */
function values(r: () => number, t: (typeof INTS)[IntName], n: number, zp: number): Int8Array {
  const out = t.bytes === 1 ? new Int8Array(n) : t.bytes === 2 ? new Int16Array(n) : new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const u = r();
    out[i] = u < 0.1 ? pick(r, [t.lo, t.hi]) : u < 0.4 ? Math.max(t.lo, Math.min(t.hi, zp + int(r, -300, 300))) : int(r, t.lo, t.hi);
  }
  return new Int8Array(out.buffer);
}

/** A random QUANTIZE from `from` to `to`: scale ratios from 1e-6 to 7e4 (right and left shifts), extreme zero points. */
function buildRequantize(seed: number, from: IntName, to: IntName): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const n = pick(r, [int(r, 1, 40), int(r, 1, 40), int(r, 100, 700)]);
  const [a, b] = [INTS[from], INTS[to]];
  // int16 zero points are usually 0 (TFLM's symmetric int16), sometimes not; int32 any
  const zpOf = (t: (typeof INTS)[IntName]) =>
    t.bytes === 1
      ? pick(r, [-128, 127, 0, int(r, -128, 127)])
      : t.bytes === 2
        ? pick(r, [0, 0, int(r, -300, 300)])
        : pick(r, [0, int(r, -1e6, 1e6)]);
  const inQ = { scale: pick(r, [0.1, 0.0625, 0.3, 1 / 3, 0.007, 2.5]), zeroPoint: zpOf(a) };
  const outQ = { scale: inQ.scale * pick(r, [1, 0.5, 3.7, 0.013, 1e-3, 1e-6, 300, 7e4, 1 / 256, 256]), zeroPoint: zpOf(b) };
  const bld = new ModelBuilder();
  const x = bld.addTensor({ name: 'x', type: a.type, shape: [n], quantization: inQ });
  const y = bld.addTensor({ name: 'y', type: b.type, shape: [n], quantization: outQ });
  bld.addOperator({ op: BuiltinOperator.QUANTIZE, version: 2, inputs: [x], outputs: [y] });
  bld.setInputs([x]).setOutputs([y]);
  return { def: bld.buildDef(), inputs: [values(r, a, n, inQ.zeroPoint)], desc: JSON.stringify({ seed, from, to, n, inQ, outQ }) };
}

describe('QUANTIZE between int8, int16 and int32 (wasm requantize_int) equals ops-reference byte for byte', () => {
  const pairs: [IntName, IntName][] = [
    ['int16', 'int8'],
    ['int16', 'int16'],
    ['int16', 'int32'],
    ['int8', 'int16'],
    ['int8', 'int32'],
    ['int32', 'int8'],
    ['int32', 'int16'],
  ];
  for (const [from, to] of pairs)
    it(`${from} -> ${to}: 100 random tensors (range ends, left and right shifts, extreme zero points)`, () => {
      for (let seed = 1; seed <= 100; seed++) {
        const m = buildRequantize(seed * 7 + from.length, from, to);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });

  it('declines the pairs ops-reference does not requantize (uint8 to int16) with the reason', () => {
    const bld = new ModelBuilder();
    const x = bld.addTensor({ name: 'x', type: TensorType.UINT8, shape: [4], quantization: { scale: 0.1, zeroPoint: 128 } });
    const y = bld.addTensor({ name: 'y', type: TensorType.INT16, shape: [4], quantization: { scale: 0.1, zeroPoint: 0 } });
    bld.addOperator({ op: BuiltinOperator.QUANTIZE, version: 2, inputs: [x], outputs: [y] });
    bld.setInputs([x]).setOutputs([y]);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const declined = checkModel(bld.buildDef(), resolver).nodes[0]!.declined ?? [];
    expect(declined.map((d) => d.reason).join()).toContain(
      'uint8 to int16 (handles float32 to int8 or uint8; int8 to int8, uint8, int16 or int32;',
    );
  });
});
