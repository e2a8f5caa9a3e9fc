/**
 * The channel-blocked int8 DEPTHWISE_CONV_2D loop against a plain transcription of
 * reference_integer_ops::DepthwiseConvPerChannel: depth multipliers 1, 2, 3 and 8, channel counts that
 * are not multiples of four, borders, strides, dilations and batches.
 */
import { describe, expect, it } from 'vitest';
import { Padding, multiplyByQuantizedMultiplier, quantizeMultiplier } from '@micrort/core';
import { depthwiseConvInt8 } from './depthwise-conv-2d-eval.js';
import { emptyGeometry, type ConvGeometry } from './conv-common.js';
import { lcg } from './__fixtures__/conv-testing.js';
import { computePaddingHeightWidth, type ConvOutputParams } from '@micrort/kernel-support';

interface Shape {
  n: number;
  h: number;
  w: number;
  cin: number;
  dm: number;
  kh: number;
  kw: number;
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
    filterDepth: c.cin * c.dm,
    outHeight: pad.outHeight,
    outWidth: pad.outWidth,
    outDepth: c.cin * c.dm,
    strideHeight: c.sh,
    strideWidth: c.sw,
    dilationHeight: c.dh,
    dilationWidth: c.dw,
    padHeight: pad.height,
    padWidth: pad.width,
    depthMultiplier: c.dm,
  };
}

/** reference_integer_ops::DepthwiseConvPerChannel, transcribed loop for loop. */
function oracle(g: ConvGeometry, p: ConvOutputParams, input: Int8Array, filter: Int8Array, bias: Int32Array | null): Int8Array {
  const out = new Int8Array(g.batches * g.outHeight * g.outWidth * g.outDepth);
  for (let b = 0; b < g.batches; b++)
    for (let oy = 0; oy < g.outHeight; oy++)
      for (let ox = 0; ox < g.outWidth; ox++)
        for (let ic = 0; ic < g.inDepth; ic++)
          for (let m = 0; m < g.depthMultiplier; m++) {
            const oc = m + ic * g.depthMultiplier;
            let acc = 0;
            for (let fy = 0; fy < g.filterHeight; fy++)
              for (let fx = 0; fx < g.filterWidth; fx++) {
                const iy = oy * g.strideHeight - g.padHeight + g.dilationHeight * fy;
                const ix = ox * g.strideWidth - g.padWidth + g.dilationWidth * fx;
                if (iy < 0 || iy >= g.inHeight || ix < 0 || ix >= g.inWidth) continue;
                const xv = input[((b * g.inHeight + iy) * g.inWidth + ix) * g.inDepth + ic]!;
                const fv = filter[(fy * g.filterWidth + fx) * g.outDepth + oc]!;
                acc = (acc + fv * (xv + p.inputOffset)) | 0;
              }
            if (bias) acc = (acc + bias[oc]!) | 0;
            const v = multiplyByQuantizedMultiplier(acc, p.multiplier[oc]!, p.shift[oc]!) + p.outputOffset;
            out[((b * g.outHeight + oy) * g.outWidth + ox) * g.outDepth + oc] = Math.min(Math.max(v, p.actMin), p.actMax);
          }
  return out;
}

function run(c: Shape, seed: number, withBias = true) {
  const rnd = lcg(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const g = geometry(c);
  const input = Int8Array.from({ length: c.n * c.h * c.w * c.cin }, () => int(-128, 127));
  const filter = Int8Array.from({ length: c.kh * c.kw * g.outDepth }, () => int(-127, 127));
  const bias = withBias ? Int32Array.from({ length: g.outDepth }, () => int(-3000, 3000)) : null;
  const multiplier = new Int32Array(g.outDepth);
  const shift = new Int32Array(g.outDepth);
  for (let oc = 0; oc < g.outDepth; oc++) {
    const q = quantizeMultiplier(0.002 + rnd() * 0.02);
    multiplier[oc] = q.multiplier;
    shift[oc] = q.shift;
  }
  const p: ConvOutputParams = {
    multiplier,
    shift,
    filterOffset: 0,
    inputOffset: int(-20, 20),
    outputOffset: int(-10, 10),
    actMin: int(-128, -100),
    actMax: int(100, 127),
  };
  const got = new Int8Array(g.batches * g.outHeight * g.outWidth * g.outDepth);
  depthwiseConvInt8(g, p, input, filter, bias, got);
  return { got: Array.from(got), want: Array.from(oracle(g, p, input, filter, bias)) };
}

const base: Shape = { n: 1, h: 6, w: 5, cin: 8, dm: 1, kh: 3, kw: 3, sh: 1, sw: 1, dh: 1, dw: 1, same: true };

describe('depthwiseConvInt8 (four channels at a time) equals reference_integer_ops::DepthwiseConvPerChannel', () => {
  const cases: [string, Partial<Shape>][] = [
    ['3x3 SAME, multiplier 1', {}],
    ['3x3 SAME stride 2, 7 channels (block + remainder)', { cin: 7, sh: 2, sw: 2, w: 8 }],
    ['multiplier 2 on 3 channels', { cin: 3, dm: 2 }],
    ['multiplier 3 on 2 channels (blocks straddle input channels)', { cin: 2, dm: 3, same: false }],
    ['multiplier 8 on 1 channel (person_detect first layer)', { cin: 1, dm: 8, sh: 2, sw: 2, h: 8, w: 8 }],
    ['dilation 2x3', { dh: 2, dw: 3, h: 9, w: 9, cin: 5 }],
    ['5x5 on a 3x3 image, 2 batches', { kh: 5, kw: 5, h: 3, w: 3, n: 2, cin: 6 }],
    ['1x1 filter', { kh: 1, kw: 1, cin: 9 }],
  ];
  it.each(cases)('%s', (_name, shape) => {
    const { got, want } = run({ ...base, ...shape }, 5);
    expect(got).toEqual(want);
  });

  it('without bias', () => {
    const { got, want } = run({ ...base, cin: 6 }, 9, false);
    expect(got).toEqual(want);
  });
});
