/**
 * Which rounding TFLite 2.9 (the oracle: tfjs-tflite-node's libtensorflowlite_c.so, x86-64) uses for
 * uint8, kernel by kernel, pinned byte for byte against two models of the requantization
 * (test-support's requantize-rules.ts, with accumulators computed there, not by a kernel package):
 *
 * - `reference`: gemmlowp's double rounding, as TFLite's reference kernels
 *   (kernels/internal/reference/*, common.h MultiplyByQuantizedMultiplier without TFLITE_SINGLE_ROUNDING)
 *   and TFLM: SaturatingRoundingDoublingHighMul (x·M / 2^31, ties up), then RoundingDivideByPOT by the
 *   right shift (ties away from zero). ops-reference implements this.
 * - `ruy`: the same first rounding, then a rounding right shift whose ties go UP (toward +∞). That is
 *   what ruy's optimized x86 kernels did in the ruy TFLite 2.9 pins (ruy's apply_multiplier.h of that
 *   time: "When RUY_OPT(NATIVE_ROUNDING), optimized code paths may use whatever tie-breaking behavior is
 *   more friendly to the target instruction set, typically breaking ties upward"). TFLite's optimized
 *   uint8 CONV_2D and FULLY_CONNECTED reach ruy through cpu_backend_gemm (runtime dispatch to ruy on
 *   CPUs with AVX or above: cpu_backend_gemm_x86.h).
 *
 * The two rules differ only where the first rounding leaves an exact tie for the second AND the value is
 * negative (before the output zero point is added): `reference` then gives one step less than `ruy`.
 * With a multiplier in [0.25, 0.5) (right shift 1) that is a quarter of the negative values, so the data
 * below is chosen to hit those ties: small multipliers, output zero point mid-range, no activation (a
 * RELU/RELU6 with zero point 0 clamps every negative value away, which is why TF1 MobileNet v1 matches).
 *
 * int8 is checked too (TFLite 2.9 is no int8 oracle for that reason): int8 CONV_2D (per-channel) and
 * FULLY_CONNECTED round like ruy, int8 DEPTHWISE_CONV_2D like TFLM.
 *
 * Each case checks the model against TFLite on every element, ops-reference against the `reference`
 * model on every element, and that the data hit ties (the two rules differ somewhere), so a kernel
 * that changed rule would fail here.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType as A, BuiltinOperator as Op, ModelBuilder, Padding, TensorType, quantizeMultiplier } from '@micrort/core';
import {
  convGeometry,
  quantizedConv,
  quantizedFullyConnected,
  referenceRequantize,
  ruyRequantize,
  uint8ConvMultiplier,
} from '@micrort/test-support/requantize-rules';
import { compareWithTflite, ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { rng, Uint8ModelBuilder, type Q8 } from './uint8-models.js';

if (!oracleAvailable) it.skip(`uint8 rounding vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

/** What one case found, element by element. */
interface Tally {
  elements: number;
  /** Elements where TFLite ≠ the `reference` model. */
  tfliteVsReference: number;
  /** Elements where TFLite ≠ the `ruy` model. */
  tfliteVsRuy: number;
  /** Elements where the two models differ (the ties the data hit). */
  rulesDiffer: number;
  /** Elements where ops-reference ≠ the `reference` model. */
  opsReferenceVsReference: number;
  /** Elements where ops-reference ≠ TFLite. */
  opsReferenceVsTflite: number;
  /** Largest |ops-reference − TFLite| in steps. */
  maxStep: number;
}

/** Tallies TFLite's and ops-reference's bytes against the two models' outputs (same element order). */
function tally(tflite: ArrayLike<number>, micrort: ArrayLike<number>, byReference: ArrayLike<number>, byRuy: ArrayLike<number>): Tally {
  const t: Tally = {
    elements: tflite.length,
    tfliteVsReference: 0,
    tfliteVsRuy: 0,
    rulesDiffer: 0,
    opsReferenceVsReference: 0,
    opsReferenceVsTflite: 0,
    maxStep: 0,
  };
  for (let i = 0; i < tflite.length; i++) {
    if (tflite[i] !== byReference[i]) t.tfliteVsReference++;
    if (tflite[i] !== byRuy[i]) t.tfliteVsRuy++;
    if (byReference[i] !== byRuy[i]) t.rulesDiffer++;
    if (micrort[i] !== byReference[i]) t.opsReferenceVsReference++;
    if (micrort[i] !== tflite[i]) t.opsReferenceVsTflite++;
    t.maxStep = Math.max(t.maxStep, Math.abs(micrort[i]! - tflite[i]!));
  }
  return t;
}

/** The kernel follows the `ruy` rule: TFLite = ruy model everywhere; ops-reference differs exactly where the rules do, by one step. */
function expectRuy(name: string, t: Tally): void {
  expect({ name, ...t }).toEqual({
    name,
    elements: t.elements,
    tfliteVsReference: t.rulesDiffer,
    tfliteVsRuy: 0,
    rulesDiffer: t.rulesDiffer,
    opsReferenceVsReference: 0,
    opsReferenceVsTflite: t.rulesDiffer,
    maxStep: t.rulesDiffer > 0 ? 1 : 0,
  });
  expect(t.rulesDiffer, `${name}: the data hit no tie, so it cannot tell the rules apart`).toBeGreaterThan(0);
}

/** The kernel follows the `reference` rule: TFLite = reference model = ops-reference everywhere, though the rules differ on this data. */
function expectReference(name: string, t: Tally): void {
  expect({ name, ...t }).toEqual({
    name,
    elements: t.elements,
    tfliteVsReference: 0,
    tfliteVsRuy: t.rulesDiffer,
    rulesDiffer: t.rulesDiffer,
    opsReferenceVsReference: 0,
    opsReferenceVsTflite: 0,
    maxStep: 0,
  });
  expect(t.rulesDiffer, `${name}: the data hit no tie, so it cannot tell the rules apart`).toBeGreaterThan(0);
}

/** Bytes near `center` (± spread), so accumulators stay small and many outputs are negative before the zero point. */
function near(next: () => number, n: number, center: number, spread: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => Math.min(255, Math.max(0, center - spread + Math.floor(next() * (2 * spread + 1)))));
}

interface ConvCase {
  name: string;
  op: Op.CONV_2D | Op.DEPTHWISE_CONV_2D;
  /** [batches, height, width, channels]. */
  input: [number, number, number, number];
  kernel: [number, number];
  /** Output channels (depthwise: channels × depth multiplier). */
  outChannels: number;
  stride: number;
  padding: Padding;
  /** Real multiplier input_scale · filter_scale / output_scale the output scale is chosen for. */
  realMultiplier: number;
  /** ± spread of the input and filter bytes around their zero points (128 = full range). */
  spread: number;
}

/**
 * A uint8 CONV_2D or DEPTHWISE_CONV_2D (no activation, output zero point 128 ± 10) with seeded data; returns
 * TFLite's bytes, ops-reference's bytes and the two models' outputs from accumulators computed here.
 */
function runConv(c: ConvCase, seed: number): Tally {
  const next = rng(seed);
  const m = new Uint8ModelBuilder(next);
  const [n, h, w, cin] = c.input;
  const [kh, kw] = c.kernel;
  const depthwise = c.op === Op.DEPTHWISE_CONV_2D;
  const qi: Q8 = { scale: 0.02 + next() * 0.05, zeroPoint: 100 + Math.floor(next() * 56) };
  const qf: Q8 = { scale: 0.002 + next() * 0.02, zeroPoint: 100 + Math.floor(next() * 56) };
  const qo: Q8 = { scale: Math.fround(qi.scale * qf.scale) / c.realMultiplier, zeroPoint: 118 + Math.floor(next() * 21) };
  const gy = convGeometry(h, kh, c.stride, c.padding);
  const gx = convGeometry(w, kw, c.stride, c.padding);
  const cout = c.outChannels;
  const filterShape = depthwise ? [1, kh, kw, cout] : [cout, kh, kw, cin];
  const filter = near(
    next,
    filterShape.reduce((a, b) => a * b, 1),
    qf.zeroPoint,
    c.spread,
  );
  const bias = Int32Array.from({ length: cout }, () => Math.floor((next() * 2 - 1) * 40));
  const input = near(next, n * h * w * cin, qi.zeroPoint, c.spread);
  const x = m.act('x', [n, h, w, cin], qi);
  const f = m.b.addTensor({ name: 'f', type: TensorType.UINT8, shape: filterShape, data: filter, quantization: qf });
  const b = m.b.addTensor({
    name: 'b',
    type: TensorType.INT32,
    shape: [cout],
    data: bias,
    quantization: { scale: Math.fround(qi.scale * qf.scale), zeroPoint: 0 },
  });
  const y = m.act('y', [n, gy.out, gx.out, cout], qo);
  const options = { padding: c.padding, strideH: c.stride, strideW: c.stride, fusedActivationFunction: A.NONE };
  m.op(c.op, [x, f, b], [y], depthwise ? { ...options, depthMultiplier: cout / cin } : options);
  const bytes = m.build([x], [y]);

  const layer = {
    depthwise,
    inputShape: c.input,
    input,
    inputZeroPoint: qi.zeroPoint,
    filter,
    kernel: c.kernel,
    outChannels: cout,
    filterZeroPoint: qf.zeroPoint,
    bias,
    stride: [c.stride, c.stride] as const,
    padding: c.padding,
    multipliers: [uint8ConvMultiplier(qi.scale, qf.scale, qo.scale)],
    outputZeroPoint: qo.zeroPoint,
    actMin: 0,
    actMax: 255,
  };
  const byReference = quantizedConv(layer, referenceRequantize);
  const byRuy = quantizedConv(layer, ruyRequantize);
  const cmp = compareWithTflite(bytes, [input]);
  return tally(cmp.expected[0]!, cmp.got[0]!, byReference, byRuy);
}

/** A uint8 FULLY_CONNECTED (uint8 or int16 output, no activation) with seeded data, as {@link runConv}. */
function runFullyConnected(
  batches: number,
  depth: number,
  units: number,
  realMultiplier: number,
  spread: number,
  seed: number,
  int16Out = false,
): Tally {
  const next = rng(seed);
  const m = new Uint8ModelBuilder(next);
  const qi: Q8 = { scale: 0.02 + next() * 0.05, zeroPoint: 100 + Math.floor(next() * 56) };
  const qf: Q8 = { scale: 0.002 + next() * 0.02, zeroPoint: 100 + Math.floor(next() * 56) };
  const outScale = Math.fround(qi.scale * qf.scale) / realMultiplier;
  const outZero = int16Out ? 0 : 118 + Math.floor(next() * 21);
  const weights = near(next, units * depth, qf.zeroPoint, spread);
  const bias = Int32Array.from({ length: units }, () => Math.floor((next() * 2 - 1) * 40));
  const input = near(next, batches * depth, qi.zeroPoint, spread);
  const x = m.act('x', [batches, depth], qi);
  const wt = m.b.addTensor({ name: 'w', type: TensorType.UINT8, shape: [units, depth], data: weights, quantization: qf });
  const b = m.b.addTensor({
    name: 'b',
    type: TensorType.INT32,
    shape: [units],
    data: bias,
    quantization: { scale: Math.fround(qi.scale * qf.scale), zeroPoint: 0 },
  });
  const y = int16Out
    ? m.b.addTensor({ name: 'y', type: TensorType.INT16, shape: [batches, units], quantization: { scale: outScale, zeroPoint: 0 } })
    : m.act('y', [batches, units], { scale: outScale, zeroPoint: outZero });
  m.op(Op.FULLY_CONNECTED, [x, wt, b], [y], { fusedActivationFunction: A.NONE });
  const bytes = m.build([x], [y]);

  const [actMin, actMax] = int16Out ? [-32768, 32767] : [0, 255];
  const layer = {
    batches,
    depth,
    units,
    input,
    inputZeroPoint: qi.zeroPoint,
    weights,
    weightsZeroPoint: qf.zeroPoint,
    bias,
    multiplier: uint8ConvMultiplier(qi.scale, qf.scale, outScale),
    outputZeroPoint: outZero,
    actMin,
    actMax,
  };
  const byReference = quantizedFullyConnected(layer, referenceRequantize);
  const byRuy = quantizedFullyConnected(layer, ruyRequantize);
  const cmp = compareWithTflite(bytes, [input]);
  const values = (bytes: Uint8Array) => (int16Out ? new Int16Array(bytes.slice().buffer) : bytes);
  return tally(values(cmp.expected[0]!), values(cmp.got[0]!), byReference, byRuy);
}

/**
 * An int8 CONV_2D with per-channel filter scales (TFLite's optimized_integer_ops, which also reaches ruy
 * through cpu_backend_gemm), as {@link runConv}: `reference` here is TFLM's int8 kernel.
 */
function runInt8PerChannelConv(kernel: number, realMultiplier: number, spread: number, seed: number, depthwise = false): Tally {
  const next = rng(seed);
  const b = new ModelBuilder();
  const [hw, cin, cout] = [12, 8, 8];
  const si = 0.05;
  const zi = -5;
  const filterScales = Array.from({ length: cout }, () => 0.005 + next() * 0.01);
  const so = (si * 0.01) / realMultiplier;
  const zo = 3;
  const perChannel = (scales: number[], dim = 0) => ({ scale: scales, zeroPoint: scales.map(() => 0), quantizedDimension: dim });
  const filterShape = depthwise ? [1, kernel, kernel, cout] : [cout, kernel, kernel, cin];
  const filter = Int8Array.from({ length: filterShape.reduce((p, d) => p * d, 1) }, () => -spread + Math.floor(next() * (2 * spread + 1)));
  const bias = Int32Array.from({ length: cout }, () => Math.floor((next() * 2 - 1) * 50));
  const input = Int8Array.from({ length: hw * hw * cin }, () => zi - spread + Math.floor(next() * (2 * spread + 1)));
  const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [1, hw, hw, cin], quantization: { scale: si, zeroPoint: zi } });
  const f = b.addTensor({
    name: 'f',
    type: TensorType.INT8,
    shape: filterShape,
    data: filter,
    quantization: perChannel(filterScales, depthwise ? 3 : 0),
  });
  const bt = b.addTensor({
    name: 'b',
    type: TensorType.INT32,
    shape: [cout],
    data: bias,
    quantization: perChannel(filterScales.map((s) => Math.fround(si) * Math.fround(s))),
  });
  const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [1, hw, hw, cout], quantization: { scale: so, zeroPoint: zo } });
  const options = { padding: Padding.SAME, strideH: 1, strideW: 1, fusedActivationFunction: A.NONE };
  b.addOperator({
    op: depthwise ? Op.DEPTHWISE_CONV_2D : Op.CONV_2D,
    inputs: [x, f, bt],
    outputs: [y],
    options: depthwise ? { ...options, depthMultiplier: 1 } : options,
  });
  const bytes = b.setInputs([x]).setOutputs([y]).build();

  const layer = {
    depthwise,
    inputShape: [1, hw, hw, cin] as const,
    input,
    inputZeroPoint: zi,
    filter,
    kernel: [kernel, kernel] as const,
    outChannels: cout,
    filterZeroPoint: 0,
    bias,
    stride: [1, 1] as const,
    padding: Padding.SAME,
    // TFLite's and TFLM's per-channel multiplier: input_scale · filter_scale[c] / output_scale in double.
    multipliers: filterScales.map((s) => quantizeMultiplier((Math.fround(si) * Math.fround(s)) / Math.fround(so))),
    outputZeroPoint: zo,
    actMin: -128,
    actMax: 127,
  };
  const byReference = quantizedConv(layer, referenceRequantize);
  const byRuy = quantizedConv(layer, ruyRequantize);
  const cmp = compareWithTflite(bytes, [new Uint8Array(input.buffer)]);
  const int8 = (bytes: Uint8Array) => new Int8Array(bytes.slice().buffer);
  return tally(int8(cmp.expected[0]!), int8(cmp.got[0]!), byReference, byRuy);
}

/** An int8 FULLY_CONNECTED (per-tensor weights, no activation), as {@link runInt8PerChannelConv}. */
function runInt8FullyConnected(batches: number, realMultiplier: number, seed: number): Tally {
  const next = rng(seed);
  const b = new ModelBuilder();
  const [depth, units] = [48, 32];
  const [si, zi, sf, zo] = [0.05, -5, 0.01, 3];
  const so = (si * sf) / realMultiplier;
  const weights = Int8Array.from({ length: units * depth }, () => -4 + Math.floor(next() * 9));
  const bias = Int32Array.from({ length: units }, () => Math.floor((next() * 2 - 1) * 50));
  const input = Int8Array.from({ length: batches * depth }, () => zi - 4 + Math.floor(next() * 9));
  const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [batches, depth], quantization: { scale: si, zeroPoint: zi } });
  const w = b.addTensor({
    name: 'w',
    type: TensorType.INT8,
    shape: [units, depth],
    data: weights,
    quantization: { scale: sf, zeroPoint: 0 },
  });
  const bt = b.addTensor({
    name: 'b',
    type: TensorType.INT32,
    shape: [units],
    data: bias,
    quantization: { scale: Math.fround(Math.fround(si) * Math.fround(sf)), zeroPoint: 0 },
  });
  const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [batches, units], quantization: { scale: so, zeroPoint: zo } });
  b.addOperator({ op: Op.FULLY_CONNECTED, inputs: [x, w, bt], outputs: [y], options: { fusedActivationFunction: A.NONE } });
  const layer = {
    batches,
    depth,
    units,
    input,
    inputZeroPoint: zi,
    weights,
    weightsZeroPoint: 0,
    bias,
    multiplier: uint8ConvMultiplier(si, sf, so),
    outputZeroPoint: zo,
    actMin: -128,
    actMax: 127,
  };
  const cmp = compareWithTflite(b.setInputs([x]).setOutputs([y]).build(), [new Uint8Array(input.buffer)]);
  const int8 = (bytes: Uint8Array) => new Int8Array(bytes.slice().buffer);
  return tally(
    int8(cmp.expected[0]!),
    int8(cmp.got[0]!),
    quantizedFullyConnected(layer, referenceRequantize),
    quantizedFullyConnected(layer, ruyRequantize),
  );
}

describe.skipIf(!oracleAvailable)('uint8 rounding: which TFLite 2.9 kernels round like its reference kernels', () => {
  const conv = (c: Omit<ConvCase, 'op' | 'padding' | 'stride'> & Partial<ConvCase>): ConvCase => ({
    op: Op.CONV_2D,
    padding: Padding.SAME,
    stride: 1,
    ...c,
  });

  it.each([
    conv({
      name: '1x1, multiplier 0.3 (right shift 1)',
      input: [1, 12, 12, 16],
      kernel: [1, 1],
      outChannels: 8,
      realMultiplier: 0.3,
      spread: 4,
    }),
    conv({
      name: '1x1, multiplier 0.13 (right shift 2)',
      input: [1, 12, 12, 16],
      kernel: [1, 1],
      outChannels: 8,
      realMultiplier: 0.13,
      spread: 4,
    }),
    conv({ name: '1x1, multiplier 0.02', input: [2, 10, 10, 24], kernel: [1, 1], outChannels: 16, realMultiplier: 0.02, spread: 12 }),
    conv({ name: '3x3 SAME, multiplier 0.4', input: [1, 11, 9, 6], kernel: [3, 3], outChannels: 10, realMultiplier: 0.4, spread: 3 }),
    conv({
      name: '3x3 stride 2 VALID, multiplier 0.07',
      input: [2, 13, 13, 5],
      kernel: [3, 3],
      outChannels: 12,
      stride: 2,
      padding: Padding.VALID,
      realMultiplier: 0.07,
      spread: 5,
    }),
    // Full-range data with a MobileNet-like multiplier: the rules still part on some elements.
    conv({
      name: '1x1, full-range data, multiplier 0.004',
      input: [1, 14, 14, 32],
      kernel: [1, 1],
      outChannels: 32,
      realMultiplier: 0.004,
      spread: 128,
    }),
  ])('CONV_2D $name: TFLite rounds like ruy (second rounding ties up), ops-reference like the reference kernels', (c) => {
    expectRuy(c.name, runConv(c, 4242 + Math.round(c.realMultiplier * 1e4)));
  });

  it.each([
    [1, 64, 48, 0.3],
    [4, 40, 24, 0.13],
    [3, 100, 32, 0.03],
  ] as const)('FULLY_CONNECTED %i x %i → %i units, multiplier %d: TFLite rounds like ruy', (batches, depth, units, mult) => {
    expectRuy(`FC ${batches}x${depth}→${units}`, runFullyConnected(batches, depth, units, mult, 4, 7000 + units));
  });

  it('FULLY_CONNECTED uint8 → int16: TFLite rounds like ruy', () => {
    expectRuy('FC → int16', runFullyConnected(4, 48, 24, 0.3, 6, 7100, true));
  });

  it.each([
    [1, 0.3, 4],
    [3, 0.13, 3],
    [1, 0.01, 60],
  ] as const)(
    'int8 per-channel CONV_2D, kernel %i, multiplier %d: TFLite 2.9 rounds like ruy too, not like TFLM',
    (kernel, mult, spread) => {
      expectRuy(`int8 CONV_2D ${kernel}x${kernel}`, runInt8PerChannelConv(kernel, mult, spread, 9000 + kernel));
    },
  );

  it.each([
    [0.3, 4],
    [0.13, 6],
  ] as const)('int8 per-channel DEPTHWISE_CONV_2D 3×3, multiplier %d: TFLite 2.9 rounds like TFLM', (mult, spread) => {
    expectReference(`int8 DEPTHWISE_CONV_2D ${mult}`, runInt8PerChannelConv(3, mult, spread, 9100 + spread, true));
  });

  it.each([
    [1, 0.3],
    [4, 0.13],
  ] as const)('int8 FULLY_CONNECTED, %i batches, multiplier %d: TFLite 2.9 rounds like ruy, not like TFLM', (batches, mult) => {
    expectRuy(`int8 FC ${batches}`, runInt8FullyConnected(batches, mult, 9200 + batches));
  });

  it.each([
    conv({
      op: Op.DEPTHWISE_CONV_2D,
      name: '3x3 SAME, multiplier 0.3',
      input: [1, 12, 12, 8],
      kernel: [3, 3],
      outChannels: 8,
      realMultiplier: 0.3,
      spread: 6,
    }),
    conv({
      op: Op.DEPTHWISE_CONV_2D,
      name: '3x3 stride 2 SAME, depth multiplier 2, multiplier 0.13',
      input: [2, 11, 11, 4],
      kernel: [3, 3],
      outChannels: 8,
      stride: 2,
      realMultiplier: 0.13,
      spread: 8,
    }),
    conv({
      op: Op.DEPTHWISE_CONV_2D,
      name: '5x5 VALID, 16 channels, multiplier 0.05',
      input: [1, 14, 14, 16],
      kernel: [5, 5],
      outChannels: 16,
      padding: Padding.VALID,
      realMultiplier: 0.05,
      spread: 10,
    }),
  ])('DEPTHWISE_CONV_2D $name: TFLite rounds like its reference kernels (= ops-reference)', (c) => {
    expectReference(c.name, runConv(c, 5151 + Math.round(c.realMultiplier * 1e4)));
  });

  // ADD rescales both inputs after a left shift of 20, so its intermediate values are 2^19 times finer
  // than an output step: how a tie of its RoundingDivideByPOTs breaks does not reach the output bytes (a
  // ties-up variant of the reference ADD changes 15360 of the first quantization's 65536 rescaled inputs
  // and none of the outputs of any of the three). The check is exhaustive instead: every (a, b) pair.
  it('ADD, every pair of uint8 inputs: TFLite = ops-reference', () => {
    for (const [s1, s2, so, z1, z2, zo] of [
      [0.05, 0.03, 0.07, 128, 120, 131],
      [0.011, 0.019, 0.025, 90, 160, 128],
      [0.1, 0.1, 0.13, 0, 255, 128],
    ] as const) {
      const m = new Uint8ModelBuilder(rng(1));
      const a = m.act('a', [256, 256], { scale: s1, zeroPoint: z1 });
      const b = m.act('b', [256, 256], { scale: s2, zeroPoint: z2 });
      const y = m.act('y', [256, 256], { scale: so, zeroPoint: zo });
      m.op(Op.ADD, [a, b], [y], { fusedActivationFunction: A.NONE });
      const ina = Uint8Array.from({ length: 65536 }, (_, i) => i >> 8);
      const inb = Uint8Array.from({ length: 65536 }, (_, i) => i & 255);
      const cmp = compareWithTflite(m.build([a, b], [y]), [ina, inb]);
      expect(cmp.outputs[0]!.mismatches, `ADD scales ${s1}, ${s2} → ${so}`).toBe(0);
      expect(new Set(cmp.got[0]).size, 'outputs spread over many values').toBeGreaterThan(100);
    }
  });

  it('AVERAGE_POOL_2D (sum, then (sum + count/2) / count; edge windows with fewer taps): TFLite = ops-reference', () => {
    for (const [k, stride, padding, seed] of [
      [3, 1, Padding.SAME, 1],
      [3, 2, Padding.SAME, 2],
      [5, 3, Padding.VALID, 3],
      [7, 7, Padding.VALID, 4],
    ] as const) {
      const next = rng(8000 + seed);
      const m = new Uint8ModelBuilder(next);
      const q: Q8 = { scale: 0.05, zeroPoint: 128 };
      const gy = convGeometry(21, k, stride, padding);
      const x = m.act('x', [2, 21, 21, 6], q);
      const y = m.act('y', [2, gy.out, gy.out, 6], q);
      m.op(Op.AVERAGE_POOL_2D, [x], [y], { padding, strideH: stride, strideW: stride, filterHeight: k, filterWidth: k });
      const input = Uint8Array.from({ length: 2 * 21 * 21 * 6 }, () => Math.floor(next() * 256));
      const cmp = compareWithTflite(m.build([x], [y]), [input]);
      expect(cmp.outputs[0]!.mismatches, `pool ${k}x${k}/${stride}`).toBe(0);
      expect(cmp.got[0]!.length).toBe(2 * gy.out * gy.out * 6);
    }
  });
});
