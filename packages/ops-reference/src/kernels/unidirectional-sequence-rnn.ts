/**
 * UNIDIRECTIONAL_SEQUENCE_RNN (TFLite unidirectional_sequence_rnn.cc), float32: the RNN cell of rnn.ts
 * run over every time step. Input [time, batch, inputSize] when `time_major`, else [batch, time,
 * inputSize]; weights, recurrent weights, bias and the hidden state (variable) [batch, units] as RNN's.
 * Output: the hidden state of every step, [time, batch, units] or [batch, time, units]. The hybrid
 * kernel (int8/uint8 weights) is declined.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  type Node,
  type Registration,
  type SequenceRNNOptions,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, expectType, opData, setOutputShape, shapeText } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { rnnBatchStep, type RnnCell } from './recurrent-float.js';
import { bindRnnCell, checkRnnActivation, checkRnnCell, emptyRnnCell, rnnWeightsDecline, type RnnCellInputs } from './rnn-cell.js';

const OP = 'UNIDIRECTIONAL_SEQUENCE_RNN';
const CELL: RnnCellInputs = { weights: 1, recurrentWeights: 2, bias: 3, hiddenState: 4, auxWeights: -1 };
const EMPTY = new Float32Array(0);

interface SequenceRnnOpData {
  cell: RnnCell;
  timeMajor: boolean;
  batch: number;
  time: number;
  inputSize: number;
  units: number;
  activation: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 5, 1);
  const options = node.builtinData as SequenceRNNOptions | null;
  if (!options) throw new KernelError(OP, node.index, 'missing SequenceRNNOptions');
  const input = getInput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TensorType.FLOAT32);
  if (input.dims.length !== 3)
    throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be 3-D, got ${shapeText(input.dims)}`);
  const timeMajor = options.timeMajor;
  const batch = timeMajor ? input.dims[1]! : input.dims[0]!;
  const time = timeMajor ? input.dims[0]! : input.dims[1]!;
  const inputSize = input.dims[2]!;
  const units = checkRnnCell(OP, context, node, CELL, batch, inputSize, 0);
  checkRnnActivation(OP, node, options.fusedActivationFunction);
  const output = setOutputShape(OP, context, node, 0, timeMajor ? [time, batch, units] : [batch, time, units]);
  expectType(OP, node, 'output', output, TensorType.FLOAT32);
  const d = opData<SequenceRnnOpData>(OP, node);
  d.timeMajor = timeMajor;
  d.batch = batch;
  d.time = time;
  d.inputSize = inputSize;
  d.units = units;
  d.activation = options.fusedActivationFunction;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SequenceRnnOpData>(OP, node);
  const hidden = bindRnnCell(context, node, CELL, d.cell);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { batch, time, inputSize, units, activation } = d;
  if (d.timeMajor) {
    for (let s = 0; s < time; s++)
      rnnBatchStep(
        d.cell,
        units,
        inputSize,
        x,
        s * batch * inputSize,
        0,
        EMPTY,
        0,
        batch,
        activation,
        hidden,
        0,
        y,
        s * batch * units,
        units,
      );
    return;
  }
  for (let b = 0; b < batch; b++)
    for (let s = 0; s < time; s++)
      rnnBatchStep(
        d.cell,
        units,
        inputSize,
        x,
        (b * time + s) * inputSize,
        0,
        EMPTY,
        0,
        1,
        activation,
        hidden,
        b * units,
        y,
        (b * time + s) * units,
        units,
      );
}

/** UNIDIRECTIONAL_SEQUENCE_RNN registration (float32; op versions 1..3 — later ones add hybrid weights). */
export const UNIDIRECTIONAL_SEQUENCE_RNN: Registration<SequenceRnnOpData> = {
  builtinCode: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_RNN,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 5, 1) ?? rnnWeightsDecline(context, node, [1, 2]),
  init: () => ({ cell: emptyRnnCell(), timeMajor: false, batch: 0, time: 0, inputSize: 0, units: 0, activation: 0 }),
  prepare,
  invoke,
};
