import { ActivationFunctionType, BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';

/** Deterministic pseudo-random int8 weights (LCG), so the demo model is the same everywhere. */
function weights(n: number, seed: number): Int8Array {
  const w = new Int8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    w[i] = (s >>> 24) - 128;
  }
  return w;
}

/**
 * The built-in demo model, made with the model writer (no downloaded file needed): a small int8 MLP
 * classifier with float input and output.
 *
 *   x float32[1,16] → QUANTIZE int8 → FULLY_CONNECTED (per-channel int8 weights [32,16], int32 bias, RELU)
 *   → FULLY_CONNECTED (per-tensor int8 weights [4,32]) → SOFTMAX int8 → DEQUANTIZE → y float32[1,4]
 */
export function buildDemoModel(): Uint8Array {
  const b = new ModelBuilder({ description: 'micrort demo: int8 MLP classifier' });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 16] });
  const xq = b.addTensor({ name: 'x_int8', type: TensorType.INT8, shape: [1, 16], quantization: { scale: 1 / 128, zeroPoint: 0 } });
  const w1Scales = Array.from({ length: 32 }, (_, i) => 0.004 + 0.0001 * i);
  const w1 = b.addTensor({
    name: 'fc1/weights',
    type: TensorType.INT8,
    shape: [32, 16],
    data: weights(32 * 16, 7),
    quantization: { scale: w1Scales, zeroPoint: 0, quantizedDimension: 0 },
  });
  const b1 = b.addTensor({
    name: 'fc1/bias',
    type: TensorType.INT32,
    shape: [32],
    data: Int32Array.from({ length: 32 }, (_, i) => (i % 5) * 300 - 600),
    quantization: { scale: w1Scales.map((s) => s / 128), zeroPoint: 0 },
  });
  const h = b.addTensor({ name: 'fc1/relu', type: TensorType.INT8, shape: [1, 32], quantization: { scale: 0.02, zeroPoint: -128 } });
  const w2 = b.addTensor({
    name: 'fc2/weights',
    type: TensorType.INT8,
    shape: [4, 32],
    data: weights(4 * 32, 11),
    quantization: { scale: 0.01, zeroPoint: 0 },
  });
  const logits = b.addTensor({ name: 'logits', type: TensorType.INT8, shape: [1, 4], quantization: { scale: 0.1, zeroPoint: 0 } });
  const probs = b.addTensor({
    name: 'probs_int8',
    type: TensorType.INT8,
    shape: [1, 4],
    quantization: { scale: 1 / 256, zeroPoint: -128 },
  });
  const y = b.addTensor({ name: 'probs', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [x], outputs: [xq] });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    version: 4,
    inputs: [xq, w1, b1],
    outputs: [h],
    options: { fusedActivationFunction: ActivationFunctionType.RELU },
  });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, version: 4, inputs: [h, w2, -1], outputs: [logits] });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, version: 2, inputs: [logits], outputs: [probs], options: { beta: 1 } });
  b.addOperator({ op: BuiltinOperator.DEQUANTIZE, version: 2, inputs: [probs], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}
