/**
 * Test-only builders of KernelHarness cases for the ops-simd kernels, with the matching TFLM-reference
 * expectations from reference-math.ts.
 */
import { ActivationFunctionType, BuiltinOperator, Padding, TensorType, type Registration } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SimdCounters } from '../counters.js';
import { createSimdKernels } from '../create-simd-kernels.js';
import type { SimdMode } from '../options.js';
import { channelMultipliers, randomInt32, randomInt8, refConv, refDepthwise, rng, type RefConv } from './reference-math.js';
import { calculateActivationRangeQuantized } from '@micrort/kernel-support';

/** The registration for `code` in `mode`, with fresh counters. */
export function kernelFor(
  code: BuiltinOperator,
  mode: SimdMode,
  extra: { fullyConnectedKernelSums?: boolean } = {},
): { reg: Registration; counters: SimdCounters } {
  const counters = new SimdCounters();
  const reg = createSimdKernels({ mode, counters, ...extra }).find((r) => r.builtinCode === code);
  if (!reg) throw new Error(`no ops-simd kernel for ${BuiltinOperator[code]}`);
  return { reg, counters };
}

/** Output size and leading padding of one spatial dimension, as TFLite computes them. */
export function outAndPad(padding: Padding, inSize: number, k: number, stride: number, dil: number): [number, number] {
  const eff = (k - 1) * dil + 1;
  const out = padding === Padding.SAME ? Math.ceil(inSize / stride) : Math.floor((inSize - eff) / stride) + 1;
  const total = Math.max((out - 1) * stride + eff - inSize, 0);
  return [out, Math.floor(total / 2)];
}

/** A convolution case (CONV_2D or DEPTHWISE_CONV_2D). */
export interface ConvCase {
  batches?: number;
  inH: number;
  inW: number;
  inC: number;
  outC: number;
  kH: number;
  kW: number;
  /** CONV_2D filter depth (default inC); ignored for depthwise. */
  kC?: number;
  strideH?: number;
  strideW?: number;
  dilH?: number;
  dilW?: number;
  padding?: Padding;
  activation?: ActivationFunctionType;
  bias?: boolean;
  perChannel?: boolean;
  seed?: number;
  inZp?: number;
  outZp?: number;
}

/** A prepared harness and the reference result for a convolution case. */
export interface BuiltCase {
  harness: KernelHarness;
  expected: Int8Array;
  counters: SimdCounters;
}

/** Builds a CONV_2D (`depthwise` false) or DEPTHWISE_CONV_2D harness for `mode`. */
export function buildConv(c: ConvCase, mode: SimdMode, depthwise = false): BuiltCase {
  const r = rng(c.seed ?? 1);
  const batches = c.batches ?? 1;
  const strideH = c.strideH ?? 1;
  const strideW = c.strideW ?? 1;
  const dilH = c.dilH ?? 1;
  const dilW = c.dilW ?? 1;
  const padding = c.padding ?? Padding.SAME;
  const kC = depthwise ? 1 : (c.kC ?? c.inC);
  const [outH, padH] = outAndPad(padding, c.inH, c.kH, strideH, dilH);
  const [outW, padW] = outAndPad(padding, c.inW, c.kW, strideW, dilW);
  const inScale = 0.05;
  const filterScales: number[] = [];
  const nScales = c.perChannel === false ? 1 : c.outC;
  for (let i = 0; i < nScales; i++) filterScales.push(0.004 + ((r() >>> 0) % 1000) * 0.00002);
  const taps = c.kH * c.kW * kC;
  const outScale = (inScale * 0.01 * Math.sqrt(taps) * 74 * 74) / 40;
  const inZp = c.inZp ?? 3;
  const outZp = c.outZp ?? -2;
  const input = randomInt8(r, batches * c.inH * c.inW * c.inC);
  const filterShape = depthwise ? [1, c.kH, c.kW, c.outC] : [c.outC, c.kH, c.kW, kC];
  const filter = randomInt8(
    r,
    filterShape.reduce((a, b) => a * b, 1),
  );
  const bias = c.bias === false ? null : randomInt32(r, c.outC, 6000);
  const tensors = [
    { type: TensorType.INT8, shape: [batches, c.inH, c.inW, c.inC], data: input, scale: inScale, zeroPoint: inZp },
    {
      type: TensorType.INT8,
      shape: filterShape,
      data: filter,
      constant: true,
      scale: filterScales,
      zeroPoint: filterScales.map(() => 0),
      quantizedDimension: depthwise ? 3 : 0,
    },
    {
      type: TensorType.INT32,
      shape: [c.outC],
      data: bias ?? new Int32Array(c.outC),
      constant: true,
      scale: filterScales.map((s) => s * inScale),
      zeroPoint: filterScales.map(() => 0),
    },
    { type: TensorType.INT8, shape: [batches, outH, outW, c.outC], scale: outScale, zeroPoint: outZp },
  ];
  const activation = c.activation ?? ActivationFunctionType.NONE;
  const code = depthwise ? BuiltinOperator.DEPTHWISE_CONV_2D : BuiltinOperator.CONV_2D;
  const { reg, counters } = kernelFor(code, mode);
  const builtinData = depthwise
    ? {
        padding,
        strideW,
        strideH,
        depthMultiplier: c.outC / c.inC,
        fusedActivationFunction: activation,
        dilationWFactor: dilW,
        dilationHFactor: dilH,
      }
    : {
        padding,
        strideW,
        strideH,
        fusedActivationFunction: activation,
        dilationWFactor: dilW,
        dilationHFactor: dilH,
        quantizedBiasType: 0,
      };
  const harness = new KernelHarness({ registration: reg, tensors, inputs: bias ? [0, 1, 2] : [0, 1], outputs: [3], builtinData });
  const [actMin, actMax] = calculateActivationRangeQuantized(activation, harness.tensors[3]!);
  const { mult, shift } = channelMultipliers(inScale, filterScales, outScale, c.outC);
  const g: RefConv = {
    batches,
    inH: c.inH,
    inW: c.inW,
    inC: c.inC,
    outH,
    outW,
    outC: c.outC,
    kH: c.kH,
    kW: c.kW,
    strideH,
    strideW,
    dilH,
    dilW,
    padH,
    padW,
    inputOffset: -inZp,
    outputOffset: outZp,
    actMin,
    actMax,
    mult,
    shift,
  };
  const expected = depthwise ? refDepthwise(g, c.outC / c.inC, input, filter, bias) : refConv(g, kC, input, filter, bias);
  return { harness, expected, counters };
}
