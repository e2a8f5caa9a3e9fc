/**
 * Test support for the transposed convolutions: random TRANSPOSE_CONV models (TFLite's builtin: output
 * sizes any the input size allows, SAME/VALID, strides 1-3, kernels 2-5) and MediaPipe's
 * Convolution2DTransposeBias (its own output size rule), run through the reference kernels alone
 * (ops-reference, ops-mediapipe for the custom op) and with ops-wasm in front.
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, OpResolver, Padding, TensorType, type ModelDef } from '@micrort/core';
import { registerMediapipeOps, transposeConvBiasOptions } from '@micrort/ops-mediapipe';
import { registerReferenceOps } from '@micrort/ops-reference';
import { ACTIVATIONS, floats } from './single-op-float.js';
import { hybridInputs } from './single-op-hybrid.js';
import { int, int32s, int8s, pick, rng } from './single-op.js';

/** Geometry of a random transposed convolution. */
export interface TransposeConvCase {
  /** MediaPipe's Convolution2DTransposeBias instead of TRANSPOSE_CONV. */
  custom: boolean;
  batches: number;
  inH: number;
  inW: number;
  inC: number;
  outC: number;
  kH: number;
  kW: number;
  strideH: number;
  strideW: number;
  padding: Padding;
  /** TRANSPOSE_CONV: the output size, one of those the input size allows. */
  outH: number;
  outW: number;
  bias: boolean;
  activation: ActivationFunctionType;
  /** The filter is a graph input (packed again before every invoke). */
  dynamicFilter: boolean;
  seed: number;
}

/** An output size of TFLite's transposed convolution whose convolution gives `n` back. */
function outSize(r: () => number, padding: Padding, n: number, k: number, s: number): number {
  return padding === Padding.SAME ? n * s - int(r, 0, s - 1) : (n - 1) * s + k + int(r, 0, s - 1);
}

/** MediaPipe's output size (kernel-support's transposeConvBiasShape). */
function mediapipeOutSize(padding: Padding, n: number, k: number, s: number): number {
  const padTotal = padding === Padding.SAME ? Math.max(0, k - ((n - 1) % s) - 1) : 0;
  return s * (n - 1) + k - padTotal;
}

/** A random case on odd shapes (`custom`: MediaPipe's op, which always has a bias and no activation). */
export function randomTransposeConvCase(seed: number, custom: boolean): TransposeConvCase {
  const r = rng(seed);
  const c = {
    custom,
    batches: int(r, 1, 2),
    inH: int(r, 1, 9),
    inW: int(r, 1, 9),
    inC: int(r, 1, 21),
    outC: int(r, 1, 19),
    kH: int(r, 2, 5),
    kW: int(r, 2, 5),
    strideH: int(r, 1, 3),
    strideW: int(r, 1, 3),
    padding: r() < 0.5 ? Padding.SAME : Padding.VALID,
    outH: 0,
    outW: 0,
    bias: custom || r() < 0.8,
    activation: custom ? ActivationFunctionType.NONE : pick(r, ACTIVATIONS),
    dynamicFilter: r() < 0.1,
    seed,
  };
  c.outH = custom ? mediapipeOutSize(c.padding, c.inH, c.kH, c.strideH) : outSize(r, c.padding, c.inH, c.kH, c.strideH);
  c.outW = custom ? mediapipeOutSize(c.padding, c.inW, c.kW, c.strideW) : outSize(r, c.padding, c.inW, c.kW, c.strideW);
  return c;
}

/** The model of a case and its inputs (the input, then the filter when dynamic). */
export function buildTransposeConvF32(c: TransposeConvCase): { def: ModelDef; inputs: Float32Array[] } {
  const r = rng(c.seed * 7 + 3);
  const fan = c.kH * c.kW * c.inC;
  const weights = floats(r, c.outC * fan, -2 / Math.sqrt(fan), 2 / Math.sqrt(fan));
  const F = TensorType.FLOAT32;
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: F, shape: [c.batches, c.inH, c.inW, c.inC] });
  const wT = b.addTensor({ name: 'w', type: F, shape: [c.outC, c.kH, c.kW, c.inC], ...(c.dynamicFilter ? {} : { data: weights }) });
  const biasT = c.bias ? b.addTensor({ name: 'b', type: F, shape: [c.outC], data: floats(r, c.outC, -0.5, 0.5) }) : -1;
  const outShape = [c.batches, c.outH, c.outW, c.outC];
  const outT = b.addTensor({ name: 'out', type: F, shape: outShape });
  if (c.custom) {
    const padding = c.padding === Padding.SAME ? 'SAME' : 'VALID';
    b.addOperator({
      op: { custom: 'Convolution2DTransposeBias' },
      inputs: [inT, wT, biasT],
      outputs: [outT],
      customOptions: transposeConvBiasOptions(padding, c.strideW, c.strideH),
    });
  } else {
    const shapeT = b.addTensor({ name: 'shape', type: TensorType.INT32, shape: [4], data: Int32Array.from(outShape) });
    b.addOperator({
      op: BuiltinOperator.TRANSPOSE_CONV,
      version: 4,
      inputs: c.bias ? [shapeT, wT, inT, biasT] : [shapeT, wT, inT],
      outputs: [outT],
      options: { padding: c.padding, strideH: c.strideH, strideW: c.strideW, fusedActivationFunction: c.activation },
    });
  }
  b.setInputs(c.dynamicFilter ? [inT, wT] : [inT]).setOutputs([outT]);
  const input = floats(r, c.batches * c.inH * c.inW * c.inC);
  return { def: b.buildDef(), inputs: c.dynamicFilter ? [input, weights] : [input] };
}

/** ops-reference with ops-mediapipe (the reference of Convolution2DTransposeBias). */
export function referenceWithMediapipe(): OpResolver {
  return registerMediapipeOps(registerReferenceOps(new OpResolver()));
}

/** Quantization of a random int8 / uint8 TRANSPOSE_CONV case. */
export interface TransposeConvQuant {
  perChannel: boolean;
  inZp: number;
  outZp: number;
  /** Multiplier scale: > 1 makes left shifts. */
  gain: number;
  /** TFLite's uint8: uint8 tensors (zero points + 128), per-tensor, a random filter zero point. */
  uint8: boolean;
  /** 16x8: int16 activations (zero points 0), int8 filter, an int64 (or, when `bias16`, int16) bias. */
  int16: boolean;
  bias16: boolean;
}

/** A random quantization (`uint8`: TFLite's per-tensor uint8). */
export function randomTransposeConvQuant(seed: number, uint8: boolean, int16 = false): TransposeConvQuant {
  const r = rng(seed * 13 + 5);
  return {
    perChannel: !uint8 && r() < 0.7,
    inZp: int16 ? 0 : pick(r, [-128, 127, 0, int(r, -128, 127)]),
    outZp: int16 ? 0 : pick(r, [-128, 127, 0, int(r, -128, 127)]),
    gain: pick(r, [1, 1, 1, 40, 1e-3]),
    uint8,
    int16,
    bias16: int16 && r() < 0.3,
  };
}

/** The int8 (or uint8) model of a TRANSPOSE_CONV case (constant filter) and its input bytes. */
export function buildTransposeConvQ(c: TransposeConvCase, q: TransposeConvQuant): { def: ModelDef; input: Int8Array } {
  const r = rng(c.seed * 7 + 5);
  const u8 = q.uint8;
  const type = u8 ? TensorType.UINT8 : q.int16 ? TensorType.INT16 : TensorType.INT8;
  const inScale = 0.02 + r() * 0.05;
  const wScales = Array.from({ length: q.perChannel ? c.outC : 1 }, () => 0.002 + r() * 0.02);
  const k = (c.kH * c.kW * c.inC) / (c.strideH * c.strideW);
  const outScale = (inScale * wScales[0]! * Math.sqrt(k) * (q.int16 ? 40 : 150)) / q.gain;
  const wZp = u8 ? pick(r, [0, 255, 128, int(r, 0, 255)]) : 0;
  const weights = int8s(r, c.outC * c.kH * c.kW * c.inC);
  const b = new ModelBuilder();
  const inT = b.addTensor({
    name: 'in',
    type,
    shape: [c.batches, c.inH, c.inW, c.inC],
    quantization: { scale: inScale, zeroPoint: u8 ? q.inZp + 128 : q.inZp },
  });
  const wT = b.addTensor({
    name: 'w',
    type: q.int16 ? TensorType.INT8 : type,
    shape: [c.outC, c.kH, c.kW, c.inC],
    data: u8 ? new Uint8Array(weights.buffer) : weights,
    quantization: {
      scale: q.perChannel ? wScales : wScales[0]!,
      zeroPoint: q.perChannel ? wScales.map(() => 0) : wZp,
      quantizedDimension: 0,
    },
  });
  const outShape = [c.batches, c.outH, c.outW, c.outC];
  const shapeT = b.addTensor({ name: 'shape', type: TensorType.INT32, shape: [4], data: Int32Array.from(outShape) });
  const inputs = [shapeT, wT, inT];
  if (c.bias)
    inputs.push(
      b.addTensor({
        name: 'b',
        type: q.int16 ? (q.bias16 ? TensorType.INT16 : TensorType.INT64) : TensorType.INT32,
        shape: [c.outC],
        data: q.int16
          ? q.bias16
            ? Int16Array.from(int32s(r, c.outC, 30000))
            : BigInt64Array.from(int32s(r, c.outC, 2 ** 30), (v) => BigInt(v) * BigInt(int(r, 1, 1000)))
          : int32s(r, c.outC, 3000),
        quantization: u8
          ? { scale: Math.fround(inScale * wScales[0]!), zeroPoint: 0 }
          : { scale: wScales.map((s) => s * inScale), zeroPoint: wScales.map(() => 0) },
      }),
    );
  const outT = b.addTensor({
    name: 'out',
    type,
    shape: outShape,
    quantization: { scale: outScale, zeroPoint: u8 ? q.outZp + 128 : q.outZp },
  });
  b.addOperator({
    op: BuiltinOperator.TRANSPOSE_CONV,
    version: 3,
    inputs,
    outputs: [outT],
    options: { padding: c.padding, strideH: c.strideH, strideW: c.strideW, fusedActivationFunction: c.activation },
  });
  b.setInputs([inT]).setOutputs([outT]);
  const n = c.batches * c.inH * c.inW * c.inC;
  return { def: b.buildDef(), input: q.int16 ? new Int8Array(Int16Array.from(int32s(r, n, 32767)).buffer) : int8s(r, n) };
}

/**
 * The hybrid model of a TRANSPOSE_CONV case (float32 input and output, a constant int8 filter with one
 * scale or, when `perChannel`, one per output channel, a float32 bias) and its input: hybridInputs rows
 * (zero, one-signed and wide-ranged batches).
 */
export function buildTransposeConvHybrid(c: TransposeConvCase, perChannel: boolean): { def: ModelDef; input: Float32Array } {
  const r = rng(c.seed * 7 + 9);
  const F = TensorType.FLOAT32;
  const b = new ModelBuilder();
  const inT = b.addTensor({ name: 'in', type: F, shape: [c.batches, c.inH, c.inW, c.inC] });
  const scales = Array.from({ length: perChannel ? c.outC : 1 }, () => 0.002 + r() * 0.02);
  const wT = b.addTensor({
    name: 'w',
    type: TensorType.INT8,
    shape: [c.outC, c.kH, c.kW, c.inC],
    data: int8s(r, c.outC * c.kH * c.kW * c.inC),
    quantization: perChannel
      ? { scale: scales, zeroPoint: scales.map(() => 0), quantizedDimension: 0 }
      : { scale: scales[0]!, zeroPoint: 0 },
  });
  const biasT = c.bias ? b.addTensor({ name: 'b', type: F, shape: [c.outC], data: floats(r, c.outC, -0.5, 0.5) }) : -1;
  const outShape = [c.batches, c.outH, c.outW, c.outC];
  const outT = b.addTensor({ name: 'out', type: F, shape: outShape });
  const shapeT = b.addTensor({ name: 'shape', type: TensorType.INT32, shape: [4], data: Int32Array.from(outShape) });
  b.addOperator({
    op: BuiltinOperator.TRANSPOSE_CONV,
    version: 4,
    inputs: c.bias ? [shapeT, wT, inT, biasT] : [shapeT, wT, inT],
    outputs: [outT],
    options: { padding: c.padding, strideH: c.strideH, strideW: c.strideW, fusedActivationFunction: c.activation },
  });
  b.setInputs([inT]).setOutputs([outT]);
  return { def: b.buildDef(), input: hybridInputs(r, c.batches, c.inH * c.inW * c.inC) };
}
