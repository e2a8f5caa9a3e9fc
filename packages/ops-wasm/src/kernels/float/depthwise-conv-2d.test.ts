import { describe, expect, it } from 'vitest';
import { Padding } from '@micrort/core';
import { buildConvF32, compareWithReference, randomConvCaseF32 } from '../../__tests__/single-op-float.js';

describe('DEPTHWISE_CONV_2D float32 (wasm) agrees with ops-reference within 1e-5 + 1e-4·|b|', () => {
  it('on 150 random odd shapes: channel counts not multiples of 4/8, strides, dilation, SAME/VALID, every fused activation, constant and dynamic filters', () => {
    let ran = 0;
    for (let seed = 1; ran < 150; seed++) {
      const c = randomConvCaseF32(seed, true);
      const m = buildConvF32(c);
      if (!m) continue;
      expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
      ran++;
    }
  });

  it('on 60 random 3x3 windows (the row kernel with weights in registers): wide rows in chunks, edges, strides, dilation, padding', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const c = { ...randomConvCaseF32(seed, true), kH: 3, kW: 3, inH: 3 + (seed % 9), inW: 3 + ((seed * 7) % 38), dynamicFilter: false };
      const m = buildConvF32(c);
      if (m) expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
    }
  });

  it('on 5x5 windows over wide depths', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const c = { ...randomConvCaseF32(seed, true), kH: 5, kW: 5, inH: 9, inW: 8, inC: 30 + seed * 11, dynamicFilter: false };
      c.outC = c.inC;
      const m = buildConvF32(c);
      if (m) expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
    }
  });
});

describe('DEPTHWISE_CONV_2D float32 (wasm) sliding rows (3x3 strides 1 and 2 across, 5x5 stride 1) and the paths beside them', () => {
  // the row kernels stream input columns through registers, chunk the row by a size that depends on the
  // depth (pixel strides that are multiples of 64 bytes give smaller chunks), read the zero row for kernel
  // rows and columns outside the input, and skip kernel rows outside it (5x5)
  const depths = [1, 3, 4, 7, 16, 20, 24, 37, 64, 144, 1152];
  it('on 48 random cases: wide rows over several chunks, channel tails, every stride down, dilation down, SAME/VALID', () => {
    for (let seed = 1; seed <= 48; seed++) {
      const base = randomConvCaseF32(seed + 500, true);
      const k = seed % 2 === 0 ? 5 : 3;
      const inC = depths[seed % depths.length]!;
      const inW = inC >= 144 ? 5 + (seed % 30) : 10 + ((seed * 37) % 140);
      const c = {
        ...base,
        kH: k,
        kW: k,
        inC,
        outC: inC,
        inH: 1 + (seed % 7),
        inW,
        strideW: 1 + ((seed >> 1) % 2),
        dilW: 1,
        dynamicFilter: false,
      };
      const m = buildConvF32(c);
      if (m) expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
    }
  });

  it('on 24 cases behind an absorbed PAD wider than the window (outputs whose taps all lie in the padding)', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const base = randomConvCaseF32(seed + 900, true);
      const k = seed % 2 === 0 ? 5 : 3;
      const pre = { top: (seed * 5) % 8, bottom: (seed * 3) % 8, left: (seed * 3) % 8, right: (seed * 7) % 9 };
      const c = {
        ...base,
        kH: k,
        kW: k,
        inC: 5 + (seed % 6),
        inH: 2 + (seed % 4),
        inW: 1 + (seed % 19),
        strideW: 1 + ((seed >> 1) % 2),
        dilW: 1,
        padding: Padding.VALID,
        pre,
        dynamicFilter: false,
      };
      c.outC = c.inC;
      const m = buildConvF32(c);
      // (the absorbed PAD's node stays listed: two nodes served)
      if (m) expect(compareWithReference(m.def, m.inputs, 2), JSON.stringify(c)).toBeNull();
    }
  });
});

describe('DEPTHWISE_CONV_2D float32 (wasm) with a depth multiplier > 1 (the input expanded to C·m channels first)', () => {
  it('on 80 random cases: multipliers 2-8, 1-9 input channels, every window path (3x3 / 5x5 rows, tap pointers), strides, dilation, SAME/VALID, two batches, dynamic filters', () => {
    let ran = 0;
    for (let seed = 1; ran < 80; seed++) {
      const base = randomConvCaseF32(seed + 3000, true);
      const m = [2, 2, 3, 4, 8][seed % 5]!;
      const inC = 1 + (seed % 9);
      const k = [1, 3, 3, 5, 2][seed % 5]!;
      const c = { ...base, inC, outC: inC * m, kH: k, kW: k === 2 ? 4 : k, inW: base.inW + (seed % 3) * 9 };
      const built = buildConvF32(c);
      if (!built) continue;
      expect(compareWithReference(built.def, built.inputs, 1), JSON.stringify(c)).toBeNull();
      ran++;
    }
  });

  it('behind an absorbed PAD (the expansion reads the PAD source)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const base = randomConvCaseF32(seed + 4000, true);
      const inC = 1 + (seed % 4);
      const c = {
        ...base,
        inC,
        outC: inC * (2 + (seed % 3)),
        kH: 3,
        kW: 3,
        padding: Padding.VALID,
        pre: { top: seed % 3, bottom: 1, left: (seed * 2) % 3, right: 2 },
        dynamicFilter: false,
      };
      const built = buildConvF32(c);
      if (built) expect(compareWithReference(built.def, built.inputs, 2), JSON.stringify(c)).toBeNull();
    }
  });
});
