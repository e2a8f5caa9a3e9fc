/**
 * The blocked int8 CONV_2D loops (pixel pairs x four channels, single pixels, tap by tap) against a
 * plain transcription of reference_integer_ops::ConvPerChannel, over geometries that exercise every
 * branch: channel counts that are not multiples of four, odd widths, borders, strides, dilations,
 * groups, batches, and accumulators large enough for the split requantization path.
 */
import { describe, expect, it } from 'vitest';
import { multiplyByQuantizedMultiplier, quantizeMultiplier } from '@micrort/core';
import { convInt8 } from './conv-2d-eval.js';
import { emptyGeometry, type ConvGeometry } from './conv-common.js';
import { Padding } from '@micrort/core';
import { lcg } from './__fixtures__/conv-testing.js';
import { computePaddingHeightWidth, type ConvOutputParams } from '@micrort/kernel-support';

interface Shape {
  n: number;
  h: number;
  w: number;
  cin: number;
  cout: number;
  kh: number;
  kw: number;
  groups: number;
  sh: number;
  sw: number;
  dh: number;
  dw: number;
  same: boolean;
}

function geometry(c: Shape): ConvGeometry {
  const pad = computePaddingHeightWidth(c.sh, c.sw, c.dh, c.dw, c.h, c.w, c.kh, c.kw, c.same ? Padding.SAME : Padding.VALID);
  return {
    ...emptyGeometry(),
    batches: c.n,
    inHeight: c.h,
    inWidth: c.w,
    inDepth: c.cin,
    filterHeight: c.kh,
    filterWidth: c.kw,
    filterDepth: c.cin / c.groups,
    outHeight: pad.outHeight,
    outWidth: pad.outWidth,
    outDepth: c.cout,
    strideHeight: c.sh,
    strideWidth: c.sw,
    dilationHeight: c.dh,
    dilationWidth: c.dw,
    padHeight: pad.height,
    padWidth: pad.width,
  };
}

/** reference_integer_ops::ConvPerChannel, transcribed loop for loop. */
function oracle(g: ConvGeometry, p: ConvOutputParams, input: Int8Array, filter: Int8Array, bias: Int32Array | null): Int8Array {
  const out = new Int8Array(g.batches * g.outHeight * g.outWidth * g.outDepth);
  const groups = g.inDepth / g.filterDepth;
  const perGroup = g.outDepth / groups;
  let o = 0;
  for (let b = 0; b < g.batches; b++)
    for (let oy = 0; oy < g.outHeight; oy++)
      for (let ox = 0; ox < g.outWidth; ox++)
        for (let oc = 0; oc < g.outDepth; oc++) {
          const group = Math.floor(oc / perGroup);
          let acc = 0;
          for (let fy = 0; fy < g.filterHeight; fy++)
            for (let fx = 0; fx < g.filterWidth; fx++) {
              const iy = oy * g.strideHeight - g.padHeight + g.dilationHeight * fy;
              const ix = ox * g.strideWidth - g.padWidth + g.dilationWidth * fx;
              if (iy < 0 || iy >= g.inHeight || ix < 0 || ix >= g.inWidth) continue;
              for (let ic = 0; ic < g.filterDepth; ic++) {
                const xv = input[((b * g.inHeight + iy) * g.inWidth + ix) * g.inDepth + group * g.filterDepth + ic]!;
                const fv = filter[((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.filterDepth + ic]!;
                acc = (acc + fv * (xv + p.inputOffset)) | 0;
              }
            }
          if (bias) acc = (acc + bias[oc]!) | 0;
          const v = multiplyByQuantizedMultiplier(acc, p.multiplier[oc]!, p.shift[oc]!) + p.outputOffset;
          out[o++] = Math.min(Math.max(v, p.actMin), p.actMax);
        }
  return out;
}

function run(c: Shape, seed: number, opts: { extreme?: boolean; bias?: boolean } = {}) {
  const rnd = lcg(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const g = geometry(c);
  const input = Int8Array.from({ length: c.n * c.h * c.w * c.cin }, () => (opts.extreme ? 127 : int(-128, 127)));
  const filter = Int8Array.from({ length: c.cout * c.kh * c.kw * g.filterDepth }, () => (opts.extreme ? 127 : int(-127, 127)));
  const bias = opts.bias === false ? null : Int32Array.from({ length: c.cout }, () => int(-5000, 5000));
  const multiplier = new Int32Array(c.cout);
  const shift = new Int32Array(c.cout);
  for (let oc = 0; oc < c.cout; oc++) {
    const q = quantizeMultiplier(opts.extreme ? 1e-6 * (1 + 3 * rnd()) : 0.0005 + rnd() * 0.01);
    multiplier[oc] = q.multiplier;
    shift[oc] = q.shift;
  }
  const p: ConvOutputParams = {
    multiplier,
    shift,
    filterOffset: 0,
    inputOffset: opts.extreme ? 128 : int(-20, 20),
    outputOffset: int(-10, 10),
    actMin: int(-128, -100),
    actMax: int(100, 127),
  };
  const got = new Int8Array(g.batches * g.outHeight * g.outWidth * g.outDepth);
  convInt8(g, p, input, filter, bias, got);
  return { got: Array.from(got), want: Array.from(oracle(g, p, input, filter, bias)) };
}

const base: Shape = { n: 1, h: 5, w: 5, cin: 4, cout: 4, kh: 3, kw: 3, groups: 1, sh: 1, sw: 1, dh: 1, dw: 1, same: true };

describe('convInt8 (blocked loops) equals reference_integer_ops::ConvPerChannel', () => {
  const cases: [string, Partial<Shape>][] = [
    ['3x3 SAME, channels a multiple of 4', {}],
    ['3x3 SAME, 7 output channels (block + remainder), odd width', { cout: 7, w: 7 }],
    ['3x3 SAME stride 2, even width (pairs cross the border)', { sh: 2, sw: 2, w: 8, h: 6, cout: 5 }],
    ['3x3 VALID stride 2x1, 3 input channels', { same: false, sh: 2, cin: 3, cout: 6 }],
    ['1x1 stride 1 (pointwise), 2 batches', { kh: 1, kw: 1, n: 2, cin: 8, cout: 9, h: 3, w: 5 }],
    ['1x1 stride 2', { kh: 1, kw: 1, sh: 2, sw: 2, cin: 6, cout: 3, h: 7, w: 7 }],
    ['5x3 SAME on a 2-wide image (no interior pixel)', { kh: 5, kw: 3, w: 2, h: 4, cout: 4 }],
    ['width 1 (a single pixel per row)', { w: 1, h: 6, kw: 1, cout: 2 }],
    ['filter wider than the image (SAME)', { kw: 7, kh: 1, w: 4, h: 2 }],
    ['dilation 2 (tap-by-tap path)', { dh: 2, dw: 2, h: 9, w: 9, cout: 5 }],
    ['dilation 2 in height only (row path)', { dh: 2, h: 9, w: 6, cout: 6 }],
    ['2 groups (tap-by-tap path)', { groups: 2, cin: 4, cout: 6 }],
    ['one output channel', { cout: 1, w: 6 }],
  ];
  it.each(cases)('%s', (_name, shape) => {
    const { got, want } = run({ ...base, ...shape }, 7, {});
    expect(got).toEqual(want);
  });

  it('without bias', () => {
    const { got, want } = run({ ...base, cout: 6, w: 6 }, 11, { bias: false });
    expect(got).toEqual(want);
  });

  it('with accumulators beyond 2^22 (the split requantization path) and tiny multipliers', () => {
    // 3x3x96 taps of 127 * (127 + 128): |acc| up to 864 * 127 * 255 > 2^24.
    const { got, want } = run({ ...base, cin: 96, cout: 5, w: 4, h: 4 }, 3, { extreme: true });
    expect(got).toEqual(want);
    expect(new Set(got).size).toBeGreaterThan(1);
  });
});
