/**
 * BIDIRECTIONAL_SEQUENCE_RNN (TFLite bidirectional_sequence_rnn.cc), float32: a forward RNN cell run over
 * the time steps in order and a backward cell run in reverse, each with its own weights and hidden state
 * (variables). Inputs: 0 input [time, batch, inputSize] (`time_major`) or [batch, time, inputSize];
 * 1–4 forward weights, recurrent weights, bias, hidden state; 5–8 the backward ones; 9 optional aux
 * input (the input's leading dimensions); 10, 11 optional forward/backward aux weights. With aux
 * weights both cells also read the aux input (stacking with cross links); with an aux input and no
 * aux weights the backward cell reads the aux input instead of the input (stacking without them).
 * Outputs: the forward and backward hidden states of every step, or one output holding both side by
 * side when `merge_outputs`. The hybrid kernel (int8/uint8 weights) is declined.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  type BidirectionalSequenceRNNOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, expectType, opData, sameDims, setOutputShape, shapeText } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { rnnBatchStep, type RnnCell } from './recurrent-float.js';
import { bindRnnCell, checkRnnActivation, checkRnnCell, emptyRnnCell, rnnWeightsDecline, type RnnCellInputs } from './rnn-cell.js';

const OP = 'BIDIRECTIONAL_SEQUENCE_RNN';
const FW: RnnCellInputs = { weights: 1, recurrentWeights: 2, bias: 3, hiddenState: 4, auxWeights: 10 };
const BW: RnnCellInputs = { weights: 5, recurrentWeights: 6, bias: 7, hiddenState: 8, auxWeights: 11 };
const AUX_INPUT = 9;
const EMPTY = new Float32Array(0);

interface BidiRnnOpData {
  fw: RnnCell;
  bw: RnnCell;
  timeMajor: boolean;
  merge: boolean;
  /** 0: no aux input; 1: both cells read it through aux weights; 2: the backward cell's input. */
  auxMode: number;
  batch: number;
  time: number;
  inputSize: number;
  auxSize: number;
  fwUnits: number;
  bwUnits: number;
  activation: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const options = node.builtinData as BidirectionalSequenceRNNOptions | null;
  if (!options) throw new KernelError(OP, node.index, 'missing BidirectionalSequenceRNNOptions');
  checkArity(OP, node, 12, options.mergeOutputs ? 1 : 2);
  const input = getInput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TensorType.FLOAT32);
  if (input.dims.length !== 3)
    throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be 3-D, got ${shapeText(input.dims)}`);
  const timeMajor = options.timeMajor;
  const batch = timeMajor ? input.dims[1]! : input.dims[0]!;
  const time = timeMajor ? input.dims[0]! : input.dims[1]!;
  const inputSize = input.dims[2]!;

  const aux = getOptionalInput(context, node, AUX_INPUT);
  const fwAux = getOptionalInput(context, node, FW.auxWeights);
  const bwAux = getOptionalInput(context, node, BW.auxWeights);
  if ((fwAux === null) !== (bwAux === null) || (fwAux !== null && aux === null))
    throw new KernelError(OP, node.index, 'aux input and forward/backward aux weights must be all present, or the aux weights all absent');
  let auxMode = 0;
  let auxSize = 0;
  if (aux !== null) {
    expectType(OP, node, 'aux input', aux, TensorType.FLOAT32);
    if (aux.dims.length !== 3 || aux.dims[0] !== input.dims[0] || aux.dims[1] !== input.dims[1])
      throw new KernelError(
        OP,
        node.index,
        `aux input ${shapeText(aux.dims)} must be 3-D with the input's ${shapeText(input.dims)} leading dimensions`,
      );
    auxMode = fwAux !== null ? 1 : 2;
    auxSize = aux.dims[2]!;
    if (auxMode === 2 && !sameDims(aux.dims, input.dims))
      throw new KernelError(
        OP,
        node.index,
        `aux input ${shapeText(aux.dims)} read as the backward input must have the input's shape ${shapeText(input.dims)}`,
      );
  }
  const cellAux = auxMode === 1 ? auxSize : 0;
  const fwUnits = checkRnnCell(OP, context, node, FW, batch, inputSize, cellAux);
  const bwUnits = checkRnnCell(OP, context, node, BW, batch, inputSize, cellAux);
  checkRnnActivation(OP, node, options.fusedActivationFunction);
  const lead = timeMajor ? [time, batch] : [batch, time];
  const fwOut = setOutputShape(OP, context, node, 0, [...lead, options.mergeOutputs ? fwUnits + bwUnits : fwUnits]);
  expectType(OP, node, 'forward output', fwOut, TensorType.FLOAT32);
  if (!options.mergeOutputs)
    expectType(OP, node, 'backward output', setOutputShape(OP, context, node, 1, [...lead, bwUnits]), TensorType.FLOAT32);

  const d = opData<BidiRnnOpData>(OP, node);
  Object.assign(d, {
    timeMajor,
    merge: options.mergeOutputs,
    auxMode,
    batch,
    time,
    inputSize,
    auxSize: cellAux,
    fwUnits,
    bwUnits,
    activation: options.fusedActivationFunction,
  });
}

/** Runs one direction over every step (`backward`: last step first). */
function runDirection(
  d: BidiRnnOpData,
  cell: RnnCell,
  units: number,
  backward: boolean,
  x: Float32Array,
  aux: Float32Array,
  hidden: Float32Array,
  y: Float32Array,
  yAt: number,
  step: number,
): void {
  const { batch, time, inputSize, auxSize, activation } = d;
  if (d.timeMajor) {
    for (let k = 0; k < time; k++) {
      const s = backward ? time - 1 - k : k;
      rnnBatchStep(
        cell,
        units,
        inputSize,
        x,
        s * batch * inputSize,
        auxSize,
        aux,
        s * batch * auxSize,
        batch,
        activation,
        hidden,
        0,
        y,
        yAt + s * batch * step,
        step,
      );
    }
    return;
  }
  for (let b = 0; b < batch; b++)
    for (let k = 0; k < time; k++) {
      const s = backward ? time - 1 - k : k;
      const row = b * time + s;
      rnnBatchStep(
        cell,
        units,
        inputSize,
        x,
        row * inputSize,
        auxSize,
        aux,
        row * auxSize,
        1,
        activation,
        hidden,
        b * units,
        y,
        yAt + row * step,
        step,
      );
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<BidiRnnOpData>(OP, node);
  const fwHidden = bindRnnCell(context, node, FW, d.fw);
  const bwHidden = bindRnnCell(context, node, BW, d.bw);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const aux = d.auxMode === 0 ? EMPTY : (context.getEvalTensor(node.inputs[AUX_INPUT]!).data as Float32Array);
  const fwY = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const step = d.merge ? d.fwUnits + d.bwUnits : d.fwUnits;
  runDirection(d, d.fw, d.fwUnits, false, x, aux, fwHidden, fwY, 0, step);
  const bwX = d.auxMode === 2 ? aux : x;
  const cellAux = d.auxMode === 1 ? aux : EMPTY;
  if (d.merge) runDirection(d, d.bw, d.bwUnits, true, bwX, cellAux, bwHidden, fwY, d.fwUnits, step);
  else
    runDirection(
      d,
      d.bw,
      d.bwUnits,
      true,
      bwX,
      cellAux,
      bwHidden,
      context.getEvalTensor(node.outputs[1]!).data as Float32Array,
      0,
      d.bwUnits,
    );
}

/** BIDIRECTIONAL_SEQUENCE_RNN registration (float32; op versions 1..3 — later ones add hybrid weights). */
export const BIDIRECTIONAL_SEQUENCE_RNN: Registration<BidiRnnOpData> = {
  builtinCode: BuiltinOperator.BIDIRECTIONAL_SEQUENCE_RNN,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) =>
    declineArity(node, 12, node.outputs.length === 1 ? 1 : 2) ?? rnnWeightsDecline(context, node, [1, 2, 5, 6, 10, 11]),
  init: () => ({
    fw: emptyRnnCell(),
    bw: emptyRnnCell(),
    timeMajor: false,
    merge: false,
    auxMode: 0,
    batch: 0,
    time: 0,
    inputSize: 0,
    auxSize: 0,
    fwUnits: 0,
    bwUnits: 0,
    activation: 0,
  }),
  prepare,
  invoke,
};
