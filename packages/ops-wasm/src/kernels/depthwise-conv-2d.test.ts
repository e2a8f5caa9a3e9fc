import { describe, it } from 'vitest';
import { expectConvCasesEqual, randomConvCase, randomDw3x3Case } from '../__tests__/single-op.js';

describe('DEPTHWISE_CONV_2D int8 (wasm) equals ops-reference byte for byte', () => {
  it('on 150 random odd shapes: channels not multiples of 8, one or several input channels with depth multipliers, strides, dilation, padding, per-channel, -128 weights, extreme zero points, left shifts', () => {
    expectConvCasesEqual(150, (seed) => randomConvCase(seed, true));
  });

  it('at the edges of the cheaper requantization: right shifts 1-2 and 21-23, biases up to 2^30 (results far past int8), every fused activation', () => {
    // per-tensor scales, so every channel has the same shift; real multiplier = gain / (20 sqrt(K))
    expectConvCasesEqual(60, (seed) => {
      const c = { ...randomConvCase(seed, true), perChannel: false, bias: true };
      const k = Math.sqrt(c.kH * c.kW) * 20;
      const shift = [1, 2, 21, 22, 23][seed % 5]!;
      c.gain = k * 0.75 * 2 ** -shift;
      c.biasRange = [100, 40000, 2 ** 20, 2 ** 30][(seed >> 2) % 4]!;
      return c;
    });
  });
});

describe('DEPTHWISE_CONV_2D 3x3 (wasm, the run3x3 path for rows of pixels inside the input) equals ops-reference byte for byte', () => {
  it('on 120 random int8 cases and 60 uint8: strides 1-2, dilation, SAME / VALID, 1-40 channels, batches 1-3, multipliers 1 and 2', () => {
    for (const uint8 of [false, true]) {
      expectConvCasesEqual(uint8 ? 60 : 120, (seed) => ({
        ...randomDw3x3Case(seed),
        ...(uint8 ? { perChannel: false, uint8: true } : {}),
      }));
    }
  });
});

describe('DEPTHWISE_CONV_2D uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 150 random odd shapes: depth multipliers, filter zero points 0-255, extreme input and output zero points, strides, dilation, padding', () => {
    expectConvCasesEqual(150, (seed) => ({ ...randomConvCase(seed, true), perChannel: false, uint8: true }));
  });
});
