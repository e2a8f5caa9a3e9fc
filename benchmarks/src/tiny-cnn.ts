import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType } from '@micrort/core';
import { seededFloats } from './mobilenet-v2-float.js';

/**
 * A tiny float CNN (8x8x3 → conv 3x3 stride 2 → depthwise 3x3 → mean → FC → softmax) for the harness's
 * own test: it runs in microseconds on every runtime.
 */
export function buildTinyFloatCnn(): Uint8Array {
  const b = new ModelBuilder({ description: 'micrort benchmarks: tiny float CNN (harness test)' });
  const F = TensorType.FLOAT32;
  const x = b.addTensor({ name: 'x', type: F, shape: [1, 8, 8, 3] });
  const c1 = b.addTensor({ name: 'conv', type: F, shape: [1, 4, 4, 8] });
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    inputs: [
      x,
      b.addTensor({ name: 'conv/w', type: F, shape: [8, 3, 3, 3], data: seededFloats(216, 1, 0.3) }),
      b.addTensor({ name: 'conv/b', type: F, shape: [8], data: seededFloats(8, 2, 0.1) }),
    ],
    outputs: [c1],
    options: { padding: Padding.SAME, strideH: 2, strideW: 2, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  const d1 = b.addTensor({ name: 'dw', type: F, shape: [1, 4, 4, 8] });
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [
      c1,
      b.addTensor({ name: 'dw/w', type: F, shape: [1, 3, 3, 8], data: seededFloats(72, 3, 0.3) }),
      b.addTensor({ name: 'dw/b', type: F, shape: [8], data: seededFloats(8, 4, 0.1) }),
    ],
    outputs: [d1],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1, depthMultiplier: 1, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  const axes = b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [2], data: Int32Array.of(1, 2) });
  const m = b.addTensor({ name: 'mean', type: F, shape: [1, 8] });
  b.addOperator({ op: BuiltinOperator.MEAN, inputs: [d1, axes], outputs: [m], options: { keepDims: false } });
  const logits = b.addTensor({ name: 'logits', type: F, shape: [1, 4] });
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    inputs: [
      m,
      b.addTensor({ name: 'fc/w', type: F, shape: [4, 8], data: seededFloats(32, 5, 1) }),
      b.addTensor({ name: 'fc/b', type: F, shape: [4], data: seededFloats(4, 6, 0.1) }),
    ],
    outputs: [logits],
  });
  const y = b.addTensor({ name: 'y', type: F, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [logits], outputs: [y], options: { beta: 1 } });
  return b.setInputs([x]).setOutputs([y]).build();
}
