/**
 * Every GPU op kernel, one small model each (made by the model writer), in every gpu.js mode the machine
 * offers: the delegate must claim every node and match ops-reference within the stated tolerance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType, type BuiltinOptionsSpec } from '@micrort/core';
import { GpuDelegate } from '../gpu-delegate.js';
import { MODES, announceModes, expectClose, floats, interpreter, referenceOutputs, runWith } from '../__tests__/helpers.js';

const F = TensorType.FLOAT32;
const { RELU, RELU6, RELU_N1_TO_1 } = ActivationFunctionType;

interface OpCase {
  name: string;
  model: Uint8Array;
  inputs: Float32Array[];
}

interface Operand {
  shape: number[];
  /** Constant contents; omit for a model input. */
  data?: Float32Array | Int32Array;
}

/** A one-op model: `operands` are its inputs in order (constants or model inputs), one float output. */
function oneOp(
  name: string,
  op: BuiltinOperator,
  operands: Operand[],
  outShape: number[],
  options?: BuiltinOptionsSpec,
  inputRange: [number, number] = [-1, 1],
): OpCase {
  const b = new ModelBuilder();
  const modelInputs: number[] = [];
  const values: Float32Array[] = [];
  const ids = operands.map((o, k) => {
    if (o.data)
      return b.addTensor({ name: `c${k}`, type: o.data instanceof Int32Array ? TensorType.INT32 : F, shape: o.shape, data: o.data });
    const id = b.addTensor({ name: `x${k}`, type: F, shape: o.shape });
    modelInputs.push(id);
    values.push(
      floats(
        o.shape.reduce((s, d) => s * d, 1),
        11 + k,
        inputRange[0],
        inputRange[1],
      ),
    );
    return id;
  });
  const y = b.addTensor({ name: 'y', type: F, shape: outShape });
  b.addOperator({ op, inputs: ids, outputs: [y], ...(options ? { options } : {}) });
  return { name, model: b.setInputs(modelInputs).setOutputs([y]).build(), inputs: values };
}

const n = (shape: number[]) => shape.reduce((s, d) => s * d, 1);
const w = (shape: number[], seed: number, scale = 0.5) => ({ shape, data: floats(n(shape), seed, -scale, scale) });
const x = (shape: number[]) => ({ shape });

/** x → RELU → RESHAPE → y, and x → RESHAPE → y (the output aliases a subset input). */
function reshapeCases(): OpCase[] {
  const chained = new ModelBuilder();
  const a = chained.addTensor({ name: 'x', type: F, shape: [2, 3] });
  const r = chained.addTensor({ name: 'r', type: F, shape: [2, 3] });
  const y = chained.addTensor({ name: 'y', type: F, shape: [3, 2] });
  chained.addOperator({ op: BuiltinOperator.RELU, inputs: [a], outputs: [r] });
  chained.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [r], outputs: [y], options: { newShape: Int32Array.of(3, 2) } });
  return [
    { name: 'RELU → RESHAPE', model: chained.setInputs([a]).setOutputs([y]).build(), inputs: [floats(6, 3)] },
    oneOp(
      'RESHAPE alone (output aliases the subset input)',
      BuiltinOperator.RESHAPE,
      [x([2, 3]), { shape: [2], data: Int32Array.of(6, 1) }],
      [6, 1],
      {
        newShape: Int32Array.of(6, 1),
      },
    ),
  ];
}

const CASES: OpCase[] = [
  oneOp('FULLY_CONNECTED bias RELU, 2 batches', BuiltinOperator.FULLY_CONNECTED, [x([2, 5]), w([3, 5], 1), w([3], 2)], [2, 3], {
    fusedActivationFunction: RELU,
  }),
  oneOp('FULLY_CONNECTED no bias, input [1,2,3]', BuiltinOperator.FULLY_CONNECTED, [x([1, 2, 3]), w([4, 3], 3)], [2, 4]),
  oneOp('CONV_2D SAME stride 2 RELU_N1_TO_1', BuiltinOperator.CONV_2D, [x([1, 5, 6, 2]), w([3, 3, 3, 2], 4), w([3], 5)], [1, 3, 3, 3], {
    padding: Padding.SAME,
    strideH: 2,
    strideW: 2,
    fusedActivationFunction: RELU_N1_TO_1,
  }),
  oneOp('CONV_2D VALID dilation 2, 2 batches, no bias', BuiltinOperator.CONV_2D, [x([2, 7, 7, 3]), w([4, 2, 2, 3], 6)], [2, 5, 5, 4], {
    padding: Padding.VALID,
    strideH: 1,
    strideW: 1,
    dilationHFactor: 2,
    dilationWFactor: 2,
  }),
  oneOp(
    'DEPTHWISE_CONV_2D multiplier 2 SAME RELU6',
    BuiltinOperator.DEPTHWISE_CONV_2D,
    [x([1, 5, 5, 3]), w([1, 3, 3, 6], 7, 2), w([6], 8)],
    [1, 5, 5, 6],
    {
      padding: Padding.SAME,
      strideH: 1,
      strideW: 1,
      depthMultiplier: 2,
      fusedActivationFunction: RELU6,
    },
    [-3, 3],
  ),
  oneOp(
    'DEPTHWISE_CONV_2D VALID stride 2 dilation 2',
    BuiltinOperator.DEPTHWISE_CONV_2D,
    [x([1, 7, 7, 2]), w([1, 2, 2, 2], 9), w([2], 10)],
    [1, 3, 3, 2],
    {
      padding: Padding.VALID,
      strideH: 2,
      strideW: 2,
      depthMultiplier: 1,
      dilationHFactor: 2,
      dilationWFactor: 2,
    },
  ),
  oneOp('ADD broadcast [2,3,4] + [4] RELU', BuiltinOperator.ADD, [x([2, 3, 4]), w([4], 12)], [2, 3, 4], { fusedActivationFunction: RELU }),
  oneOp('SUB broadcast [1,3,1,2] - [2,1,4,1]', BuiltinOperator.SUB, [x([1, 3, 1, 2]), x([2, 1, 4, 1])], [2, 3, 4, 2]),
  oneOp('MUL same shapes RELU6', BuiltinOperator.MUL, [x([6]), w([6], 13, 8)], [6], { fusedActivationFunction: RELU6 }, [-4, 4]),
  oneOp('LOGISTIC over [-30, 30] (both cut-offs)', BuiltinOperator.LOGISTIC, [x([64])], [64], undefined, [-30, 30]),
  oneOp('TANH over [-50, 50]', BuiltinOperator.TANH, [x([64])], [64], undefined, [-50, 50]),
  oneOp('TANH near 0', BuiltinOperator.TANH, [x([32])], [32], undefined, [-0.01, 0.01]),
  oneOp('RELU', BuiltinOperator.RELU, [x([3, 5])], [3, 5]),
  oneOp('RELU6', BuiltinOperator.RELU6, [x([3, 5])], [3, 5], undefined, [-10, 10]),
  oneOp('AVERAGE_POOL_2D 3x3 SAME stride 2', BuiltinOperator.AVERAGE_POOL_2D, [x([1, 5, 5, 3])], [1, 3, 3, 3], {
    padding: Padding.SAME,
    strideH: 2,
    strideW: 2,
    filterHeight: 3,
    filterWidth: 3,
  }),
  oneOp('MAX_POOL_2D 2x3 VALID strides 2,3 RELU, 2 batches', BuiltinOperator.MAX_POOL_2D, [x([2, 4, 6, 2])], [2, 2, 2, 2], {
    padding: Padding.VALID,
    strideH: 2,
    strideW: 3,
    filterHeight: 2,
    filterWidth: 3,
    fusedActivationFunction: RELU,
  }),
  oneOp('SOFTMAX beta 0.5 over rows of 5', BuiltinOperator.SOFTMAX, [x([2, 5])], [2, 5], { beta: 0.5 }, [-20, 20]),
  ...reshapeCases(),
  oneOp('PAD 2-D', BuiltinOperator.PAD, [x([2, 3]), { shape: [2, 2], data: Int32Array.of(1, 0, 2, 1) }], [3, 6]),
  oneOp('PAD 4-D', BuiltinOperator.PAD, [x([1, 2, 2, 3]), { shape: [4, 2], data: Int32Array.of(0, 0, 1, 1, 0, 2, 0, 0) }], [1, 4, 4, 3]),
  oneOp('MEAN axis 1 of [2,3,4]', BuiltinOperator.MEAN, [x([2, 3, 4]), { shape: [1], data: Int32Array.of(1) }], [2, 4], {
    keepDims: false,
  }),
  oneOp('MEAN axes 1,2 keep dims', BuiltinOperator.MEAN, [x([1, 4, 4, 3]), { shape: [2], data: Int32Array.of(1, 2) }], [1, 1, 1, 3], {
    keepDims: true,
  }),
  oneOp('MEAN axis -1 of [3,5]', BuiltinOperator.MEAN, [x([3, 5]), { shape: [1], data: Int32Array.of(-1) }], [3], { keepDims: false }),
];

describe.each(MODES)('GPU op kernels in gpu.js mode %s', (mode) => {
  let delegate: GpuDelegate;
  beforeAll(() => {
    announceModes('ops-gpu kernels');
    delegate = new GpuDelegate({ mode });
    console.log(`GPU op kernels: running in gpu.js mode ${delegate.mode}`);
  });
  afterAll(() => delegate.destroy());

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const it = interpreter(c.model, [delegate]);
    const ops = it.model.subgraphs[0]!.operators.length;
    expect(it.partitions().map((p) => p.nodes)).toEqual([Array.from({ length: ops }, (_, i) => i)]);
    const want = referenceOutputs(c.model, c.inputs);
    expectClose(runWith(it, c.inputs), want, `${c.name} (${mode})`);
    // a second invoke with other inputs reuses the chain
    const other = c.inputs.map((v) => v.map((e) => -0.5 * e));
    expectClose(runWith(it, other), referenceOutputs(c.model, other), `${c.name} (${mode}), second invoke`);
    it.dispose();
  });
});
