import { describe, expect, it } from 'vitest';
import { Padding } from '@micrort/core';
import { compareWithReference } from '../../__tests__/single-op-float.js';
import { buildTransposeConvF32, randomTransposeConvCase, referenceWithMediapipe } from '../../__tests__/single-op-tconv.js';

describe('TRANSPOSE_CONV float32 (wasm) agrees with ops-reference within 1e-5 + 1e-4·|b|', () => {
  it('on 150 random odd shapes: kernels 2-5, strides 1-3, SAME/VALID with every output size they allow, bias or none, every fused activation, constant and dynamic filters', () => {
    let dynamic = 0;
    const seen = new Set<string>();
    for (let seed = 1; seed <= 150; seed++) {
      const c = randomTransposeConvCase(seed, false);
      const m = buildTransposeConvF32(c);
      expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
      if (c.dynamicFilter) dynamic++;
      seen.add(`s${c.strideH}k${c.kH}p${c.padding}b${c.bias}a${c.activation}`);
    }
    expect(dynamic).toBeGreaterThan(5);
    expect(seen.size).toBeGreaterThan(60);
  });

  it('on wide layers: many channels and pixels (several GEMM chunks of input rows)', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const base = randomTransposeConvCase(seed, false);
      const c = { ...base, inH: 40 + seed, inW: 33, inC: 24 + seed, outC: 9 * seed, outH: 0, outW: 0 };
      c.outH = c.padding === Padding.SAME ? c.inH * c.strideH : (c.inH - 1) * c.strideH + c.kH;
      c.outW = c.padding === Padding.SAME ? c.inW * c.strideW : (c.inW - 1) * c.strideW + c.kW;
      const m = buildTransposeConvF32(c);
      expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
    }
  });
});

describe('Convolution2DTransposeBias float32 (wasm) agrees with ops-mediapipe within 1e-5 + 1e-4·|b|', () => {
  it('on 100 random odd shapes: kernels 2-5, strides 1-3, SAME/VALID, constant and dynamic weights', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const c = randomTransposeConvCase(1000 + seed, true);
      const m = buildTransposeConvF32(c);
      expect(compareWithReference(m.def, m.inputs, 1, referenceWithMediapipe), JSON.stringify(c)).toBeNull();
    }
  });
});
