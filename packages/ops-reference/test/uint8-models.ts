/**
 * Converter-shaped uint8 models for the TFLite-oracle tests: TF1-style asymmetric uint8 quantization
 * (per-tensor scale and zero point everywhere, uint8 weights with a non-zero zero point, int32 biases
 * with scale input_scale * filter_scale), built with core's ModelBuilder from a seeded generator.
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType, type BuiltinOptionsSpec } from '@micrort/core';

/** A reproducible generator of numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

/** uint8 per-tensor quantization. */
export interface Q8 {
  scale: number;
  zeroPoint: number;
}

const count = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** Random uint8 bytes. */
export function randomU8(next: () => number, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
}

/** A ModelBuilder with helpers for uint8 tensors. */
export class Uint8ModelBuilder {
  readonly b = new ModelBuilder();
  constructor(readonly next: () => number) {}

  /** A uint8 activation (graph input or intermediate). */
  act(name: string, shape: number[], q: Q8): number {
    return this.b.addTensor({ name, type: TensorType.UINT8, shape, quantization: { scale: q.scale, zeroPoint: q.zeroPoint } });
  }

  /** A random uint8 constant (weights) with the given quantization. */
  weights(name: string, shape: number[], q: Q8): number {
    return this.b.addTensor({
      name,
      type: TensorType.UINT8,
      shape,
      data: randomU8(this.next, count(shape)),
      quantization: { scale: q.scale, zeroPoint: q.zeroPoint },
    });
  }

  /** A random int32 bias of `n` values in [-range, range) with scale inputScale * filterScale (float32 product). */
  bias(name: string, n: number, inputScale: number, filterScale: number, range = 2000): number {
    const data = Int32Array.from({ length: n }, () => Math.floor((this.next() * 2 - 1) * range));
    return this.b.addTensor({
      name,
      type: TensorType.INT32,
      shape: [n],
      data,
      quantization: { scale: Math.fround(inputScale * filterScale), zeroPoint: 0 },
    });
  }

  /** An int32 constant (shapes, axes, paddings). */
  int32(name: string, values: number[], shape = [values.length]): number {
    return this.b.addTensor({ name, type: TensorType.INT32, shape, data: Int32Array.from(values) });
  }

  op(op: BuiltinOperator, inputs: number[], outputs: number[], options?: BuiltinOptionsSpec, version?: number): void {
    this.b.addOperator({ op, inputs, outputs, options, version });
  }

  build(inputs: number[], outputs: number[]): Uint8Array {
    return this.b.setInputs(inputs).setOutputs(outputs).build();
  }
}

/**
 * A small TF1-style quantized MobileNet block: uint8 CONV_2D 3x3 stride 2 (RELU6) → DEPTHWISE_CONV_2D 3x3
 * (RELU6) → CONV_2D 1x1 (RELU6) → AVERAGE_POOL_2D over the whole map → CONV_2D 1x1 logits → RESHAPE →
 * SOFTMAX (output scale 1/256, zero point 0), as the TF1 quantized MobileNets end.
 */
export function mobilenetBlock(seed: number, size = 16, channels = 8, classes = 10): Uint8Array {
  const m = new Uint8ModelBuilder(rng(seed));
  const qIn: Q8 = { scale: 0.0078125, zeroPoint: 128 };
  const qW1: Q8 = { scale: 0.02, zeroPoint: 121 };
  const qA1: Q8 = { scale: 0.0235294, zeroPoint: 0 };
  const qDw: Q8 = { scale: 0.05, zeroPoint: 130 };
  const qA2: Q8 = { scale: 0.0235294, zeroPoint: 0 };
  const qPw: Q8 = { scale: 0.015, zeroPoint: 119 };
  const qA3: Q8 = { scale: 0.0235294, zeroPoint: 0 };
  const qFc: Q8 = { scale: 0.01, zeroPoint: 127 };
  const qLogits: Q8 = { scale: 0.025, zeroPoint: 128 };
  const half = size / 2;
  const x = m.act('input', [1, size, size, 3], qIn);
  const w1 = m.weights('conv1/weights', [channels, 3, 3, 3], qW1);
  const b1 = m.bias('conv1/bias', channels, qIn.scale, qW1.scale);
  const a1 = m.act('conv1/Relu6', [1, half, half, channels], qA1);
  m.op(BuiltinOperator.CONV_2D, [x, w1, b1], [a1], {
    padding: Padding.SAME,
    strideH: 2,
    strideW: 2,
    fusedActivationFunction: ActivationFunctionType.RELU6,
  });
  const wd = m.weights('dw/depthwise_weights', [1, 3, 3, channels], qDw);
  const bd = m.bias('dw/bias', channels, qA1.scale, qDw.scale);
  const a2 = m.act('dw/Relu6', [1, half, half, channels], qA2);
  m.op(BuiltinOperator.DEPTHWISE_CONV_2D, [a1, wd, bd], [a2], {
    padding: Padding.SAME,
    strideH: 1,
    strideW: 1,
    depthMultiplier: 1,
    fusedActivationFunction: ActivationFunctionType.RELU6,
  });
  const wp = m.weights('pw/weights', [2 * channels, 1, 1, channels], qPw);
  const bp = m.bias('pw/bias', 2 * channels, qA2.scale, qPw.scale);
  const a3 = m.act('pw/Relu6', [1, half, half, 2 * channels], qA3);
  m.op(BuiltinOperator.CONV_2D, [a2, wp, bp], [a3], {
    padding: Padding.SAME,
    strideH: 1,
    strideW: 1,
    fusedActivationFunction: ActivationFunctionType.RELU6,
  });
  const pooled = m.act('pool/AvgPool', [1, 1, 1, 2 * channels], qA3);
  m.op(BuiltinOperator.AVERAGE_POOL_2D, [a3], [pooled], {
    padding: Padding.VALID,
    strideH: 2,
    strideW: 2,
    filterHeight: half,
    filterWidth: half,
  });
  const wf = m.weights('logits/weights', [classes, 1, 1, 2 * channels], qFc);
  const bf = m.bias('logits/bias', classes, qA3.scale, qFc.scale);
  const logits = m.act('logits/Conv2d', [1, 1, 1, classes], qLogits);
  m.op(BuiltinOperator.CONV_2D, [pooled, wf, bf], [logits], { padding: Padding.SAME, strideH: 1, strideW: 1 });
  const shape = m.int32('reshape/shape', [1, classes]);
  const flat = m.act('Reshape', [1, classes], qLogits);
  m.op(BuiltinOperator.RESHAPE, [logits, shape], [flat], { newShape: Int32Array.of(1, classes) });
  const probs = m.act('Predictions', [1, classes], { scale: 1 / 256, zeroPoint: 0 });
  m.op(BuiltinOperator.SOFTMAX, [flat], [probs], { beta: 1 });
  return m.build([x], [probs]);
}

/**
 * The whole TF1 quantized MobileNet v1 topology (mobilenet_v1_<alpha>_<size>_quant): CONV_2D 3x3/2, 13
 * depthwise-separable blocks (DEPTHWISE_CONV_2D 3x3 + CONV_2D 1x1, RELU6, strides as the paper), global
 * AVERAGE_POOL_2D, CONV_2D 1x1 to `classes` logits, RESHAPE, SOFTMAX; random uint8 weights with
 * non-zero zero points, activations quantized to [0, 6] (scale 6/255, zero point 0) as the TF1 converter
 * writes them.
 */
export function mobilenetV1(seed: number, alpha = 0.25, size = 96, classes = 1001): Uint8Array {
  const m = new Uint8ModelBuilder(rng(seed));
  const qAct: Q8 = { scale: 0.023528477177023888, zeroPoint: 0 };
  const qIn: Q8 = { scale: 0.0078125, zeroPoint: 128 };
  // Weight scales that keep the activations mostly inside [0, 6] (about 60 steps of spread from a
  // K-term dot product of uniform bytes), as trained weights do, so deep layers are not all saturated.
  const weightQ = (k: number): Q8 => ({
    scale: (0.0135 / Math.sqrt(k)) * (0.8 + 0.4 * m.next()),
    zeroPoint: 100 + Math.floor(m.next() * 56),
  });
  const ch = (c: number) => Math.max(8, Math.round(c * alpha));
  const relu6 = { fusedActivationFunction: ActivationFunctionType.RELU6 };
  let hw = size;
  let c = 3;
  const x = m.act('input', [1, size, size, 3], qIn);
  let t = x;
  let q = qIn;
  const conv = (name: string, out: number, k: number, stride: number, act = true, qOut = qAct): void => {
    const qw = weightQ(k * k * c);
    const w = m.weights(`${name}/weights`, [out, k, k, c], qw);
    const b = m.bias(`${name}/bias`, out, q.scale, qw.scale, 30 / qw.scale);
    hw = Math.ceil(hw / stride);
    const y = m.act(name, [1, hw, hw, out], qOut);
    m.op(BuiltinOperator.CONV_2D, [t, w, b], [y], { padding: Padding.SAME, strideH: stride, strideW: stride, ...(act ? relu6 : {}) });
    t = y;
    c = out;
    q = qOut;
  };
  const depthwise = (name: string, stride: number): void => {
    const qw = weightQ(9);
    const w = m.weights(`${name}/depthwise_weights`, [1, 3, 3, c], qw);
    const b = m.bias(`${name}/bias`, c, q.scale, qw.scale, 30 / qw.scale);
    hw = Math.ceil(hw / stride);
    const y = m.act(name, [1, hw, hw, c], qAct);
    m.op(BuiltinOperator.DEPTHWISE_CONV_2D, [t, w, b], [y], {
      padding: Padding.SAME,
      strideH: stride,
      strideW: stride,
      depthMultiplier: 1,
      ...relu6,
    });
    t = y;
    q = qAct;
  };
  conv('Conv2d_0', ch(32), 3, 2);
  const blocks: [number, number][] = [
    [64, 1],
    [128, 2],
    [128, 1],
    [256, 2],
    [256, 1],
    [512, 2],
    [512, 1],
    [512, 1],
    [512, 1],
    [512, 1],
    [512, 1],
    [1024, 2],
    [1024, 1],
  ];
  blocks.forEach(([out, stride], i) => {
    depthwise(`Conv2d_${i + 1}_depthwise`, stride);
    conv(`Conv2d_${i + 1}_pointwise`, ch(out), 1, 1);
  });
  const pooled = m.act('AvgPool_1a', [1, 1, 1, c], qAct);
  m.op(BuiltinOperator.AVERAGE_POOL_2D, [t], [pooled], {
    padding: Padding.VALID,
    strideH: 2,
    strideW: 2,
    filterHeight: hw,
    filterWidth: hw,
  });
  t = pooled;
  hw = 1;
  conv('Conv2d_1c_1x1', classes, 1, 1, false, { scale: 0.08, zeroPoint: 80 });
  const flat = m.act('Reshape', [1, classes], q);
  m.op(BuiltinOperator.RESHAPE, [t, m.int32('shape', [1, classes])], [flat], { newShape: Int32Array.of(1, classes) });
  const probs = m.act('Predictions', [1, classes], { scale: 1 / 256, zeroPoint: 0 });
  m.op(BuiltinOperator.SOFTMAX, [flat], [probs], { beta: 1 });
  return m.build([x], [probs]);
}
