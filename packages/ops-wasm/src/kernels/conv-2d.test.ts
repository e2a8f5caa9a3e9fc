import { describe, expect, it } from 'vitest';
import { expectConvCasesEqual, randomConvCase, randomRowsConvCase } from '../__tests__/single-op.js';
import { rowsLayout } from './weight-pack.js';

describe('CONV_2D int8 (wasm) equals ops-reference byte for byte', () => {
  it('on 150 random odd shapes: channels not multiples of 4/8, strides, dilation, padding, per-channel, -128 weights, extreme zero points, left shifts', () => {
    expectConvCasesEqual(150, (seed) => randomConvCase(seed, false));
  });

  it('at the edges of the cheaper requantization: right shifts 1-2 and 21-23, biases up to 2^30 (results far past int8), every fused activation', () => {
    // per-tensor scales, so every channel has the same shift; real multiplier = gain / (20 sqrt(K))
    expectConvCasesEqual(60, (seed) => {
      const c = { ...randomConvCase(seed, false), perChannel: false, bias: true };
      const k = Math.sqrt(c.kH * c.kW * c.inC) * 20;
      const shift = [1, 2, 21, 22, 23][seed % 5]!;
      c.gain = k * 0.75 * 2 ** -shift;
      c.biasRange = [100, 40000, 2 ** 20, 2 ** 30][(seed >> 2) % 4]!;
      return c;
    });
  });
});

describe('CONV_2D int8 (wasm) in the rows layout (window rows of 8a + 1 values read in place) equals ops-reference', () => {
  it('on 120 random cases: 3x3 over 3 channels and other rows of 9-49 values, 1-8 rows, strides, dilation_h, padding (windows in the padding gathered first), batches', () => {
    expectConvCasesEqual(120, (seed) => {
      const c = randomRowsConvCase(seed);
      expect(rowsLayout({ kH: c.kH, kW: c.kW, dilW: c.dilW }, c.kH * c.kW, c.inC), JSON.stringify(c)).toBe(true);
      return c;
    });
  });
});

describe('CONV_2D uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 150 random odd shapes: filter zero points 0-255, extreme input and output zero points, strides, dilation, padding, left shifts', () => {
    expectConvCasesEqual(150, (seed) => ({ ...randomConvCase(seed, false), perChannel: false, uint8: true }));
  });
});
