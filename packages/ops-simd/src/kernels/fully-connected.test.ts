import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  TensorType,
  alignUp,
  quantizeMultiplier,
} from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MAC } from '../counters.js';
import { kernelFor } from '../__tests__/harness-cases.js';
import { randomInt32, randomInt8, refFullyConnected, rng } from '../__tests__/reference-math.js';
import type { SimdMode } from '../options.js';
import { calculateActivationRangeQuantized } from '@micrort/kernel-support';

interface FcCase {
  outShape: number[];
  depth: number;
  bias?: boolean;
  constantWeights?: boolean;
  activation?: ActivationFunctionType;
  kernelSums?: boolean;
  seed?: number;
}

function buildFc(c: FcCase, mode: SimdMode) {
  const r = rng(c.seed ?? 1);
  const rows = c.outShape[c.outShape.length - 1]!;
  const batches = c.outShape.reduce((a, b) => a * b, 1) / rows;
  const inScale = 0.04;
  const fScale = 0.007;
  const outScale = (inScale * fScale * Math.sqrt(c.depth) * 74 * 74) / 40;
  const inZp = -7;
  const outZp = 5;
  const input = randomInt8(r, batches * c.depth);
  const weights = randomInt8(r, rows * c.depth);
  const bias = c.bias === false ? null : randomInt32(r, rows, 3000);
  const { reg, counters } = kernelFor(BuiltinOperator.FULLY_CONNECTED, mode, { fullyConnectedKernelSums: c.kernelSums ?? true });
  const activation = c.activation ?? ActivationFunctionType.NONE;
  const harness = new KernelHarness({
    registration: reg,
    tensors: [
      { type: TensorType.INT8, shape: [batches, c.depth], data: input, scale: inScale, zeroPoint: inZp },
      { type: TensorType.INT8, shape: [rows, c.depth], data: weights, constant: c.constantWeights ?? true, scale: fScale, zeroPoint: 0 },
      { type: TensorType.INT32, shape: [rows], data: bias ?? new Int32Array(rows), constant: true, scale: inScale * fScale, zeroPoint: 0 },
      { type: TensorType.INT8, shape: c.outShape, scale: outScale, zeroPoint: outZp },
    ],
    inputs: bias ? [0, 1, 2] : [0, 1],
    outputs: [3],
    builtinData: {
      fusedActivationFunction: activation,
      weightsFormat: FullyConnectedWeightsFormat.DEFAULT,
      keepNumDims: c.outShape.length > 2,
      asymmetricQuantizeInputs: false,
      quantizedBiasType: 0,
    },
  });
  const [lo, hi] = calculateActivationRangeQuantized(activation, harness.tensors[3]!);
  const q = quantizeMultiplier(Math.fround(Math.fround(inScale) * Math.fround(fScale)) / Math.fround(outScale));
  const expected = refFullyConnected(batches, c.depth, rows, input, weights, bias, -inZp, outZp, q.multiplier, q.shift, lo, hi);
  return { harness, expected, counters };
}

const cases: { name: string; c: FcCase; path: string; scratch: number[]; persistent: (rows: number) => number }[] = [
  {
    name: '2-D, odd rows, depth 10 (2-column tail), kernel sums',
    c: { outShape: [2, 5], depth: 10 },
    path: 'arm_fully_connected_s8',
    scratch: [],
    persistent: (n) => alignUp(n * 4),
  },
  {
    name: 'DSP formulation without kernel sums',
    c: { outShape: [3, 6], depth: 13, kernelSums: false, seed: 2 },
    path: 'arm_fully_connected_s8',
    scratch: [],
    persistent: () => 0,
  },
  {
    name: 'non-constant weights: kernel sums in scratch',
    c: { outShape: [1, 4], depth: 9, constantWeights: false, seed: 3 },
    path: 'arm_fully_connected_s8',
    scratch: [16],
    persistent: () => 0,
  },
  {
    name: 'rank-3 output, depth % 4 == 0: 1x1 convolution',
    c: { outShape: [1, 3, 7], depth: 8, seed: 4 },
    path: 'arm_convolve_1x1_s8_fast',
    scratch: [],
    persistent: (n) => 2 * alignUp(n * 4),
  },
  {
    name: 'no bias, RELU',
    c: { outShape: [2, 3], depth: 16, bias: false, activation: ActivationFunctionType.RELU, seed: 5 },
    path: 'arm_fully_connected_s8',
    scratch: [],
    persistent: (n) => alignUp(n * 4),
  },
];

describe('FULLY_CONNECTED (CMSIS-NN) matches the TFLM reference', () => {
  for (const pc of cases) {
    for (const mode of ['fast', 'emulated'] as SimdMode[]) {
      it(`${pc.name} [${mode}]`, () => {
        const { harness, expected, counters } = buildFc(pc.c, mode);
        harness.invoke();
        expect(Array.from(harness.output<Int8Array>())).toEqual(Array.from(expected));
        expect(harness.scratchSizes).toEqual(pc.scratch);
        expect(harness.persistentBytes).toBe(pc.persistent(pc.c.outShape[pc.c.outShape.length - 1]!));
        if (mode === 'emulated') {
          expect(counters.get(0)!.kernel).toBe(pc.path);
          harness.invoke(); // a second invoke gives the same bytes (kernel sums / scratch reused)
          expect(Array.from(harness.output<Int8Array>())).toEqual(Array.from(expected));
        }
      });
    }
  }

  it('counts 4 SMLAD per 4 columns of a row pair (+2 MLA for the kernel-sum init)', () => {
    const { harness, counters } = buildFc({ outShape: [1, 2], depth: 8 }, 'emulated');
    harness.invoke();
    expect(counters.get(0)!.counts[MAC]).toBe(2 * 4 + 2);
  });

  it('declines per-channel and non-zero-point weights', () => {
    const { reg } = kernelFor(BuiltinOperator.FULLY_CONNECTED, 'fast');
    const mk = (scale: number | number[], zeroPoint: number | number[]) =>
      new KernelHarness({
        registration: reg,
        tensors: [
          { type: TensorType.INT8, shape: [1, 4], scale: 1 },
          { type: TensorType.INT8, shape: [2, 4], constant: true, data: new Int8Array(8), scale, zeroPoint },
          { type: TensorType.INT8, shape: [1, 2], scale: 1 },
        ],
        inputs: [0, 1],
        outputs: [2],
        builtinData: {
          fusedActivationFunction: 0,
          weightsFormat: 0,
          keepNumDims: false,
          asymmetricQuantizeInputs: false,
          quantizedBiasType: 0,
        },
      });
    expect(mk(0.1, 0).supports()).toBe(true);
    expect(mk([0.1, 0.2], [0, 0]).supportsAnswer()).toBe('per-channel weights (handles per-tensor weights)');
    expect(mk(0.1, 3).supportsAnswer()).toBe('weights zero point 3 (handles symmetric weights)');
  });
});
