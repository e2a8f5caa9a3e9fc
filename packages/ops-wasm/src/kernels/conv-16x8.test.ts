import { describe, expect, it } from 'vitest';
import { buildConv16, buildFullyConnected16, randomQuant16, type Quant16 } from '../__tests__/single-op-16x8.js';
import { checkModel, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { int, randomConvCase, rng, runBoth, wasm } from '../__tests__/single-op.js';

function expectSame(m: { def: Parameters<typeof runBoth>[0]; input: Int8Array }, what: string): void {
  const r = runBoth(m.def, [m.input]);
  expect(r.served, what).toBe(1);
  expect(r.got[0], what).toEqual(r.ref[0]);
}

describe('16x8 FULLY_CONNECTED (wasm) is bit-exact with ops-reference', () => {
  it('on 200 random layers: depths 1-300, per-tensor and per-channel, int64 / int32 / no bias (either accumulator), activations, left shifts, extremes', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const m = buildFullyConnected16(seed, randomQuant16(seed, ['int64', 'int32', 'none']));
      expectSame(m, m.desc);
    }
  });

  it.each([
    ['int64', false],
    ['int32', false],
    ['none', true],
    ['none', false],
  ] as const)(
    'on deep layers at the extremes (sums past 2^31: several int32 chunks; the int32 accumulator wraps), %s bias, quantized_bias_type INT64 %s',
    (bias, biasType64) => {
      for (const depth of [256, 257, 1024, 3000])
        for (const extreme of [true, 'max'] as const) {
          const q: Quant16 = { perChannel: true, bias, gain: 1e-3, extreme, biasType64 };
          const m = buildFullyConnected16(depth, q, { batches: 3, depth, units: 9 });
          expectSame(m, m.desc);
        }
    },
  );
});

describe('16x8 CONV_2D (wasm) is bit-exact with ops-reference', () => {
  it('on 150 random odd shapes: kernels 1-3 x 1-4, strides, dilation, SAME/VALID, int64 / int32 / no bias, activations', () => {
    let ran = 0;
    for (let seed = 1; ran < 150; seed++) {
      const c = randomConvCase(seed, false);
      const q = randomQuant16(seed, ['int64', 'int32', 'none']);
      const m = buildConv16(c, q);
      if (!m) continue;
      expectSame(m, JSON.stringify({ ...c, ...q }));
      ran++;
    }
  });

  it('on 1x1 layers read in place (depth a multiple of 8) or copied (other depths) and deep windows (several int32 chunks)', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = rng(seed * 3 + 1);
      const deep = seed % 2 === 0;
      const base = randomConvCase(seed, false);
      const c = deep
        ? { ...base, kH: 3, kW: 3, inC: int(r, 30, 70), dilH: 1, dilW: 1 }
        : { ...base, kH: 1, kW: 1, strideH: 1, strideW: 1, dilH: 1, dilW: 1, inC: 8 * int(r, 1, 6) + (seed % 4 === 1 ? int(r, 1, 7) : 0) };
      const q = {
        ...randomQuant16(seed, ['int64', 'int32', 'none']),
        extreme: seed % 3 === 0 ? (seed % 2 === 0 ? ('max' as const) : true) : false,
      };
      const m = buildConv16(c, q);
      if (!m) continue;
      expectSame(m, JSON.stringify({ ...c, ...q }));
    }
  });
});

describe('16x8 DEPTHWISE_CONV_2D (wasm) is bit-exact with ops-reference', () => {
  it('on 150 random odd shapes: depth multipliers 1-13, kernels, strides, dilation, SAME/VALID, int64 or no bias', () => {
    let ran = 0;
    for (let seed = 1; ran < 150; seed++) {
      const c = randomConvCase(seed, true);
      const q = randomQuant16(seed, ['int64', 'none']);
      const m = buildConv16(c, q);
      if (!m) continue;
      expectSame(m, JSON.stringify({ ...c, ...q }));
      ran++;
    }
  });

  it('on wider layers (8-channel vectors and a tail) at the extremes', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = rng(seed * 11 + 2);
      const inC = int(r, 8, 40);
      const c = { ...randomConvCase(seed, true), inC, outC: inC, kH: 3, kW: 3, inH: int(r, 3, 12), inW: int(r, 3, 12) };
      const q = { ...randomQuant16(seed, ['int64', 'none']), extreme: seed % 2 === 0 };
      const m = buildConv16(c, q);
      if (!m) continue;
      expectSame(m, JSON.stringify({ ...c, ...q }));
    }
  });
});

describe('16x8 declines', () => {
  it('a DEPTHWISE_CONV_2D window of more than 256 taps goes to ops-reference, each ops-wasm kernel giving its reason', () => {
    const c = { ...randomConvCase(4, true), inC: 3, outC: 3, kH: 17, kW: 17, inH: 18, inW: 18, batches: 1 };
    const m = buildConv16(c, { perChannel: true, bias: 'int64', gain: 1, extreme: false, biasType64: false })!;
    const r = runBoth(m.def, [m.input]);
    expect(r.served).toBe(0);
    expect(r.got).toEqual(r.ref);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const declined = checkModel(m.def, resolver).nodes[0]!.declined!;
    const reason = (kernel: string) => declined.find((d) => d.kernel === kernel)?.reason;
    expect(reason('DEPTHWISE_CONV_2D/wasm-16x8')).toBe('289 taps (handles at most 256: int32 sums)');
    expect(reason('DEPTHWISE_CONV_2D/wasm-qs8-dw8')).toMatch(/int16 input/);
  });
});
