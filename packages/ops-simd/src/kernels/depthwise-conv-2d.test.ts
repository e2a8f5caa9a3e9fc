import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MAC } from '../counters.js';
import { buildConv, kernelFor, type ConvCase } from '../__tests__/harness-cases.js';
import type { SimdMode } from '../options.js';

const MODES: SimdMode[] = ['fast', 'emulated'];

const cases: { name: string; c: ConvCase; path: string; scratch: number[] }[] = [
  {
    name: '3x3 SAME stride 1, 6 channels (4 + 2 leftover)',
    c: { inH: 5, inW: 4, inC: 6, outC: 6, kH: 3, kW: 3 },
    path: 'arm_depthwise_conv_3x3_s8',
    scratch: [],
  },
  {
    name: '3x3 SAME stride 2 (right/bottom clipping), RELU',
    c: { inH: 6, inW: 7, inC: 8, outC: 8, kH: 3, kW: 3, strideH: 2, strideW: 2, activation: ActivationFunctionType.RELU, seed: 2 },
    path: 'arm_depthwise_conv_3x3_s8',
    scratch: [],
  },
  {
    name: '3x3 VALID, 3 channels (leftover only), no bias',
    c: { inH: 4, inW: 5, inC: 3, outC: 3, kH: 3, kW: 3, padding: Padding.VALID, bias: false, seed: 3 },
    path: 'arm_depthwise_conv_3x3_s8',
    scratch: [],
  },
  {
    name: 'opt: 5x5 SAME (padding 2), 5 channels, odd tap count',
    c: { inH: 6, inW: 6, inC: 5, outC: 5, kH: 5, kW: 5, seed: 4 },
    path: 'arm_depthwise_conv_s8_opt',
    scratch: [5 * 25 * 2],
  },
  {
    name: 'opt: 2x4 filter stride 2, 8 channels, even tap count',
    c: { inH: 5, inW: 9, inC: 8, outC: 8, kH: 2, kW: 4, strideH: 2, strideW: 2, seed: 5 },
    path: 'arm_depthwise_conv_s8_opt',
    scratch: [8 * 8 * 2],
  },
  {
    name: 'generic mult-4: depth multiplier 4',
    c: { inH: 5, inW: 5, inC: 3, outC: 12, kH: 3, kW: 3, seed: 6 },
    path: 'arm_depthwise_conv_s8',
    scratch: [],
  },
  {
    name: 'generic: depth multiplier 2',
    c: { inH: 4, inW: 6, inC: 3, outC: 6, kH: 2, kW: 3, strideW: 2, seed: 7 },
    path: 'arm_depthwise_conv_s8',
    scratch: [],
  },
  {
    name: 'generic: dilation 2 with SAME padding',
    c: { inH: 7, inW: 6, inC: 4, outC: 4, kH: 3, kW: 3, dilH: 2, dilW: 2, seed: 8 },
    path: 'arm_depthwise_conv_s8',
    scratch: [],
  },
  {
    name: 'generic: batch 2, multiplier 1',
    c: { batches: 2, inH: 4, inW: 4, inC: 4, outC: 4, kH: 3, kW: 3, seed: 9 },
    path: 'arm_depthwise_conv_s8',
    scratch: [],
  },
];

describe('DEPTHWISE_CONV_2D (CMSIS-NN paths) matches the TFLM reference', () => {
  for (const pc of cases) {
    for (const mode of MODES) {
      it(`${pc.name} [${mode}]`, () => {
        const { harness, expected, counters } = buildConv(pc.c, mode, true);
        harness.invoke();
        expect(Array.from(harness.output<Int8Array>())).toEqual(Array.from(expected));
        expect(harness.scratchSizes).toEqual(pc.scratch);
        if (mode === 'emulated') {
          expect(counters.get(0)!.kernel).toBe(pc.path);
          expect(counters.get(0)!.counts[MAC]).toBeGreaterThan(0);
        }
      });
    }
  }

  it('3x3 path: 4 channels x 9 taps = 18 SMLABB + 18 SMLATT per interior pixel', () => {
    // 3x3 VALID on a 3x3 input: one output pixel, every tap inside, 4 channels
    const { harness, counters } = buildConv(
      { inH: 3, inW: 3, inC: 4, outC: 4, kH: 3, kW: 3, padding: Padding.VALID, seed: 11 },
      'emulated',
      true,
    );
    harness.invoke();
    expect(counters.get(0)!.counts[MAC]).toBe(36);
  });

  it('fast and emulated modes write identical bytes', () => {
    const c: ConvCase = { inH: 7, inW: 5, inC: 9, outC: 9, kH: 3, kW: 3, strideW: 2, seed: 12, inZp: 127, outZp: -128 };
    const a = buildConv(c, 'fast', true);
    const b = buildConv(c, 'emulated', true);
    a.harness.invoke();
    b.harness.invoke();
    expect(Array.from(b.harness.output<Int8Array>())).toEqual(Array.from(a.harness.output<Int8Array>()));
  });

  it('declines non-int8 nodes', () => {
    const { reg } = kernelFor(BuiltinOperator.DEPTHWISE_CONV_2D, 'fast');
    const h = new KernelHarness({
      registration: reg,
      tensors: [
        { type: TensorType.INT16, shape: [1, 2, 2, 1], scale: 1 },
        { type: TensorType.INT8, shape: [1, 1, 1, 1], constant: true, data: [1], scale: 1 },
        { type: TensorType.INT16, shape: [1, 2, 2, 1], scale: 1 },
      ],
      inputs: [0, 1],
      outputs: [2],
      builtinData: {
        padding: Padding.VALID,
        strideW: 1,
        strideH: 1,
        depthMultiplier: 1,
        fusedActivationFunction: 0,
        dilationWFactor: 1,
        dilationHFactor: 1,
      },
    });
    expect(h.supports()).toBe(false);
    expect(h.supportsAnswer()).toBe('int16 input (handles int8)');
  });
});
