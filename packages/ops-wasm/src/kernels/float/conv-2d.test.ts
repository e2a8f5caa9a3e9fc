import { describe, expect, it } from 'vitest';
import { Padding } from '@micrort/core';
import { buildConvF32, compareWithReference, randomConvCaseF32 } from '../../__tests__/single-op-float.js';

describe('CONV_2D float32 (wasm) agrees with ops-reference within 1e-5 + 1e-4·|b|', () => {
  it('on 150 random odd shapes: depths and channel counts not multiples of 4/8, strides, dilation, SAME/VALID, every fused activation, constant and dynamic filters', () => {
    let ran = 0;
    let dynamic = 0;
    for (let seed = 1; ran < 150; seed++) {
      const c = randomConvCaseF32(seed, false);
      const m = buildConvF32(c);
      if (!m) continue;
      expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
      if (c.dynamicFilter) dynamic++;
      ran++;
    }
    expect(dynamic).toBeGreaterThan(5);
  });

  it('on 3-channel stems and other windows read from the input itself (blocks of four pixels inside the input): strides 1-2, dilated rows, absorbed PADs, two images, widths not multiples of 4', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const base = randomConvCaseF32(seed, false);
      const stem = seed % 3 !== 0;
      const k = stem ? 3 + 2 * (seed % 2) : 1 + (seed % 3);
      const c = {
        ...base,
        batches: 1 + (seed % 2),
        inH: 13 + (seed % 5),
        inW: 14 + (seed % 7),
        inC: stem ? 3 : 1 + (seed % 11),
        outC: stem ? 24 : 5 + seed,
        kH: k,
        kW: k,
        strideH: 1 + (seed % 2),
        strideW: 1 + ((seed >> 1) % 2),
        dilH: seed % 4 === 0 ? 2 : 1,
        dilW: seed % 8 === 0 ? 2 : 1,
        dynamicFilter: seed % 5 === 0,
        // a PAD before a VALID convolution is absorbed into it (the windows then reach into the padding)
        ...(seed % 4 === 1 ? { pre: { top: 1, bottom: 2, left: 1, right: 0 }, padding: Padding.VALID } : {}),
      };
      const m = buildConvF32(c)!;
      // an absorbed PAD is still a node of ops-wasm's
      expect(compareWithReference(m.def, m.inputs, c.pre ? 2 : 1), JSON.stringify(c)).toBeNull();
    }
  });

  it('on 1x1 stride-1 convolutions (rows read in place) over many pixels and wide reductions', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const c = {
        ...randomConvCaseF32(seed, false),
        kH: 1,
        kW: 1,
        strideH: 1,
        strideW: 1,
        inH: 7,
        inW: 9,
        inC: 20 + seed * 7,
        outC: 1 + seed * 3,
        dynamicFilter: false,
      };
      const m = buildConvF32(c)!;
      expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
    }
  });
});
