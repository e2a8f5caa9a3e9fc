/**
 * Prepare-time checks of TFLite's RNN cells (basic_rnn.cc, unidirectional_sequence_rnn.cc,
 * bidirectional_sequence_rnn.cc), and the binding of a cell's tensors at invoke. Float32 only: the hybrid
 * kernels (int8/uint8 weights) are declined with a reason.
 */
import {
  KernelError,
  TensorType,
  getInput,
  getOptionalInput,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { expectType, shapeText } from '@micrort/kernel-support';
import { isVectorActivation, type RnnCell } from './recurrent-float.js';

const EMPTY = new Float32Array(0);

/** Tensor positions of one cell in the node's inputs. */
export interface RnnCellInputs {
  weights: number;
  recurrentWeights: number;
  bias: number;
  hiddenState: number;
  /** Auxiliary input weights (optional input), or -1 when the op has none. */
  auxWeights: number;
}

/** A new cell whose arrays are bound at invoke by {@link bindRnnCell}. */
export function emptyRnnCell(): RnnCell {
  return { weights: EMPTY, recurrentWeights: EMPTY, bias: EMPTY, auxWeights: EMPTY };
}

/** Reason to decline an RNN node: weights neither float32 nor int8/uint8 (the hybrid kernel's). */
export function rnnWeightsDecline(context: TfLiteContext, node: Node, weightPositions: readonly number[]): true | string {
  for (const p of weightPositions) {
    const i = node.inputs[p];
    if (i === undefined || i < 0) continue;
    const t = context.getTensor(i);
    if (t.type !== TensorType.FLOAT32 && t.type !== TensorType.INT8 && t.type !== TensorType.UINT8)
      return `RNN weights of type ${tensorTypeName(t.type)}: float32, or int8/uint8 (hybrid) only`;
  }
  return true;
}

/**
 * Checks one cell as TFLite's Prepare does and returns its unit count: weights [units, inputSize],
 * recurrent weights [units, units], bias [units], the hidden state a variable [batch, units], aux
 * weights [units, auxSize] when present; all float32.
 */
export function checkRnnCell(
  op: string,
  context: TfLiteContext,
  node: Node,
  at: RnnCellInputs,
  batch: number,
  inputSize: number,
  auxSize: number,
): number {
  const weights = getInput(context, node, at.weights, op);
  const recurrent = getInput(context, node, at.recurrentWeights, op);
  const bias = getInput(context, node, at.bias, op);
  const hidden = getInput(context, node, at.hiddenState, op);
  const aux = at.auxWeights >= 0 ? getOptionalInput(context, node, at.auxWeights) : null;
  for (const [what, t] of [
    ['weights', weights],
    ['recurrent weights', recurrent],
    ['bias', bias],
    ['hidden state', hidden],
  ] as const)
    expectType(op, node, what, t, TensorType.FLOAT32);
  const fail = (msg: string): never => {
    throw new KernelError(op, node.index, msg);
  };
  const dims = (t: Tensor, want: number[], what: string) => {
    if (t.dims.length !== want.length || want.some((d, i) => t.dims[i] !== d))
      fail(`${what} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected ${shapeText(want)}`);
  };
  if (weights.dims.length !== 2) fail(`weights (tensor ${weights.index}) must be 2-D, got ${shapeText(weights.dims)}`);
  const units = weights.dims[0]!;
  dims(weights, [units, inputSize], 'weights');
  dims(recurrent, [units, units], 'recurrent weights');
  dims(bias, [units], 'bias');
  dims(hidden, [batch, units], 'hidden state');
  if (!hidden.isVariable) fail(`hidden state (tensor ${hidden.index}) must be a variable tensor`);
  if (aux !== null) {
    expectType(op, node, 'aux weights', aux, TensorType.FLOAT32);
    dims(aux, [units, auxSize], 'aux weights');
  } else if (auxSize > 0 && at.auxWeights >= 0) fail(`an aux input of size ${auxSize} needs aux weights (input ${at.auxWeights})`);
  return units;
}

/** Throws unless `activation` is one TFLite's ApplyActivationToVector applies. */
export function checkRnnActivation(op: string, node: Node, activation: number): void {
  if (!isVectorActivation(activation)) throw new KernelError(op, node.index, `unsupported activation ${activation}`);
}

/** Points `cell` at this invoke's tensor data (no allocation). */
export function bindRnnCell(context: TfLiteContext, node: Node, at: RnnCellInputs, cell: RnnCell): Float32Array {
  const inputs = node.inputs;
  cell.weights = context.getEvalTensor(inputs[at.weights]!).data as Float32Array;
  cell.recurrentWeights = context.getEvalTensor(inputs[at.recurrentWeights]!).data as Float32Array;
  cell.bias = context.getEvalTensor(inputs[at.bias]!).data as Float32Array;
  const auxIndex = at.auxWeights >= 0 ? inputs[at.auxWeights]! : -1;
  cell.auxWeights = auxIndex >= 0 ? (context.getEvalTensor(auxIndex).data as Float32Array) : EMPTY;
  return context.getEvalTensor(inputs[at.hiddenState]!).data as Float32Array;
}
