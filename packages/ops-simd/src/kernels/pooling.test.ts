import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { DIV, LOAD } from '../counters.js';
import { kernelFor, outAndPad } from '../__tests__/harness-cases.js';
import { randomInt8, refPool, rng } from '../__tests__/reference-math.js';
import type { SimdMode } from '../options.js';
import { calculateActivationRangeQuantized } from '@micrort/kernel-support';

interface PoolCase {
  batches?: number;
  inH: number;
  inW: number;
  ch: number;
  kH: number;
  kW: number;
  strideH: number;
  strideW: number;
  padding: Padding;
  activation?: ActivationFunctionType;
  seed?: number;
}

function buildPool(kind: 'avg' | 'max', c: PoolCase, mode: SimdMode) {
  const r = rng(c.seed ?? 1);
  const batches = c.batches ?? 1;
  const [outH, padH] = outAndPad(c.padding, c.inH, c.kH, c.strideH, 1);
  const [outW, padW] = outAndPad(c.padding, c.inW, c.kW, c.strideW, 1);
  const input = randomInt8(r, batches * c.inH * c.inW * c.ch);
  const code = kind === 'avg' ? BuiltinOperator.AVERAGE_POOL_2D : BuiltinOperator.MAX_POOL_2D;
  const { reg, counters } = kernelFor(code, mode);
  const activation = c.activation ?? ActivationFunctionType.NONE;
  const harness = new KernelHarness({
    registration: reg,
    tensors: [
      { type: TensorType.INT8, shape: [batches, c.inH, c.inW, c.ch], data: input, scale: 0.05, zeroPoint: -10 },
      { type: TensorType.INT8, shape: [batches, outH, outW, c.ch], scale: 0.05, zeroPoint: -10 },
    ],
    inputs: [0],
    outputs: [1],
    builtinData: {
      padding: c.padding,
      strideW: c.strideW,
      strideH: c.strideH,
      filterWidth: c.kW,
      filterHeight: c.kH,
      fusedActivationFunction: activation,
    },
  });
  const [lo, hi] = calculateActivationRangeQuantized(activation, harness.tensors[1]!);
  const expected = refPool(kind, batches, c.inH, c.inW, c.ch, outH, outW, c.kH, c.kW, c.strideH, c.strideW, padH, padW, lo, hi, input);
  return { harness, expected, counters };
}

const cases: { name: string; c: PoolCase }[] = [
  {
    name: '2x2 stride 2 VALID, 7 channels (word + byte tails)',
    c: { inH: 6, inW: 6, ch: 7, kH: 2, kW: 2, strideH: 2, strideW: 2, padding: Padding.VALID },
  },
  {
    name: '3x3 stride 1 SAME (partial windows at the borders)',
    c: { inH: 5, inW: 4, ch: 4, kH: 3, kW: 3, strideH: 1, strideW: 1, padding: Padding.SAME, seed: 2 },
  },
  {
    name: '3x2 stride 2x3 SAME, RELU6, batch 2',
    c: {
      batches: 2,
      inH: 7,
      inW: 8,
      ch: 3,
      kH: 3,
      kW: 2,
      strideH: 2,
      strideW: 3,
      padding: Padding.SAME,
      activation: ActivationFunctionType.RELU6,
      seed: 3,
    },
  },
  { name: 'global pool 5x5 on 5x5', c: { inH: 5, inW: 5, ch: 9, kH: 5, kW: 5, strideH: 1, strideW: 1, padding: Padding.VALID, seed: 4 } },
];

for (const kind of ['avg', 'max'] as const) {
  describe(`${kind === 'avg' ? 'AVERAGE_POOL_2D' : 'MAX_POOL_2D'} (CMSIS-NN) matches the TFLM reference`, () => {
    for (const pc of cases) {
      for (const mode of ['fast', 'emulated'] as SimdMode[]) {
        it(`${pc.name} [${mode}]`, () => {
          const { harness, expected, counters } = buildPool(kind, pc.c, mode);
          harness.invoke();
          expect(Array.from(harness.output<Int8Array>())).toEqual(Array.from(expected));
          expect(harness.scratchSizes).toEqual(kind === 'avg' ? [pc.c.ch * 4] : []);
          if (mode === 'emulated') {
            expect(counters.get(0)!.kernel).toBe(kind === 'avg' ? 'arm_avgpool_s8' : 'arm_max_pool_s8');
            expect(counters.get(0)!.counts[LOAD]).toBeGreaterThan(0);
          }
        });
      }
    }
  });
}

describe('pooling counters and support', () => {
  it('average pooling divides once per output element', () => {
    const { harness, counters } = buildPool('avg', cases[0]!.c, 'emulated');
    harness.invoke();
    expect(counters.get(0)!.counts[DIV]).toBe(3 * 3 * 7);
  });

  it('declines float32 pooling', () => {
    const { reg } = kernelFor(BuiltinOperator.MAX_POOL_2D, 'fast');
    const h = new KernelHarness({
      registration: reg,
      tensors: [
        { type: TensorType.FLOAT32, shape: [1, 2, 2, 1] },
        { type: TensorType.FLOAT32, shape: [1, 1, 1, 1] },
      ],
      inputs: [0],
      outputs: [1],
      builtinData: { padding: Padding.VALID, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2, fusedActivationFunction: 0 },
    });
    expect(h.supports()).toBe(false);
    expect(h.supportsAnswer()).toBe('float32 input (handles int8)');
  });
});
