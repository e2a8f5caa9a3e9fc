/**
 * UNIDIRECTIONAL_SEQUENCE_RNN (TFLite unidirectional_sequence_rnn.cc), float32: the RNN cell of rnn.ts
 * run over every time step. Input [time, batch, inputSize] when `time_major`, else [batch, time,
 * inputSize]; weights, recurrent weights, bias and the hidden state (variable) [batch, units] as RNN's.
 * Output: the hidden state of every step, [time, batch, units] or [batch, time, units]. With int8 or
 * uint8 weights, TFLite's hybrid kernel (rnn-hybrid.ts).
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
import { bindHybridRnnCell, hybridRnnBatchStep, isHybridRnn, prepareHybridRnnCell, type HybridRnnCell } from './rnn-hybrid.js';
import { bindRnnCell, checkRnnActivation, checkRnnCell, emptyRnnCell, rnnWeightsDecline, type RnnCellInputs } from './rnn-cell.js';

const OP = 'UNIDIRECTIONAL_SEQUENCE_RNN';
const CELL: RnnCellInputs = { weights: 1, recurrentWeights: 2, bias: 3, hiddenState: 4, auxWeights: -1 };
const EMPTY = new Float32Array(0);

interface SequenceRnnOpData {
  cell: RnnCell;
  /** The hybrid cell (int8/uint8 weights), or null for float32 weights. */
  hybrid: HybridRnnCell | null;
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
  const d = opData<SequenceRnnOpData>(OP, node);
  d.hybrid = isHybridRnn(context, node, CELL.weights)
    ? prepareHybridRnnCell(OP, context, node, CELL, batch, inputSize, 0, options.asymmetricQuantizeInputs)
    : null;
  const units = d.hybrid ? d.hybrid.units : checkRnnCell(OP, context, node, CELL, batch, inputSize, 0);
  checkRnnActivation(OP, node, options.fusedActivationFunction);
  const output = setOutputShape(OP, context, node, 0, timeMajor ? [time, batch, units] : [batch, time, units]);
  expectType(OP, node, 'output', output, TensorType.FLOAT32);
  d.timeMajor = timeMajor;
  d.batch = batch;
  d.time = time;
  d.inputSize = inputSize;
  d.units = units;
  d.activation = options.fusedActivationFunction;
}

/** One step of `batches` rows: the float or the hybrid cell. */
function step(
  d: SequenceRnnOpData,
  x: Float32Array,
  xAt: number,
  batches: number,
  h: Float32Array,
  hAt: number,
  y: Float32Array,
  yAt: number,
): void {
  if (d.hybrid !== null) hybridRnnBatchStep(d.hybrid, x, xAt, EMPTY, 0, batches, d.activation, h, hAt, y, yAt, d.units);
  else rnnBatchStep(d.cell, d.units, d.inputSize, x, xAt, 0, EMPTY, 0, batches, d.activation, h, hAt, y, yAt, d.units);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SequenceRnnOpData>(OP, node);
  const hidden = d.hybrid !== null ? bindHybridRnnCell(context, node, CELL, d.hybrid) : bindRnnCell(context, node, CELL, d.cell);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { batch, time, inputSize, units } = d;
  if (d.timeMajor) {
    for (let s = 0; s < time; s++) step(d, x, s * batch * inputSize, batch, hidden, 0, y, s * batch * units);
    return;
  }
  for (let b = 0; b < batch; b++)
    for (let s = 0; s < time; s++) step(d, x, (b * time + s) * inputSize, 1, hidden, b * units, y, (b * time + s) * units);
}

/** UNIDIRECTIONAL_SEQUENCE_RNN registration (float32 and hybrid int8/uint8 weights; op versions 1..3). */
export const UNIDIRECTIONAL_SEQUENCE_RNN: Registration<SequenceRnnOpData> = {
  builtinCode: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_RNN,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 5, 1) ?? rnnWeightsDecline(context, node, [1, 2]),
  init: () => ({ cell: emptyRnnCell(), hybrid: null, timeMajor: false, batch: 0, time: 0, inputSize: 0, units: 0, activation: 0 }),
  prepare,
  invoke,
};
