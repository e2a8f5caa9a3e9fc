import { describe, expect, it } from 'vitest';
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
