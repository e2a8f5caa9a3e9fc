/**
 * A small float32 CNN made with the model writer, for trying and testing the GPU delegate. It uses every
 * op the delegate runs:
 *
 *   x [1,12,12,3] → PAD 1 → CONV_2D 3x3x8 VALID RELU → DEPTHWISE_CONV_2D 3x3 ×2 stride 2 SAME RELU6
 *   → MAX_POOL_2D 2x2/2 ─┬→ AVERAGE_POOL_2D 3x3/1 SAME ─┐
 *                        └──────────────────────────────┴→ ADD → RELU → MUL (per-channel scale) ─┐
 *         ┌─────────────────────────────────────────────────────────────────────────────────────┘
 *         ├→ RELU6 → TANH ─┐
 *         └→ LOGISTIC ─────┴→ SUB → MEAN over H,W (keep dims) → RESHAPE [1,16]
 *   → FULLY_CONNECTED 16→10 → SOFTMAX → y [1,10]
 *
 * Weights are deterministic (an LCG), so the model is the same everywhere.
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType } from '@micrort/core';

/** Deterministic floats in [-scale, scale). */
export function lcgFloats(n: number, seed: number, scale = 0.5): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = ((s >>> 8) / 16777216 - 0.5) * 2 * scale;
  }
  return out;
}

/** The float CNN's input shape. */
export const FLOAT_CNN_INPUT_SHAPE = [1, 12, 12, 3] as const;

/** Builds the float CNN as .tflite bytes. */
export function buildFloatCnn(): Uint8Array {
  const b = new ModelBuilder({ description: 'micrort float CNN (GPU delegate sample)' });
  const F = TensorType.FLOAT32;
  const act = (name: string, shape: number[]) => b.addTensor({ name, type: F, shape });
  const konst = (name: string, shape: number[], seed: number, scale = 0.5) =>
    b.addTensor({
      name,
      type: F,
      shape,
      data: lcgFloats(
        shape.reduce((s, d) => s * d, 1),
        seed,
        scale,
      ),
    });

  const x = act('x', [1, 12, 12, 3]);
  const paddings = b.addTensor({ name: 'paddings', type: TensorType.INT32, shape: [4, 2], data: Int32Array.of(0, 0, 1, 1, 1, 1, 0, 0) });
  const padded = act('padded', [1, 14, 14, 3]);
  b.addOperator({ op: BuiltinOperator.PAD, inputs: [x, paddings], outputs: [padded] });

  const convW = konst('conv/filter', [8, 3, 3, 3], 1);
  const convB = konst('conv/bias', [8], 2, 0.1);
  const conv = act('conv', [1, 12, 12, 8]);
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    inputs: [padded, convW, convB],
    outputs: [conv],
    options: { padding: Padding.VALID, strideH: 1, strideW: 1, fusedActivationFunction: ActivationFunctionType.RELU },
  });

  const dwW = konst('dw/filter', [1, 3, 3, 16], 3);
  const dwB = konst('dw/bias', [16], 4, 0.1);
  const dw = act('dw', [1, 6, 6, 16]);
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [conv, dwW, dwB],
    outputs: [dw],
    options: { padding: Padding.SAME, strideH: 2, strideW: 2, depthMultiplier: 2, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });

  const maxPool = act('max_pool', [1, 3, 3, 16]);
  b.addOperator({
    op: BuiltinOperator.MAX_POOL_2D,
    inputs: [dw],
    outputs: [maxPool],
    options: { padding: Padding.VALID, strideH: 2, strideW: 2, filterHeight: 2, filterWidth: 2 },
  });
  const avgPool = act('avg_pool', [1, 3, 3, 16]);
  b.addOperator({
    op: BuiltinOperator.AVERAGE_POOL_2D,
    inputs: [maxPool],
    outputs: [avgPool],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1, filterHeight: 3, filterWidth: 3 },
  });
  const sum = act('sum', [1, 3, 3, 16]);
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [maxPool, avgPool], outputs: [sum] });
  const relu = act('relu', [1, 3, 3, 16]);
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [sum], outputs: [relu] });
  const scale = konst('scale', [16], 5, 2);
  const scaled = act('scaled', [1, 3, 3, 16]);
  b.addOperator({ op: BuiltinOperator.MUL, inputs: [relu, scale], outputs: [scaled] });
  const clipped = act('relu6', [1, 3, 3, 16]);
  b.addOperator({ op: BuiltinOperator.RELU6, inputs: [scaled], outputs: [clipped] });
  const tanh = act('tanh', [1, 3, 3, 16]);
  b.addOperator({ op: BuiltinOperator.TANH, inputs: [clipped], outputs: [tanh] });
  const sig = act('logistic', [1, 3, 3, 16]);
  b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [scaled], outputs: [sig] });
  const diff = act('diff', [1, 3, 3, 16]);
  b.addOperator({ op: BuiltinOperator.SUB, inputs: [tanh, sig], outputs: [diff] });

  const axes = b.addTensor({ name: 'mean/axes', type: TensorType.INT32, shape: [2], data: Int32Array.of(1, 2) });
  const mean = act('mean', [1, 1, 1, 16]);
  b.addOperator({ op: BuiltinOperator.MEAN, inputs: [diff, axes], outputs: [mean], options: { keepDims: true } });
  const shape = b.addTensor({ name: 'reshape/shape', type: TensorType.INT32, shape: [2], data: Int32Array.of(1, 16) });
  const flat = act('flat', [1, 16]);
  b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [mean, shape], outputs: [flat], options: { newShape: Int32Array.of(1, 16) } });

  const fcW = konst('fc/weights', [10, 16], 6, 4);
  const fcB = konst('fc/bias', [10], 7, 0.5);
  const logits = act('logits', [1, 10]);
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [flat, fcW, fcB], outputs: [logits] });
  const y = act('y', [1, 10]);
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [logits], outputs: [y], options: { beta: 1 } });
  return b.setInputs([x]).setOutputs([y]).build();
}
