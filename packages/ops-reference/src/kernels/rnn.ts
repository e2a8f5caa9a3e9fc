/**
 * RNN (TFLite basic_rnn.cc), float32: one step of a fully connected recurrent cell,
 * output = activation(bias + W·input + R·hidden), and the hidden state (a variable tensor) takes the
 * output. Inputs: 0 input [batch, inputSize], 1 weights [units, inputSize], 2 recurrent weights
 * [units, units], 3 bias [units], 4 hidden state [batch, units]. Output [batch, units]. The hybrid
 * kernel (int8/uint8 weights) is declined.
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
import { bindRnnCell, checkRnnActivation, checkRnnCell, emptyRnnCell, rnnWeightsDecline, type RnnCellInputs } from './rnn-cell.js';

const OP = 'RNN';
const CELL: RnnCellInputs = { weights: 1, recurrentWeights: 2, bias: 3, hiddenState: 4, auxWeights: -1 };
const EMPTY = new Float32Array(0);

interface RnnOpData {
  cell: RnnCell;
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
  const units = checkRnnCell(OP, context, node, CELL, batch, inputSize, 0);
  checkRnnActivation(OP, node, options.fusedActivationFunction);
  const output = setOutputShape(OP, context, node, 0, [batch, units]);
  expectType(OP, node, 'output', output, TensorType.FLOAT32);
  const d = opData<RnnOpData>(OP, node);
  d.batch = batch;
  d.inputSize = inputSize;
  d.units = units;
  d.activation = options.fusedActivationFunction;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<RnnOpData>(OP, node);
  const hidden = bindRnnCell(context, node, CELL, d.cell);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  rnnBatchStep(d.cell, d.units, d.inputSize, x, 0, 0, EMPTY, 0, d.batch, d.activation, hidden, 0, y, 0, d.units);
}

/** RNN registration (float32; op versions 1..3 — the later versions add hybrid weights). */
export const RNN: Registration<RnnOpData> = {
  builtinCode: BuiltinOperator.RNN,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 5, 1) ?? rnnWeightsDecline(context, node, [1, 2]),
  init: () => ({ cell: emptyRnnCell(), batch: 0, inputSize: 0, units: 0, activation: 0 }),
  prepare,
  invoke,
};
