import { describe, expect, it } from 'vitest';
import { buildHybridConv, buildHybridFullyConnected, compareBitExact, randomHybridConvCase } from '../../__tests__/single-op-hybrid.js';

// ops-reference's hybrid kernels are TFLite's arithmetic (checked against TFLite 2.9 in ops-reference's
// test/hybrid-vs-tflite.test.ts); the int32 accumulations are exact and ops-wasm applies the float32
// steps in the same order, so the outputs must be equal to the bit, not within a tolerance.
describe('hybrid CONV_2D (wasm) equals ops-reference bit for bit', () => {
  it('on 150 random odd shapes: strides, dilation, SAME/VALID, batches 1-3, per-tensor / per-channel / equal per-channel / uint8 weights, every clamp activation, zero and one-signed rows', () => {
    let ran = 0;
    const scales = new Set<string>();
    const activations = new Set<number>();
    for (let seed = 1; ran < 150; seed++) {
      const c = randomHybridConvCase(seed, false);
      const m = buildHybridConv(c);
      if (!m) continue;
      expect(compareBitExact(m.def, [m.input], 1), JSON.stringify(c)).toBeNull();
      scales.add(c.scales);
      activations.add(c.activation);
      ran++;
    }
    expect([scales.size, activations.size]).toEqual([4, 4]); // tensor, channel, channel-equal, uint8; NONE, RELU, RELU6, RELU_N1_TO_1
  });
});

describe('hybrid DEPTHWISE_CONV_2D (wasm) equals ops-reference bit for bit', () => {
  it('on 150 random odd shapes: depth multipliers 1-3, one input channel, strides, dilation, SAME/VALID, per-tensor / per-channel weights, every clamp activation', () => {
    let ran = 0;
    let oneChannel = 0;
    let multiplied = 0;
    for (let seed = 1; ran < 150; seed++) {
      const c = randomHybridConvCase(seed, true);
      const m = buildHybridConv(c);
      if (!m) continue;
      expect(compareBitExact(m.def, [m.input], 1), JSON.stringify(c)).toBeNull();
      if (c.inC === 1 && c.outC > 1) oneChannel++;
      if (c.multiplier > 1 && c.inC > 1) multiplied++;
      ran++;
    }
    expect(oneChannel).toBeGreaterThan(5);
    expect(multiplied).toBeGreaterThan(20);
  });

  it('on 60 random 3x3 cases with rows of pixels inside the input (the run3x3 path, raw accumulators): depth multiplier 1, strides 1-2, dilation, SAME / VALID', () => {
    let ran = 0;
    for (let seed = 1; ran < 60; seed++) {
      const c = { ...randomHybridConvCase(seed, true), multiplier: 1, kH: 3, kW: 3, inH: 4 + (seed % 9), inW: 3 + ((seed * 5) % 11) };
      c.outC = c.inC;
      const m = buildHybridConv(c);
      if (!m) continue;
      expect(compareBitExact(m.def, [m.input], 1), JSON.stringify(c)).toBeNull();
      ran++;
    }
  });
});

describe('hybrid FULLY_CONNECTED (wasm) equals ops-reference bit for bit', () => {
  it('on 200 random shapes: batches 1-6, symmetric and asymmetric inputs, per-tensor / per-channel / uint8 weights, every fused activation, keep_num_dims, all-zero inputs', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) {
      const m = buildHybridFullyConnected(seed);
      expect(compareBitExact(m.def, [m.input], 1), m.desc).toBeNull();
      const d = JSON.parse(m.desc) as { asymmetric: boolean; activation: number };
      seen.add(`${d.asymmetric}/${d.activation}`);
    }
    expect(seen.size).toBe(12);
  });
});
