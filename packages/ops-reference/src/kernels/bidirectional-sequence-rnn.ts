/**
 * BIDIRECTIONAL_SEQUENCE_RNN (TFLite bidirectional_sequence_rnn.cc), float32: a forward RNN cell run over
 * the time steps in order and a backward cell run in reverse, each with its own weights and hidden state
 * (variables). Inputs: 0 input [time, batch, inputSize] (`time_major`) or [batch, time, inputSize];
 * 1–4 forward weights, recurrent weights, bias, hidden state; 5–8 the backward ones; 9 optional aux
 * input (the input's leading dimensions); 10, 11 optional forward/backward aux weights. With aux
 * weights both cells also read the aux input (stacking with cross links); with an aux input and no
 * aux weights the backward cell reads the aux input instead of the input (stacking without them).
 * Outputs: the forward and backward hidden states of every step, or one output holding both side by
 * side when `merge_outputs`. With int8 or uint8 weights, TFLite's hybrid kernel (rnn-hybrid.ts).
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
import { bindHybridRnnCell, hybridRnnBatchStep, isHybridRnn, prepareHybridRnnCell, type HybridRnnCell } from './rnn-hybrid.js';
import { bindRnnCell, checkRnnActivation, checkRnnCell, emptyRnnCell, rnnWeightsDecline, type RnnCellInputs } from './rnn-cell.js';

const OP = 'BIDIRECTIONAL_SEQUENCE_RNN';
const FW: RnnCellInputs = { weights: 1, recurrentWeights: 2, bias: 3, hiddenState: 4, auxWeights: 10 };
const BW: RnnCellInputs = { weights: 5, recurrentWeights: 6, bias: 7, hiddenState: 8, auxWeights: 11 };
const AUX_INPUT = 9;
const EMPTY = new Float32Array(0);

interface BidiRnnOpData {
  fw: RnnCell;
  bw: RnnCell;
  /** The hybrid cells (int8/uint8 weights), or null for float32 weights. */
  fwHybrid: HybridRnnCell | null;
  bwHybrid: HybridRnnCell | null;
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
  const hybrid = isHybridRnn(context, node, FW.weights);
  const asym = options.asymmetricQuantizeInputs;
  const fwHybrid = hybrid ? prepareHybridRnnCell(OP, context, node, FW, batch, inputSize, cellAux, asym) : null;
  const bwHybrid = hybrid ? prepareHybridRnnCell(OP, context, node, BW, batch, inputSize, cellAux, asym) : null;
  const fwUnits = fwHybrid ? fwHybrid.units : checkRnnCell(OP, context, node, FW, batch, inputSize, cellAux);
  const bwUnits = bwHybrid ? bwHybrid.units : checkRnnCell(OP, context, node, BW, batch, inputSize, cellAux);
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
    fwHybrid,
    bwHybrid,
    batch,
    time,
    inputSize,
    auxSize: cellAux,
    fwUnits,
    bwUnits,
    activation: options.fusedActivationFunction,
  });
}

/** One step of `batches` rows of one direction: its float or hybrid cell. */
function cellStep(
  d: BidiRnnOpData,
  cell: RnnCell,
  hybrid: HybridRnnCell | null,
  units: number,
  x: Float32Array,
  xAt: number,
  aux: Float32Array,
  auxAt: number,
  batches: number,
  hidden: Float32Array,
  hAt: number,
  y: Float32Array,
  yAt: number,
  step: number,
): void {
  if (hybrid !== null) hybridRnnBatchStep(hybrid, x, xAt, aux, auxAt, batches, d.activation, hidden, hAt, y, yAt, step);
  else rnnBatchStep(cell, units, d.inputSize, x, xAt, d.auxSize, aux, auxAt, batches, d.activation, hidden, hAt, y, yAt, step);
}

/** Runs one direction over every step (`backward`: last step first). */
function runDirection(
  d: BidiRnnOpData,
  cell: RnnCell,
  hybrid: HybridRnnCell | null,
  units: number,
  backward: boolean,
  x: Float32Array,
  aux: Float32Array,
  hidden: Float32Array,
  y: Float32Array,
  yAt: number,
  step: number,
): void {
  const { batch, time, inputSize, auxSize } = d;
  if (d.timeMajor) {
    for (let k = 0; k < time; k++) {
      const s = backward ? time - 1 - k : k;
      cellStep(
        d,
        cell,
        hybrid,
        units,
        x,
        s * batch * inputSize,
        aux,
        s * batch * auxSize,
        batch,
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
      const row = b * time + (backward ? time - 1 - k : k);
      cellStep(d, cell, hybrid, units, x, row * inputSize, aux, row * auxSize, 1, hidden, b * units, y, yAt + row * step, step);
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<BidiRnnOpData>(OP, node);
  const fwHidden = d.fwHybrid !== null ? bindHybridRnnCell(context, node, FW, d.fwHybrid) : bindRnnCell(context, node, FW, d.fw);
  const bwHidden = d.bwHybrid !== null ? bindHybridRnnCell(context, node, BW, d.bwHybrid) : bindRnnCell(context, node, BW, d.bw);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const aux = d.auxMode === 0 ? EMPTY : (context.getEvalTensor(node.inputs[AUX_INPUT]!).data as Float32Array);
  const cellAux = d.auxMode === 1 ? aux : EMPTY;
  const fwY = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const step = d.merge ? d.fwUnits + d.bwUnits : d.fwUnits;
  runDirection(d, d.fw, d.fwHybrid, d.fwUnits, false, x, cellAux, fwHidden, fwY, 0, step);
  const bwX = d.auxMode === 2 ? aux : x;
  if (d.merge) runDirection(d, d.bw, d.bwHybrid, d.bwUnits, true, bwX, cellAux, bwHidden, fwY, d.fwUnits, step);
  else {
    const bwY = context.getEvalTensor(node.outputs[1]!).data as Float32Array;
    runDirection(d, d.bw, d.bwHybrid, d.bwUnits, true, bwX, cellAux, bwHidden, bwY, 0, d.bwUnits);
  }
}

/** BIDIRECTIONAL_SEQUENCE_RNN registration (float32 and hybrid int8/uint8 weights; op versions 1..3). */
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
    fwHybrid: null,
    bwHybrid: null,
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
