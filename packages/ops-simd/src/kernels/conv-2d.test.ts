import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MAC } from '../counters.js';
import { buildConv, kernelFor, type ConvCase } from '../__tests__/harness-cases.js';
import type { SimdMode } from '../options.js';

const MODES: SimdMode[] = ['fast', 'emulated'];

interface PathCase {
  name: string;
  c: ConvCase;
  path: string;
  scratch: number[];
}

const cases: PathCase[] = [
  {
    name: '1x1 stride 1, odd channels and positions, ragged depth',
    c: { inH: 3, inW: 3, inC: 7, outC: 5, kH: 1, kW: 1 },
    path: 'arm_convolve_1x1_s8_fast',
    scratch: [],
  },
  {
    name: '1x1 stride 1, depth 36 (16-column unroll and 4-column tail), batch 2, no bias',
    c: { batches: 2, inH: 2, inW: 3, inC: 38, outC: 4, kH: 1, kW: 1, bias: false, seed: 5 },
    path: 'arm_convolve_1x1_s8_fast',
    scratch: [],
  },
  {
    name: '1x1 stride 2 (generic 1x1)',
    c: { inH: 5, inW: 6, inC: 6, outC: 3, kH: 1, kW: 1, strideH: 2, strideW: 2, padding: Padding.VALID, seed: 2 },
    path: 'arm_convolve_1x1_s8',
    scratch: [],
  },
  {
    name: '1xN: input height 1, (stride * C) % 4 == 0',
    c: { inH: 1, inW: 9, inC: 4, outC: 3, kH: 1, kW: 3, seed: 3 },
    path: 'arm_convolve_1_x_n_s8',
    scratch: [2 * 12 * 2],
  },
  {
    name: 'im2col 3x3 SAME, odd positions (25) and channels, ragged columns (27)',
    c: { inH: 5, inW: 5, inC: 3, outC: 5, kH: 3, kW: 3, seed: 4, activation: ActivationFunctionType.RELU6 },
    path: 'arm_convolve_s8',
    scratch: [2 * 28 * 2],
  },
  {
    name: 'im2col stride 2, dilation 2, VALID, per-tensor filter scale',
    c: {
      inH: 9,
      inW: 8,
      inC: 2,
      outC: 4,
      kH: 3,
      kW: 2,
      strideH: 2,
      strideW: 2,
      dilH: 2,
      dilW: 2,
      padding: Padding.VALID,
      perChannel: false,
      seed: 6,
    },
    path: 'arm_convolve_s8',
    scratch: [2 * 12 * 2],
  },
  {
    name: 'im2col with padding on a 1x1 filter rejected by the fast paths (dilation) and batch 2',
    c: {
      batches: 2,
      inH: 4,
      inW: 3,
      inC: 5,
      outC: 6,
      kH: 2,
      kW: 2,
      strideH: 1,
      strideW: 2,
      seed: 7,
      activation: ActivationFunctionType.RELU,
    },
    path: 'arm_convolve_s8',
    scratch: [2 * 20 * 2],
  },
  {
    name: 'grouped convolution (2 groups)',
    c: { inH: 4, inW: 4, inC: 4, kC: 2, outC: 6, kH: 3, kW: 3, seed: 8 },
    path: 'arm_convolve_s8',
    scratch: [2 * 36 * 2],
  },
];

describe('CONV_2D (CMSIS-NN paths) matches the TFLM reference', () => {
  for (const pc of cases) {
    for (const mode of MODES) {
      it(`${pc.name} [${mode}]`, () => {
        const { harness, expected, counters } = buildConv(pc.c, mode);
        harness.invoke();
        expect(Array.from(harness.output<Int8Array>())).toEqual(Array.from(expected));
        expect(harness.scratchSizes).toEqual(pc.scratch);
        if (mode === 'emulated') {
          const rec = counters.get(0)!;
          expect(rec.kernel).toBe(pc.path);
          expect(rec.invocations).toBe(1);
          expect(rec.counts[MAC]).toBeGreaterThan(0);
        }
      });
    }
  }

  it('fast and emulated modes write identical bytes', () => {
    const c: ConvCase = { inH: 6, inW: 5, inC: 9, outC: 7, kH: 3, kW: 3, strideW: 2, seed: 21, inZp: -128, outZp: 127 };
    const a = buildConv(c, 'fast');
    const b = buildConv(c, 'emulated');
    a.harness.invoke();
    b.harness.invoke();
    expect(Array.from(b.harness.output<Int8Array>())).toEqual(Array.from(a.harness.output<Int8Array>()));
  });

  it('counts exactly 8 SMLADs for two positions x two channels x four columns (one 2x2 block)', () => {
    const { harness, counters } = buildConv(
      { inH: 1, inW: 2, inC: 4, outC: 2, kH: 1, kW: 1, padding: Padding.VALID, seed: 9, strideW: 1 },
      'emulated',
    );
    // 1x1 stride 1 -> arm_nn_mat_mult_nt_t_s8: 8 SMLAD + 2 MUL for the input-offset contributions
    harness.invoke();
    expect(counters.get(0)!.counts[MAC]).toBe(10);
    const im2col = buildConv({ inH: 1, inW: 2, inC: 2, outC: 2, kH: 1, kW: 2, padding: Padding.SAME, seed: 9 }, 'emulated');
    im2col.harness.invoke();
    expect(im2col.counters.get(0)!.kernel).toBe('arm_convolve_s8');
    expect(im2col.counters.get(0)!.counts[MAC]).toBe(8);
  });

  it('accumulates counts over invocations', () => {
    const { harness, counters } = buildConv({ inH: 3, inW: 3, inC: 4, outC: 2, kH: 3, kW: 3 }, 'emulated');
    harness.invoke();
    const once = counters.get(0)!.counts[MAC]!;
    harness.invoke();
    expect(counters.get(0)!.counts[MAC]).toBe(2 * once);
    expect(counters.get(0)!.invocations).toBe(2);
  });
});

describe('CONV_2D supports() and validation', () => {
  const { reg } = kernelFor(BuiltinOperator.CONV_2D, 'fast');
  const opts = {
    padding: Padding.VALID,
    strideW: 1,
    strideH: 1,
    fusedActivationFunction: ActivationFunctionType.NONE,
    dilationWFactor: 1,
    dilationHFactor: 1,
    quantizedBiasType: 0,
  };

  it('declines float32 and int16 nodes so another provider serves them', () => {
    for (const type of [TensorType.FLOAT32, TensorType.INT16]) {
      const h = new KernelHarness({
        registration: reg,
        tensors: [
          { type, shape: [1, 2, 2, 1], scale: 1 },
          { type: TensorType.INT8, shape: [1, 1, 1, 1], constant: true, data: [1], scale: 1 },
          { type, shape: [1, 2, 2, 1], scale: 1 },
        ],
        inputs: [0, 1],
        outputs: [2],
        builtinData: opts,
      });
      expect(h.supports()).toBe(false);
      expect(h.supportsAnswer()).toMatch(/^(float32|int16) input \(handles int8\)$/);
    }
  });

  it("sizes the output from the options (a stored shape is a hint, as in ops-reference); under shapes: 'file' a different stored shape is an error naming both", () => {
    const spec = (shapes?: 'file') =>
      new KernelHarness({
        registration: reg,
        tensors: [
          { type: TensorType.INT8, shape: [1, 4, 4, 1], scale: 1 },
          { type: TensorType.INT8, shape: [1, 3, 3, 1], constant: true, data: new Int8Array(9), scale: 1, zeroPoint: 0 },
          { type: TensorType.INT8, shape: [1, 4, 4, 1], scale: 1 },
        ],
        inputs: [0, 1],
        outputs: [2],
        builtinData: opts,
        ...(shapes ? { shapes } : {}),
      });
    const h = spec();
    h.prepare();
    expect(Array.from(h.tensors[2]!.dims)).toEqual([1, 2, 2, 1]);
    expect(() => spec('file').prepare()).toThrow(/\[1, 4, 4, 1\][\s\S]*\[1, 2, 2, 1\]|\[1, 2, 2, 1\][\s\S]*\[1, 4, 4, 1\]/);
  });
});
