/**
 * RNN (TFLite basic_rnn.cc), float32: one step of a fully connected recurrent cell,
 * output = activation(bias + W·input + R·hidden), and the hidden state (a variable tensor) takes the
 * output. Inputs: 0 input [batch, inputSize], 1 weights [units, inputSize], 2 recurrent weights
 * [units, units], 3 bias [units], 4 hidden state [batch, units]. Output [batch, units]. With int8 or
 * uint8 weights, TFLite's hybrid kernel (rnn-hybrid.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  type Node,
  type RNNOptions,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, expectType, opData, setOutputShape, shapeText } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { rnnBatchStep, type RnnCell } from './recurrent-float.js';
import { bindHybridRnnCell, hybridRnnBatchStep, isHybridRnn, prepareHybridRnnCell, type HybridRnnCell } from './rnn-hybrid.js';
import { bindRnnCell, checkRnnActivation, checkRnnCell, emptyRnnCell, rnnWeightsDecline, type RnnCellInputs } from './rnn-cell.js';

const OP = 'RNN';
const CELL: RnnCellInputs = { weights: 1, recurrentWeights: 2, bias: 3, hiddenState: 4, auxWeights: -1 };
const EMPTY = new Float32Array(0);

interface RnnOpData {
  cell: RnnCell;
  /** The hybrid cell (int8/uint8 weights), or null for float32 weights. */
  hybrid: HybridRnnCell | null;
  batch: number;
  inputSize: number;
  units: number;
  activation: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 5, 1);
  const options = node.builtinData as RNNOptions | null;
  if (!options) throw new KernelError(OP, node.index, 'missing RNNOptions');
  const input = getInput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TensorType.FLOAT32);
  if (input.dims.length !== 2)
    throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be 2-D, got ${shapeText(input.dims)}`);
  const batch = input.dims[0]!;
  const inputSize = input.dims[1]!;
  const d = opData<RnnOpData>(OP, node);
  d.hybrid = isHybridRnn(context, node, CELL.weights)
    ? prepareHybridRnnCell(OP, context, node, CELL, batch, inputSize, 0, options.asymmetricQuantizeInputs)
    : null;
  const units = d.hybrid ? d.hybrid.units : checkRnnCell(OP, context, node, CELL, batch, inputSize, 0);
  checkRnnActivation(OP, node, options.fusedActivationFunction);
  const output = setOutputShape(OP, context, node, 0, [batch, units]);
  expectType(OP, node, 'output', output, TensorType.FLOAT32);
  d.batch = batch;
  d.inputSize = inputSize;
  d.units = units;
  d.activation = options.fusedActivationFunction;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<RnnOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  if (d.hybrid !== null) {
    const h = bindHybridRnnCell(context, node, CELL, d.hybrid);
    hybridRnnBatchStep(d.hybrid, x, 0, EMPTY, 0, d.batch, d.activation, h, 0, y, 0, d.units);
    return;
  }
  const hidden = bindRnnCell(context, node, CELL, d.cell);
  rnnBatchStep(d.cell, d.units, d.inputSize, x, 0, 0, EMPTY, 0, d.batch, d.activation, hidden, 0, y, 0, d.units);
}

/** RNN registration (float32 and hybrid int8/uint8 weights; op versions 1..3). */
export const RNN: Registration<RnnOpData> = {
  builtinCode: BuiltinOperator.RNN,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 5, 1) ?? rnnWeightsDecline(context, node, [1, 2]),
  init: () => ({ cell: emptyRnnCell(), hybrid: null, batch: 0, inputSize: 0, units: 0, activation: 0 }),
  prepare,
  invoke,
};
