/**
 * BIDIRECTIONAL_SEQUENCE_LSTM (TFLite bidirectional_sequence_lstm.cc + lstm_eval.cc EvalFloat), float32:
 * a forward LSTM cell run over the time steps in order and a backward cell run in reverse, each TFLite's
 * full float cell (lstm-full-float.ts: CIFG, peephole, projection, clips; no layer norm in this op).
 * Inputs (48): 0 input [time, batch, nInput] (`time_major`, the default) or [batch, time, nInput];
 * forward cell 1–17 and backward cell 18–34 (4 input weights, 4 recurrent weights, 3 peephole weights,
 * 4 biases, projection weights and bias); 35/36 forward output and cell state, 37/38 backward ones
 * (variables); 39 optional aux input; 40–43 and 44–47 optional forward/backward aux weights. With aux
 * weights both cells also read the aux input; with an aux input and no aux weights the backward cell
 * reads it instead of the input. Outputs: forward and backward outputs of every step, or one output
 * holding both side by side when `merge_outputs`. With int8/uint8 weights, TFLite's hybrid cell (lstm-hybrid.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  getInput,
  getOptionalInput,
  type BidirectionalSequenceLSTMOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, expectType, opData, sameDims, setOutputShape, shapeText } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import type { FullLstmInputs } from './lstm-full-float.js';
import {
  checkFullLstmCell,
  checkLstmState,
  fullLstmDecline,
  lstmWeightType,
  newLstmCell,
  type LstmCellRunner,
} from './lstm-full-prepare.js';

const OP = 'BIDIRECTIONAL_SEQUENCE_LSTM';
const AUX_INPUT = 39;
const cellInputs = (first: number, auxFirst: number): FullLstmInputs => ({
  inputWeights: [first, first + 1, first + 2, first + 3],
  auxWeights: [auxFirst, auxFirst + 1, auxFirst + 2, auxFirst + 3],
  recurrentWeights: [first + 4, first + 5, first + 6, first + 7],
  peephole: [first + 8, first + 9, first + 10],
  biases: [first + 11, first + 12, first + 13, first + 14],
  projectionWeights: first + 15,
  projectionBias: first + 16,
  layerNorm: [-1, -1, -1, -1],
});
const FW = cellInputs(1, 40);
const BW = cellInputs(18, 44);
/** Output and cell state of each direction. */
const FW_STATE = 35;
const FW_CELL = 36;
const BW_STATE = 37;
const BW_CELL = 38;
const WEIGHTS = [...Array.from({ length: 8 }, (_, i) => [1 + i, 18 + i]).flat(), 16, 33, 40, 41, 42, 43, 44, 45, 46, 47];
const EMPTY = new Float32Array(0);

interface BidiLstmOpData {
  fw: LstmCellRunner | null;
  bw: LstmCellRunner | null;
  timeMajor: boolean;
  merge: boolean;
  /** 0: no aux input; 1: both cells read it through aux weights; 2: the backward cell's input. */
  auxMode: number;
  batch: number;
  time: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const options = node.builtinData as BidirectionalSequenceLSTMOptions | null;
  if (!options) throw new KernelError(OP, node.index, 'missing BidirectionalSequenceLSTMOptions');
  if (node.inputs.length !== 48) throw new KernelError(OP, node.index, `expected 48 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== (options.mergeOutputs ? 1 : 2))
    throw new KernelError(
      OP,
      node.index,
      `expected ${options.mergeOutputs ? 1 : 2} outputs (merge_outputs ${options.mergeOutputs}), got ${node.outputs.length}`,
    );
  const input = getInput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TensorType.FLOAT32);
  if (input.dims.length !== 3)
    throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be 3-D, got ${shapeText(input.dims)}`);
  const timeMajor = options.timeMajor;
  const batch = timeMajor ? input.dims[1]! : input.dims[0]!;
  const time = timeMajor ? input.dims[0]! : input.dims[1]!;
  const nInput = input.dims[2]!;

  const aux = getOptionalInput(context, node, AUX_INPUT);
  const hasAuxWeights = getOptionalInput(context, node, FW.auxWeights[3]) !== null;
  if (hasAuxWeights && aux === null) throw new KernelError(OP, node.index, 'aux weights without an aux input (input 39)');
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
    auxMode = hasAuxWeights ? 1 : 2;
    auxSize = hasAuxWeights ? aux.dims[2]! : 0;
    if (auxMode === 2 && !sameDims(aux.dims, input.dims))
      throw new KernelError(
        OP,
        node.index,
        `aux input ${shapeText(aux.dims)} read as the backward input must have the input's shape ${shapeText(input.dims)}`,
      );
  }
  const o = { activation: options.fusedActivationFunction, cellClip: options.cellClip, projClip: options.projClip };
  const weightType = lstmWeightType(context, node, FW);
  const fw = checkFullLstmCell(OP, context, node, FW, batch, nInput, auxSize, o, weightType);
  const bw = checkFullLstmCell(OP, context, node, BW, batch, nInput, auxSize, o, weightType);
  checkLstmState(OP, node, getInput(context, node, FW_STATE, OP), 'forward output state', batch, fw.nOutput);
  checkLstmState(OP, node, getInput(context, node, FW_CELL, OP), 'forward cell state', batch, fw.nCell);
  checkLstmState(OP, node, getInput(context, node, BW_STATE, OP), 'backward output state', batch, bw.nOutput);
  checkLstmState(OP, node, getInput(context, node, BW_CELL, OP), 'backward cell state', batch, bw.nCell);
  const lead = timeMajor ? [time, batch] : [batch, time];
  const fwOut = setOutputShape(OP, context, node, 0, [...lead, options.mergeOutputs ? fw.nOutput + bw.nOutput : fw.nOutput]);
  expectType(OP, node, 'forward output', fwOut, TensorType.FLOAT32);
  if (!options.mergeOutputs)
    expectType(OP, node, 'backward output', setOutputShape(OP, context, node, 1, [...lead, bw.nOutput]), TensorType.FLOAT32);

  const d = opData<BidiLstmOpData>(OP, node);
  const asym = options.asymmetricQuantizeInputs;
  d.fw = newLstmCell(OP, context, node, fw, FW, batch, weightType, asym);
  d.bw = newLstmCell(OP, context, node, bw, BW, batch, weightType, asym);
  d.timeMajor = timeMajor;
  d.merge = options.mergeOutputs;
  d.auxMode = auxMode;
  d.batch = batch;
  d.time = time;
}

/** The float data of tensor `i`. */
function f32(context: TfLiteContext, i: number): Float32Array {
  return context.getEvalTensor(i).data as Float32Array;
}

/** Runs one direction over every step (`backward`: last step first), as TFLite's EvalFloat. */
function runDirection(
  d: BidiLstmOpData,
  cell: LstmCellRunner,
  backward: boolean,
  x: Float32Array,
  aux: Float32Array,
  h: Float32Array,
  c: Float32Array,
  y: Float32Array,
  yAt: number,
  step: number,
): void {
  const { batch, time } = d;
  const s = cell.shape;
  if (d.timeMajor) {
    for (let k = 0; k < time; k++) {
      const t = backward ? time - 1 - k : k;
      cell.step(batch, x, t * batch * s.nInput, aux, t * batch * s.nAux, h, 0, c, 0, y, yAt + t * batch * step, step);
    }
    return;
  }
  for (let b = 0; b < batch; b++)
    for (let k = 0; k < time; k++) {
      const row = b * time + (backward ? time - 1 - k : k);
      cell.step(1, x, row * s.nInput, aux, row * s.nAux, h, b * s.nOutput, c, b * s.nCell, y, yAt + row * step, step);
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<BidiLstmOpData>(OP, node);
  const fw = d.fw!;
  const bw = d.bw!;
  fw.bind(context, node);
  bw.bind(context, node);
  const inputs = node.inputs;
  const x = f32(context, inputs[0]!);
  const aux = d.auxMode === 0 ? EMPTY : f32(context, inputs[AUX_INPUT]!);
  const fwY = f32(context, node.outputs[0]!);
  const step = d.merge ? fw.shape.nOutput + bw.shape.nOutput : fw.shape.nOutput;
  runDirection(
    d,
    fw,
    false,
    x,
    d.auxMode === 1 ? aux : EMPTY,
    f32(context, inputs[FW_STATE]!),
    f32(context, inputs[FW_CELL]!),
    fwY,
    0,
    step,
  );
  const bwX = d.auxMode === 2 ? aux : x;
  const bwAux = d.auxMode === 1 ? aux : EMPTY;
  const bwH = f32(context, inputs[BW_STATE]!);
  const bwC = f32(context, inputs[BW_CELL]!);
  if (d.merge) runDirection(d, bw, true, bwX, bwAux, bwH, bwC, fwY, fw.shape.nOutput, step);
  else runDirection(d, bw, true, bwX, bwAux, bwH, bwC, f32(context, node.outputs[1]!), 0, bw.shape.nOutput);
}

/** BIDIRECTIONAL_SEQUENCE_LSTM registration (float32 and hybrid int8/uint8 weights; op versions 1..3). */
export const BIDIRECTIONAL_SEQUENCE_LSTM: Registration<BidiLstmOpData> = {
  builtinCode: BuiltinOperator.BIDIRECTIONAL_SEQUENCE_LSTM,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 48, node.outputs.length === 1 ? 1 : 2) ?? fullLstmDecline(context, node, WEIGHTS),
  init: () => ({ fw: null, bw: null, timeMajor: true, merge: false, auxMode: 0, batch: 0, time: 0 }),
  prepare,
  invoke,
};
