/**
 * A hybrid MobileNetV2 (float32 activations × int8 weights, the converter's dynamic-range quantization)
 * made from buildMobileNetV2Float: every CONV_2D and DEPTHWISE_CONV_2D filter quantized to int8 per
 * output channel and the classifier's FULLY_CONNECTED weights per tensor, symmetric (scale max|w| / 127,
 * as the converter's weight-only quantization), biases and activations left float32. TFLite runs such a
 * model through its hybrid kernels, quantizing each layer's input at run time. Seeded, untrained weights:
 * it measures speed and agreement between runtimes, not accuracy.
 */
import { BuiltinOperator, TensorType, loadModel, writeModel } from '@micrort/core';
import { buildMobileNetV2Float, type MobileNetV2Options } from './mobilenet-v2-float.js';

/** Symmetric int8 values of `w` with one scale per slice along `dim` of `shape` (one scale when `dim` is -1). */
function quantizeSymmetric(w: Float32Array, shape: Int32Array, dim: number): { q: Int8Array; scales: Float32Array } {
  const channels = dim < 0 ? 1 : shape[dim]!;
  let inner = 1;
  for (let d = dim + 1; d < shape.length && dim >= 0; d++) inner *= shape[d]!;
  const channelOf = (i: number) => (dim < 0 ? 0 : Math.floor(i / inner) % channels);
  const max = new Float32Array(channels);
  for (let i = 0; i < w.length; i++) max[channelOf(i)] = Math.max(max[channelOf(i)]!, Math.abs(w[i]!));
  const scales = Float32Array.from(max, (m) => (m > 0 ? m / 127 : 1));
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(w[i]! / scales[channelOf(i)]!)));
  return { q, scales };
}

/** Builds the hybrid MobileNetV2-shaped model as .tflite bytes (about 3.5 MB of int8 weights at 224). */
export function buildMobileNetV2Hybrid(options: MobileNetV2Options = {}): Uint8Array {
  const def = loadModel(buildMobileNetV2Float(options));
  def.description = 'micrort benchmarks: hybrid MobileNetV2 shape, float32 activations x int8 weights (untrained, seeded weights)';
  const sg = def.subgraphs[0]!;
  for (const op of sg.operators) {
    const code = def.operatorCodes[op.opcodeIndex]!.builtinCode;
    const dim =
      code === BuiltinOperator.CONV_2D
        ? 0
        : code === BuiltinOperator.DEPTHWISE_CONV_2D
          ? 3
          : code === BuiltinOperator.FULLY_CONNECTED
            ? -1
            : null;
    if (dim === null) continue;
    const t = sg.tensors[op.inputs[1]!]!;
    const data = def.buffers[t.buffer]!.data;
    if (t.type !== TensorType.FLOAT32 || data.byteLength === 0) continue;
    const w = new Float32Array(data.slice().buffer);
    const { q, scales } = quantizeSymmetric(w, t.shape, dim);
    t.type = TensorType.INT8;
    t.quantization = { scale: scales, zeroPoint: new Int32Array(scales.length), quantizedDimension: Math.max(0, dim) };
    def.buffers[t.buffer] = { data: new Uint8Array(q.buffer) };
  }
  return writeModel(def);
}
