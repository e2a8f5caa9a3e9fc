/**
 * A uint8 MobileNetV2 (TFLite's asymmetric quantization, as the TF1-era "quantized MobileNet" files and
 * Coral's models use it) made with the model writer: the layer shapes of buildMobileNetV2Float (stem
 * conv, 17 inverted-residual blocks with residual ADDs, 1x1 conv to 1280, average pool, classifier,
 * softmax) with uint8 activations (RELU6 outputs on [0, 6], linear ones and sums around zero point 128),
 * uint8 weights with per-tensor scales and zero points near 128, and int32 biases. Seeded, untrained
 * weights: it measures speed and agreement between runtimes on a real-sized uint8 CNN, not accuracy.
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType } from '@micrort/core';
import { MOBILENET_V2_STAGES, seededFloats, type MobileNetV2Options } from './mobilenet-v2-float.js';

/** Builds the uint8 MobileNetV2-shaped model as .tflite bytes (about 3.5 MB of uint8 weights at 224). */
export function buildMobileNetV2Uint8(options: MobileNetV2Options = {}): Uint8Array {
  const size = options.size ?? 224;
  const classes = options.classes ?? 1001;
  const b = new ModelBuilder({ description: 'micrort benchmarks: uint8 MobileNetV2 shape (untrained, seeded weights)' });
  const U8 = TensorType.UINT8;
  let seed = 1;
  const scales = new Map<number, number>();
  const act = (name: string, shape: number[], scale: number, zeroPoint: number) => {
    const t = b.addTensor({ name, type: U8, shape, quantization: { scale, zeroPoint } });
    scales.set(t, scale);
    return t;
  };
  const RELU6 = 6 / 255;
  const LINEAR = 0.05;
  const weights = (name: string, shape: number[], fanIn: number) => {
    const n = shape.reduce((p, d) => p * d, 1);
    const f = seededFloats(n, seed, Math.sqrt(3 / fanIn));
    const scale = Math.sqrt(3 / fanIn) / 127;
    const zeroPoint = 120 + (seed++ % 16);
    const data = new Uint8Array(n);
    for (let i = 0; i < n; i++) data[i] = Math.max(0, Math.min(255, Math.round(f[i]! / scale) + zeroPoint));
    return { t: b.addTensor({ name, type: U8, shape, data, quantization: { scale, zeroPoint } }), scale };
  };
  const bias = (name: string, n: number, scale: number) => {
    const f = seededFloats(n, seed++, 0.05);
    const data = Int32Array.from(f, (v) => Math.round(v / scale));
    return b.addTensor({ name, type: TensorType.INT32, shape: [n], data, quantization: { scale, zeroPoint: 0 } });
  };
  const out = (h: number, stride: number) => Math.ceil(h / stride);

  /** 1x1 or 3x3 CONV_2D, SAME padding. */
  const conv = (name: string, input: number, h: number, cin: number, cout: number, k: number, stride: number, relu6: boolean) => {
    const ho = out(h, stride);
    const y = relu6 ? act(name, [1, ho, ho, cout], RELU6, 0) : act(name, [1, ho, ho, cout], LINEAR, 128);
    const w = weights(`${name}/weights`, [cout, k, k, cin], k * k * cin);
    b.addOperator({
      op: BuiltinOperator.CONV_2D,
      inputs: [input, w.t, bias(`${name}/bias`, cout, Math.fround(scales.get(input)! * w.scale))],
      outputs: [y],
      options: {
        padding: Padding.SAME,
        strideH: stride,
        strideW: stride,
        fusedActivationFunction: relu6 ? ActivationFunctionType.RELU6 : ActivationFunctionType.NONE,
      },
    });
    return { y, h: ho };
  };
  /** 3x3 DEPTHWISE_CONV_2D, SAME padding, RELU6. */
  const depthwise = (name: string, input: number, h: number, c: number, stride: number) => {
    const ho = out(h, stride);
    const y = act(name, [1, ho, ho, c], RELU6, 0);
    const w = weights(`${name}/weights`, [1, 3, 3, c], 9);
    b.addOperator({
      op: BuiltinOperator.DEPTHWISE_CONV_2D,
      inputs: [input, w.t, bias(`${name}/bias`, c, Math.fround(scales.get(input)! * w.scale))],
      outputs: [y],
      options: {
        padding: Padding.SAME,
        strideH: stride,
        strideW: stride,
        depthMultiplier: 1,
        fusedActivationFunction: ActivationFunctionType.RELU6,
      },
    });
    return { y, h: ho };
  };

  const x = act('input', [1, size, size, 3], 1 / 128, 128);
  let { y, h } = conv('Conv1', x, size, 3, 32, 3, 2, true);
  let c = 32;
  let block = 0;
  for (const stage of MOBILENET_V2_STAGES) {
    for (let i = 0; i < stage.n; i++) {
      const stride = i === 0 ? stage.s : 1;
      const name = `block_${block++}`;
      const input = y;
      let t = y;
      const expanded = c * stage.t;
      if (stage.t !== 1) t = conv(`${name}/expand`, t, h, c, expanded, 1, 1, true).y;
      const d = depthwise(`${name}/depthwise`, t, h, expanded, stride);
      const p = conv(`${name}/project`, d.y, d.h, expanded, stage.c, 1, 1, false);
      if (stride === 1 && c === stage.c) {
        const sum = act(`${name}/add`, [1, d.h, d.h, stage.c], 1.5 * LINEAR, 128);
        b.addOperator({ op: BuiltinOperator.ADD, inputs: [input, p.y], outputs: [sum] });
        y = sum;
      } else y = p.y;
      h = d.h;
      c = stage.c;
    }
  }
  const head = conv('Conv_1', y, h, c, 1280, 1, 1, true);
  const pooled = act('avg_pool', [1, 1, 1, 1280], RELU6, 0);
  b.addOperator({
    op: BuiltinOperator.AVERAGE_POOL_2D,
    inputs: [head.y],
    outputs: [pooled],
    options: { padding: Padding.VALID, strideH: 1, strideW: 1, filterHeight: head.h, filterWidth: head.h },
  });
  const shape = b.addTensor({ name: 'reshape/shape', type: TensorType.INT32, shape: [2], data: Int32Array.of(1, 1280) });
  const flat = act('flat', [1, 1280], RELU6, 0);
  b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [pooled, shape], outputs: [flat], options: { newShape: Int32Array.of(1, 1280) } });
  const logits = act('logits', [1, classes], 0.1, 128);
  const fc = weights('Logits/weights', [classes, 1280], 1280);
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    inputs: [flat, fc.t, bias('Logits/bias', classes, Math.fround(RELU6 * fc.scale))],
    outputs: [logits],
  });
  const probs = act('probs', [1, classes], 1 / 256, 0);
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [logits], outputs: [probs], options: { beta: 1 } });
  return b.setInputs([x]).setOutputs([probs]).build();
}
