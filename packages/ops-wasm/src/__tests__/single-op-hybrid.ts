/**
 * Test support for the hybrid kernels (float32 activations × int8 weights): random single-operator
 * hybrid models built with ModelBuilder, run through ops-reference alone (its hybrid kernels are
 * checked against TFLite 2.9 in ops-reference's test/hybrid-vs-tflite.test.ts) and through ops-wasm in
 * front of it, outputs compared bit for bit.
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType, type ModelDef } from '@micrort/core';
import { randomBatchMatMulCase, type BatchMatMulCase } from './single-op-batch-matmul.js';
import { floats, runF32 } from './single-op-float.js';
import { int, pick, rng } from './single-op.js';

/** The clamp activations of the hybrid convolutions. */
export const CONV_ACTIVATIONS = [
  ActivationFunctionType.NONE,
  ActivationFunctionType.RELU,
  ActivationFunctionType.RELU6,
  ActivationFunctionType.RELU_N1_TO_1,
];

/** FULLY_CONNECTED's: every fused activation TFLite's ApplyActivationToVector takes. */
export const FC_ACTIVATIONS = [...CONV_ACTIVATIONS, ActivationFunctionType.TANH, ActivationFunctionType.SIGN_BIT];

/** How the weights are quantized. */
export type WeightScales = 'tensor' | 'channel' | 'channel-equal' | 'uint8';

/**
 * Random activations for `batches` rows of `n`: uniform in [-1, 1], shifted to one sign (extreme zero
 * points of the asymmetric quantization), spread over several magnitudes, or (one row in ten) all zero.
 */
export function hybridInputs(r: () => number, batches: number, n: number): Float32Array {
  const out = new Float32Array(batches * n);
  for (let b = 0; b < batches; b++) {
    const kind = int(r, 0, 9);
    if (kind === 0) continue; // an all-zero row
    const lo = kind === 1 ? 0 : kind === 2 ? -3 : -1;
    const hi = kind === 2 ? 0 : kind === 3 ? 4 : 1;
    const row = floats(r, n, lo, hi);
    if (kind === 4) for (let i = 0; i < n; i++) row[i] = row[i]! * 10 ** int(r, -3, 2);
    out.set(row, b * n);
  }
  return out;
}

/** Random int8 weights, -127..127 with an occasional -128. */
function weights8(r: () => number, n: number): Int8Array {
  const w = new Int8Array(n);
  for (let i = 0; i < n; i++) w[i] = r() < 0.01 ? -128 : int(r, -127, 127);
  return w;
}

/** The filter tensor of a hybrid layer: int8 (or uint8 bytes) with one scale or one per channel along `dim`. */
function addFilter(b: ModelBuilder, r: () => number, shape: number[], channels: number, dim: number, scales: WeightScales): number {
  const n = shape.reduce((a, x) => a * x, 1);
  const w = weights8(r, n);
  const s = 0.001 + r() * 0.02;
  const per = scales === 'channel' ? Array.from({ length: channels }, () => 0.001 + r() * 0.02) : Array(channels).fill(s);
  const perChannel = scales === 'channel' || scales === 'channel-equal';
  return b.addTensor({
    name: 'w',
    type: scales === 'uint8' ? TensorType.UINT8 : TensorType.INT8,
    shape,
    data: scales === 'uint8' ? new Uint8Array(w.buffer) : w,
    quantization: perChannel ? { scale: per, zeroPoint: per.map(() => 0), quantizedDimension: dim } : { scale: s, zeroPoint: 0 },
  });
}

/** A random hybrid CONV_2D / DEPTHWISE_CONV_2D case. */
export interface HybridConvCase {
  depthwise: boolean;
  batches: number;
  inH: number;
  inW: number;
  inC: number;
  multiplier: number;
  outC: number;
  kH: number;
  kW: number;
  strideH: number;
  strideW: number;
  dilH: number;
  dilW: number;
  padding: Padding;
  bias: boolean;
  activation: ActivationFunctionType;
  scales: WeightScales;
  /** A float32 PAD before the convolution (`inH` x `inW` is its source's size). */
  pre?: { top: number; bottom: number; left: number; right: number };
  seed: number;
}

/** A random case on odd shapes (depthwise: depth multipliers 1-3, one input channel sometimes). */
export function randomHybridConvCase(seed: number, depthwise: boolean): HybridConvCase {
  const r = rng(seed);
  const inC = depthwise && r() < 0.15 ? 1 : int(r, 1, 21);
  const multiplier = depthwise ? pick(r, [1, 1, 2, 3]) : 1;
  const scales: WeightScales = depthwise
    ? pick(r, ['tensor', 'channel', 'channel'])
    : pick(r, ['tensor', 'channel', 'channel', 'channel-equal', 'uint8']);
  return {
    depthwise,
    batches: int(r, 1, 3),
    inH: int(r, 1, 10),
    inW: int(r, 1, 10),
    inC,
    multiplier,
    outC: depthwise ? inC * multiplier : int(r, 1, 19),
    kH: int(r, 1, 3),
    kW: int(r, 1, 5),
    strideH: int(r, 1, 2),
    strideW: int(r, 1, 3),
    dilH: r() < 0.25 ? 2 : 1,
    dilW: r() < 0.25 ? 2 : 1,
    padding: r() < 0.5 ? Padding.SAME : Padding.VALID,
    bias: r() < 0.8,
    activation: pick(r, CONV_ACTIVATIONS),
    scales,
    seed,
  };
}

function outSize(padding: Padding, n: number, k: number, s: number, d: number): number {
  const eff = (k - 1) * d + 1;
  return padding === Padding.SAME ? Math.ceil(n / s) : Math.floor((n - eff) / s) + 1;
}

/** Builds a hybrid convolution case (with its input), or null when VALID padding leaves no output. */
export function buildHybridConv(c: HybridConvCase): { def: ModelDef; input: Float32Array } | null {
  const pre = c.pre ?? { top: 0, bottom: 0, left: 0, right: 0 };
  const padH = c.inH + pre.top + pre.bottom;
  const padW = c.inW + pre.left + pre.right;
  const outH = outSize(c.padding, padH, c.kH, c.strideH, c.dilH);
  const outW = outSize(c.padding, padW, c.kW, c.strideW, c.dilW);
  if (outH < 1 || outW < 1) return null;
  const r = rng(c.seed * 7 + 1);
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: TensorType.FLOAT32, shape: [c.batches, c.inH, c.inW, c.inC] });
  const filterShape = c.depthwise ? [1, c.kH, c.kW, c.outC] : [c.outC, c.kH, c.kW, c.inC];
  const wT = addFilter(b, r, filterShape, c.outC, c.depthwise ? 3 : 0, c.scales);
  let convIn = inT;
  if (c.pre) {
    convIn = b.addTensor({ name: 'padded', type: TensorType.FLOAT32, shape: [c.batches, padH, padW, c.inC] });
    const paddings = b.addTensor({
      name: 'paddings',
      type: TensorType.INT32,
      shape: [4, 2],
      data: Int32Array.from([0, 0, pre.top, pre.bottom, pre.left, pre.right, 0, 0]),
    });
    b.addOperator({ op: BuiltinOperator.PAD, inputs: [inT, paddings], outputs: [convIn] });
  }
  const ins = [convIn, wT];
  if (c.bias) ins.push(b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: [c.outC], data: floats(r, c.outC, -0.5, 0.5) }));
  const outT = b.addTensor({ name: 'out', type: TensorType.FLOAT32, shape: [c.batches, outH, outW, c.outC] });
  b.addOperator({
    op: c.depthwise ? BuiltinOperator.DEPTHWISE_CONV_2D : BuiltinOperator.CONV_2D,
    version: c.depthwise ? 6 : 5,
    inputs: ins,
    outputs: [outT],
    options: {
      padding: c.padding,
      strideH: c.strideH,
      strideW: c.strideW,
      dilationHFactor: c.dilH,
      dilationWFactor: c.dilW,
      fusedActivationFunction: c.activation,
      ...(c.depthwise ? { depthMultiplier: c.multiplier } : {}),
    },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return { def: b.buildDef(), input: hybridInputs(r, c.batches, c.inH * c.inW * c.inC) };
}

/** A random hybrid FULLY_CONNECTED ([batches, depth] x [units, depth]^T + bias). */
export function buildHybridFullyConnected(seed: number): { def: ModelDef; input: Float32Array; desc: string } {
  const r = rng(seed);
  const batches = int(r, 1, 6);
  const depth = int(r, 1, 90);
  const units = int(r, 1, 21);
  const bias = r() < 0.8;
  const activation = pick(r, FC_ACTIVATIONS);
  const keepNumDims = r() < 0.3;
  const asymmetric = r() < 0.5;
  const scales: WeightScales = pick(r, ['tensor', 'channel', 'channel-equal', 'uint8']);
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: TensorType.FLOAT32, shape: keepNumDims ? [1, batches, depth] : [batches, depth] });
  const wT = addFilter(b, r, [units, depth], units, 0, scales);
  const ins = [inT, wT];
  if (bias) ins.push(b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: [units], data: floats(r, units, -0.5, 0.5) }));
  const outT = b.addTensor({ name: 'out', type: TensorType.FLOAT32, shape: keepNumDims ? [1, batches, units] : [batches, units] });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    version: 9,
    inputs: ins,
    outputs: [outT],
    options: { fusedActivationFunction: activation, keepNumDims, asymmetricQuantizeInputs: asymmetric },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return {
    def: b.buildDef(),
    input: hybridInputs(r, batches, depth),
    desc: JSON.stringify({ seed, batches, depth, units, bias, activation, keepNumDims, asymmetric, scales }),
  };
}

/**
 * Runs `def` through ops-reference alone and with ops-wasm in front; returns null when every output is
 * equal bit for bit (float32 bit patterns) and ops-wasm served `served` nodes, else what differs.
 */
export function compareBitExact(def: ModelDef, inputs: Float32Array[], served: number): string | null {
  const ref = runF32(def, inputs, false);
  const got = runF32(def, inputs, true);
  if (got.served !== served) return `ops-wasm served ${got.served} nodes, expected ${served}`;
  for (let j = 0; j < ref.outs.length; j++) {
    const a = new Uint32Array(got.outs[j]!.buffer);
    const e = new Uint32Array(ref.outs[j]!.buffer);
    if (a.length !== e.length) return `output ${j}: length ${a.length} vs ${e.length}`;
    for (let i = 0; i < a.length; i++)
      if (a[i] !== e[i]) return `output ${j} element ${i}: got ${got.outs[j]![i]}, expected ${ref.outs[j]![i]} (bits differ)`;
  }
  return null;
}

/** A random hybrid BATCH_MATMUL: a float32 LHS by a constant int8 RHS, and how it was drawn. */
export interface HybridBatchMatMul {
  def: ModelDef;
  inputs: Float32Array[];
  desc: string;
  /** Shape and flags (BatchMatMulCase's), the RHS's scales and the input quantization. */
  c: BatchMatMulCase;
  scales: 'tensor' | 'channel';
  asymmetric: boolean;
}

/**
 * A random hybrid BATCH_MATMUL: randomBatchMatMulCase's shapes (ranks 2 to 5, broadcast batch dims,
 * adj_x / adj_y, a constant LHS now and then) with an int8 RHS (always constant: TFLite's hybrid kernel
 * takes constant weights) of one scale or one per output column, symmetric or asymmetric input
 * quantization, LHS rows as hybridInputs draws them (zero rows, one-signed rows, wide magnitudes).
 */
export function buildHybridBatchMatMul(seed: number, maxRows = 11): HybridBatchMatMul {
  const c = randomBatchMatMulCase(seed, TensorType.FLOAT32, maxRows);
  const r = rng(seed * 31 + 7);
  const scales = r() < 0.5 ? 'tensor' : 'channel';
  const asymmetric = r() < 0.5;
  const rank = c.rhs.length;
  const colDim = rank - (c.adjY ? 2 : 1);
  const b = new ModelBuilder();
  const lhsCount = c.lhs.reduce((a, x) => a * x, 1);
  const lhsData = hybridInputs(r, lhsCount / c.lhs[c.lhs.length - 1]!, c.lhs[c.lhs.length - 1]!);
  const lhs = b.addTensor({ name: 'lhs', type: TensorType.FLOAT32, shape: c.lhs, ...(c.constLhs ? { data: lhsData } : {}) });
  const rhs = addFilter(b, r, c.rhs, c.rhs[colDim]!, colDim, scales);
  const out = b.addTensor({ name: 'out', type: TensorType.FLOAT32, shape: c.out });
  b.addOperator({
    op: BuiltinOperator.BATCH_MATMUL,
    version: 1,
    inputs: [lhs, rhs],
    outputs: [out],
    options: { adjX: c.adjX, adjY: c.adjY, asymmetricQuantizeInputs: asymmetric },
  });
  b.setInputs(c.constLhs ? [] : [lhs]).setOutputs([out]);
  const desc = JSON.stringify({ seed, lhs: c.lhs, rhs: c.rhs, adjX: c.adjX, adjY: c.adjY, constLhs: c.constLhs, scales, asymmetric });
  return { def: b.buildDef(), inputs: c.constLhs ? [] : [lhsData], desc, c, scales, asymmetric };
}
