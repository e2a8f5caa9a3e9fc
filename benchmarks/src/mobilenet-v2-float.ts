/**
 * A float32 MobileNetV2 (width 1.0, 224x224x3 input, 1001 classes) made with the model writer: the real
 * layer shapes of the network (stem conv, 17 inverted-residual blocks with their expansion factors,
 * strides and residual ADDs, the 1x1 conv to 1280 channels, average pool, classifier and softmax) with
 * batch norm folded into the conv biases, and deterministic random weights (variance 1/fan-in, so
 * activations stay in range). The weights are not trained: it measures speed and agreement between
 * runtimes on a real-sized float CNN, not accuracy.
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType } from '@micrort/core';

/** Deterministic floats, uniform in [-scale, scale) (an LCG seeded per tensor). */
export function seededFloats(n: number, seed: number, scale: number): Float32Array {
  const out = new Float32Array(n);
  let s = (seed * 2654435761) >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = ((s >>> 8) / 16777216 - 0.5) * 2 * scale;
  }
  return out;
}

/** The inverted-residual stages of MobileNetV2: expansion t, output channels c, repeats n, first stride s. */
export const MOBILENET_V2_STAGES: readonly { t: number; c: number; n: number; s: number }[] = [
  { t: 1, c: 16, n: 1, s: 1 },
  { t: 6, c: 24, n: 2, s: 2 },
  { t: 6, c: 32, n: 3, s: 2 },
  { t: 6, c: 64, n: 4, s: 2 },
  { t: 6, c: 96, n: 3, s: 1 },
  { t: 6, c: 160, n: 3, s: 2 },
  { t: 6, c: 320, n: 1, s: 1 },
];

/** Options of {@link buildMobileNetV2Float}. */
export interface MobileNetV2Options {
  /** Input height and width (default 224). */
  size?: number;
  /** Classes of the classifier (default 1001, as TF's MobileNetV2 .tflite files). */
  classes?: number;
}

/**
 * A float32 network under construction with the model writer: seeded weights (variance 1/fan-in) and
 * biases, SAME-padded CONV_2D and DEPTHWISE_CONV_2D layers with their output shapes (square maps).
 */
export class FloatNet {
  readonly b: ModelBuilder;
  private seed = 1;
  constructor(description: string) {
    this.b = new ModelBuilder({ description });
  }
  /** An activation tensor. */
  act(name: string, shape: number[]): number {
    return this.b.addTensor({ name, type: TensorType.FLOAT32, shape });
  }
  /** Constant weights, uniform with variance 1/fanIn. */
  weights(name: string, shape: number[], fanIn: number): number {
    const n = shape.reduce((p, d) => p * d, 1);
    return this.b.addTensor({ name, type: TensorType.FLOAT32, shape, data: seededFloats(n, this.seed++, Math.sqrt(3 / fanIn)) });
  }
  /** A constant bias of `n` small values. */
  bias(name: string, n: number): number {
    return this.b.addTensor({ name, type: TensorType.FLOAT32, shape: [n], data: seededFloats(n, this.seed++, 0.05) });
  }
  /** k x k CONV_2D, SAME padding, RELU6 / RELU / none; returns the output and its height (= width). */
  conv(name: string, input: number, h: number, cin: number, cout: number, k: number, stride: number, act: 'relu6' | 'relu' | 'none') {
    const ho = Math.ceil(h / stride);
    const y = this.act(name, [1, ho, ho, cout]);
    this.b.addOperator({
      op: BuiltinOperator.CONV_2D,
      inputs: [input, this.weights(`${name}/weights`, [cout, k, k, cin], k * k * cin), this.bias(`${name}/bias`, cout)],
      outputs: [y],
      options: { padding: Padding.SAME, strideH: stride, strideW: stride, fusedActivationFunction: ACTIVATIONS[act] },
    });
    return { y, h: ho };
  }
  /** 3x3 DEPTHWISE_CONV_2D, SAME padding, RELU6, with `dilation` (default 1). */
  depthwise(name: string, input: number, h: number, c: number, stride: number, dilation = 1) {
    const ho = Math.ceil(h / stride);
    const y = this.act(name, [1, ho, ho, c]);
    this.b.addOperator({
      op: BuiltinOperator.DEPTHWISE_CONV_2D,
      inputs: [input, this.weights(`${name}/weights`, [1, 3, 3, c], 9), this.bias(`${name}/bias`, c)],
      outputs: [y],
      options: {
        padding: Padding.SAME,
        strideH: stride,
        strideW: stride,
        dilationHFactor: dilation,
        dilationWFactor: dilation,
        depthMultiplier: 1,
        fusedActivationFunction: ActivationFunctionType.RELU6,
      },
    });
    return { y, h: ho };
  }
  /** AVERAGE_POOL_2D over the whole `h` x `h` map of `c` channels: a 1x1 map. */
  globalAveragePool(name: string, input: number, h: number, c: number): number {
    const y = this.act(name, [1, 1, 1, c]);
    this.b.addOperator({
      op: BuiltinOperator.AVERAGE_POOL_2D,
      inputs: [input],
      outputs: [y],
      options: { padding: Padding.VALID, strideH: 1, strideW: 1, filterHeight: h, filterWidth: h },
    });
    return y;
  }
  /**
   * MobileNetV2's stem and 17 inverted-residual blocks over the input `x` (`size` x `size` x 3). With
   * `outputStride` 16 (DeepLab's), the last stride-2 stage keeps stride 1 and every depthwise layer from
   * there on is dilated by 2 instead. Returns the last block's output (320 channels) and its height.
   */
  mobileNetV2Blocks(x: number, size: number, outputStride: 16 | 32 = 32) {
    let { y, h } = this.conv('Conv1', x, size, 3, 32, 3, 2, 'relu6');
    let c = 32;
    let block = 0;
    let stride = 2; // of the network so far
    let dilation = 1;
    for (const stage of MOBILENET_V2_STAGES) {
      for (let i = 0; i < stage.n; i++) {
        let s = i === 0 ? stage.s : 1;
        if (s === 2 && stride === outputStride) {
          s = 1;
          dilation *= 2;
        } else stride *= s;
        const name = `block_${block++}`;
        const input = y;
        let t = y;
        const expanded = c * stage.t;
        if (stage.t !== 1) t = this.conv(`${name}/expand`, t, h, c, expanded, 1, 1, 'relu6').y;
        const d = this.depthwise(`${name}/depthwise`, t, h, expanded, s, dilation);
        const p = this.conv(`${name}/project`, d.y, d.h, expanded, stage.c, 1, 1, 'none');
        if (s === 1 && c === stage.c) {
          const sum = this.act(`${name}/add`, [1, d.h, d.h, stage.c]);
          this.b.addOperator({ op: BuiltinOperator.ADD, inputs: [input, p.y], outputs: [sum] });
          y = sum;
        } else y = p.y;
        h = d.h;
        c = stage.c;
      }
    }
    return { y, h, c };
  }
}

const ACTIVATIONS = {
  relu6: ActivationFunctionType.RELU6,
  relu: ActivationFunctionType.RELU,
  none: ActivationFunctionType.NONE,
} as const;

/** Builds the float MobileNetV2-shaped model as .tflite bytes (about 14 MB of float32 weights at 224). */
export function buildMobileNetV2Float(options: MobileNetV2Options = {}): Uint8Array {
  const size = options.size ?? 224;
  const classes = options.classes ?? 1001;
  const net = new FloatNet('micrort benchmarks: float MobileNetV2 shape (untrained, seeded weights)');
  const b = net.b;
  const x = net.act('input', [1, size, size, 3]);
  const { y, h, c } = net.mobileNetV2Blocks(x, size);
  const head = net.conv('Conv_1', y, h, c, 1280, 1, 1, 'relu6');
  const pooled = net.globalAveragePool('avg_pool', head.y, head.h, 1280);
  const shape = b.addTensor({ name: 'reshape/shape', type: TensorType.INT32, shape: [2], data: Int32Array.of(1, 1280) });
  const flat = net.act('flat', [1, 1280]);
  b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [pooled, shape], outputs: [flat], options: { newShape: Int32Array.of(1, 1280) } });
  const logits = net.act('logits', [1, classes]);
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    inputs: [flat, net.weights('Logits/weights', [classes, 1280], 1280), net.bias('Logits/bias', classes)],
    outputs: [logits],
  });
  const probs = net.act('probs', [1, classes]);
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [logits], outputs: [probs], options: { beta: 1 } });
  return b.setInputs([x]).setOutputs([probs]).build();
}
