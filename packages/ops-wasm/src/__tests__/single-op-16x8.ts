/**
 * Test support: random 16x8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED models (int16 activations with
 * zero point 0, constant int8 weights; int64, int32 or no bias) built with ModelBuilder, for runBoth.
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType, type ModelDef } from '@micrort/core';
import { int, int32s, int8s, pick, rng, type ConvCase } from './single-op.js';

/** The bias of a 16x8 case: int64, int32 or none. */
export type Bias16 = 'int64' | 'int32' | 'none';

/** Quantization of a random 16x8 case. */
export interface Quant16 {
  perChannel: boolean;
  bias: Bias16;
  /** Multiplier scale: > 1 makes left shifts, < 1 saturates less. */
  gain: number;
  /**
   * Inputs at the int16 extremes only (-32768, 32767) and weights at -128 / 127; `'max'`: every input
   * -32768 and every output channel's weights all -128 or all 127, so all of a channel's products have one
   * sign (the largest sums: 2^22 per product).
   */
  extreme: boolean | 'max';
  /** FULLY_CONNECTED without a bias: quantized_bias_type INT64 (the int64 accumulator). */
  biasType64: boolean;
}

/** A random quantization; `biases` are the bias kinds to draw from. */
export function randomQuant16(seed: number, biases: readonly Bias16[]): Quant16 {
  const r = rng(seed * 17 + 3);
  return {
    perChannel: r() < 0.7,
    bias: pick(r, biases),
    gain: pick(r, [1, 1, 1, 40, 1e-3]),
    extreme: r() < 0.15,
    biasType64: r() < 0.5,
  };
}

/** `n` random int16 values (a tenth at the extremes; all of them when `extreme`) as bytes. */
export function int16Bytes(r: () => number, n: number, extreme: boolean | 'max'): Int8Array {
  const v = new Int16Array(n);
  for (let i = 0; i < n; i++) v[i] = extreme === 'max' ? -32768 : extreme || r() < 0.1 ? pick(r, [-32768, 32767]) : int(r, -32768, 32767);
  return new Int8Array(v.buffer);
}

/** `n` weights; `'max'`: -128 or 127 by output channel (`channel(i)` of weight i). */
function weights(r: () => number, n: number, extreme: boolean | 'max', channel: (i: number) => number): Int8Array {
  if (extreme === 'max') return Int8Array.from({ length: n }, (_, i) => (channel(i) % 2 === 0 ? -128 : 127));
  return extreme ? Int8Array.from({ length: n }, () => pick(r, [-128, 127])) : int8s(r, n);
}

function biasTensor(b: ModelBuilder, r: () => number, kind: Bias16, channels: number, scales: number[]): number | null {
  if (kind === 'none') return null;
  const quantization = { scale: scales, zeroPoint: scales.map(() => 0) };
  if (kind === 'int32')
    return b.addTensor({ name: 'b', type: TensorType.INT32, shape: [channels], data: int32s(r, channels, 2 ** 30), quantization });
  const data = BigInt64Array.from(int32s(r, channels, 2 ** 30), (v) => BigInt(v) * BigInt(int(r, 1, 1 << 16)));
  return b.addTensor({ name: 'b', type: TensorType.INT64, shape: [channels], data, quantization });
}

function outSize(same: boolean, n: number, k: number, s: number, d: number): number {
  const eff = (k - 1) * d + 1;
  return same ? Math.ceil(n / s) : Math.floor((n - eff) / s) + 1;
}

/** The 16x8 model of a convolution case (its zero points, bias flag and uint8 ignored), or null when VALID leaves no output. */
export function buildConv16(c: ConvCase, q: Quant16): { def: ModelDef; input: Int8Array } | null {
  const same = c.padding === Padding.SAME;
  const outH = outSize(same, c.inH, c.kH, c.strideH, c.dilH);
  const outW = outSize(same, c.inW, c.kW, c.strideW, c.dilW);
  if (outH < 1 || outW < 1) return null;
  const r = rng(c.seed * 7 + 11);
  const inScale = 0.02 + r() * 0.05;
  const wScales = Array.from({ length: q.perChannel ? c.outC : 1 }, () => 0.002 + r() * 0.02);
  const k = c.depthwise ? c.kH * c.kW : c.kH * c.kW * c.inC;
  const outScale = (inScale * wScales[0]! * Math.sqrt(k) * 40) / q.gain;
  const b = new ModelBuilder();
  const filterShape = c.depthwise ? [1, c.kH, c.kW, c.outC] : [c.outC, c.kH, c.kW, c.inC];
  const inT = b.addTensor({
    name: 'in',
    type: TensorType.INT16,
    shape: [c.batches, c.inH, c.inW, c.inC],
    quantization: { scale: inScale, zeroPoint: 0 },
  });
  const wT = b.addTensor({
    name: 'w',
    type: TensorType.INT8,
    shape: filterShape,
    data: weights(
      r,
      filterShape.reduce((a, x) => a * x, 1),
      q.extreme,
      (i) => (c.depthwise ? i % c.outC : Math.floor(i / k)),
    ),
    quantization: { scale: q.perChannel ? wScales : wScales[0]!, zeroPoint: wScales.map(() => 0), quantizedDimension: c.depthwise ? 3 : 0 },
  });
  const channelScales = Array.from({ length: c.outC }, (_, i) => inScale * wScales[q.perChannel ? i : 0]!);
  const biasT = biasTensor(b, r, q.bias, c.outC, channelScales);
  const outT = b.addTensor({
    name: 'out',
    type: TensorType.INT16,
    shape: [c.batches, outH, outW, c.outC],
    quantization: { scale: outScale, zeroPoint: 0 },
  });
  b.addOperator({
    op: c.depthwise ? BuiltinOperator.DEPTHWISE_CONV_2D : BuiltinOperator.CONV_2D,
    version: c.depthwise ? 5 : 4,
    inputs: biasT === null ? [inT, wT] : [inT, wT, biasT],
    outputs: [outT],
    options: {
      padding: c.padding,
      strideH: c.strideH,
      strideW: c.strideW,
      dilationHFactor: c.dilH,
      dilationWFactor: c.dilW,
      fusedActivationFunction: c.activation,
      ...(c.depthwise ? { depthMultiplier: c.outC / c.inC } : {}),
    },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return { def: b.buildDef(), input: int16Bytes(r, c.batches * c.inH * c.inW * c.inC, q.extreme) };
}

/** A random 16x8 FULLY_CONNECTED ([batches, depth] x [units, depth]^T); `shape` fixes some sizes. */
export function buildFullyConnected16(
  seed: number,
  q: Quant16,
  shape: { batches?: number; depth?: number; units?: number } = {},
): { def: ModelDef; input: Int8Array; desc: string } {
  const r = rng(seed * 5 + 1);
  const batches = shape.batches ?? int(r, 1, 5);
  const depth = shape.depth ?? int(r, 1, 300);
  const units = shape.units ?? int(r, 1, 19);
  const activation = pick(r, [
    ActivationFunctionType.NONE,
    ActivationFunctionType.RELU,
    ActivationFunctionType.RELU6,
    ActivationFunctionType.RELU_N1_TO_1,
  ]);
  const inScale = 0.02 + r() * 0.05;
  const wScales = Array.from({ length: q.perChannel ? units : 1 }, () => 0.002 + r() * 0.02);
  const outScale = (inScale * wScales[0]! * Math.sqrt(depth) * 40) / q.gain;
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: TensorType.INT16, shape: [batches, depth], quantization: { scale: inScale, zeroPoint: 0 } });
  const wT = b.addTensor({
    name: 'w',
    type: TensorType.INT8,
    shape: [units, depth],
    data: weights(r, units * depth, q.extreme, (i) => Math.floor(i / depth)),
    quantization: { scale: q.perChannel ? wScales : wScales[0]!, zeroPoint: wScales.map(() => 0), quantizedDimension: 0 },
  });
  // per-tensor: TFLM checks the bias scale against input scale * filter scale
  const channelScales = q.perChannel ? wScales.map((s) => s * inScale) : [Math.fround(inScale * wScales[0]!)];
  const biasT = biasTensor(b, r, q.bias, units, q.perChannel ? channelScales : Array.from({ length: units }, () => channelScales[0]!));
  const outT = b.addTensor({
    name: 'out',
    type: TensorType.INT16,
    shape: [batches, units],
    quantization: { scale: outScale, zeroPoint: 0 },
  });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    version: 7,
    inputs: biasT === null ? [inT, wT] : [inT, wT, biasT],
    outputs: [outT],
    options: { fusedActivationFunction: activation, quantizedBiasType: q.biasType64 ? TensorType.INT64 : TensorType.FLOAT32 },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return {
    def: b.buildDef(),
    input: int16Bytes(r, batches * depth, q.extreme),
    desc: JSON.stringify({ seed, batches, depth, units, activation, ...q }),
  };
}

/**
 * A 16x8 chain: CONV_2D 3x3 SAME (6 -> 16 channels, int64 bias) over [1, 9, 9, 6], DEPTHWISE_CONV_2D 3x3
 * stride 2 with depth multiplier 2 (int64 bias), FULLY_CONNECTED to 10 units (int32 bias); its input bytes.
 */
export function buildChain16(seed = 5): { def: ModelDef; input: Int8Array } {
  const r = rng(seed);
  const b = new ModelBuilder();
  const act = (name: string, shape: number[], scale: number) =>
    b.addTensor({ name, type: TensorType.INT16, shape, quantization: { scale, zeroPoint: 0 } });
  const w = (name: string, shape: number[], dim: number) => {
    const n = shape.reduce((a, x) => a * x, 1);
    const scales = Array.from({ length: shape[dim]! }, () => 0.002 + r() * 0.02);
    return {
      t: b.addTensor({
        name,
        type: TensorType.INT8,
        shape,
        data: int8s(r, n),
        quantization: { scale: scales, zeroPoint: scales.map(() => 0), quantizedDimension: dim },
      }),
      scales,
    };
  };
  const x = act('x', [1, 9, 9, 6], 0.05);
  const a = act('a', [1, 9, 9, 16], 0.4);
  const d = act('d', [1, 5, 5, 32], 0.8);
  const y = act('y', [1, 10], 4);
  const cw = w('cw', [16, 3, 3, 6], 0);
  const cb = biasTensor(
    b,
    r,
    'int64',
    16,
    cw.scales.map((s) => s * 0.05),
  )!;
  const dw = w('dw', [1, 3, 3, 32], 3);
  const db = biasTensor(
    b,
    r,
    'int64',
    32,
    dw.scales.map((s) => s * 0.4),
  )!;
  const fw = w('fw', [10, 800], 0);
  const fb = biasTensor(
    b,
    r,
    'int32',
    10,
    fw.scales.map((s) => s * 0.8),
  )!;
  const conv = { strideH: 1, strideW: 1, dilationHFactor: 1, dilationWFactor: 1, fusedActivationFunction: ActivationFunctionType.NONE };
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    version: 4,
    inputs: [x, cw.t, cb],
    outputs: [a],
    options: { ...conv, padding: Padding.SAME },
  });
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 5,
    inputs: [a, dw.t, db],
    outputs: [d],
    options: {
      ...conv,
      strideH: 2,
      strideW: 2,
      padding: Padding.SAME,
      depthMultiplier: 2,
      fusedActivationFunction: ActivationFunctionType.RELU,
    },
  });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    version: 7,
    inputs: [d, fw.t, fb],
    outputs: [y],
    options: { fusedActivationFunction: ActivationFunctionType.NONE },
  });
  b.setInputs([x]).setOutputs([y]);
  return { def: b.buildDef(), input: int16Bytes(r, 9 * 9 * 6, false) };
}
