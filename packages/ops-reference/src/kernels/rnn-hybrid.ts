/**
 * TFLite's hybrid RNN step (kernel_utils.cc RnnBatchStep, the int8 overload) for RNN,
 * UNIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_RNN: float32 activations × int8 (or uint8 read
 * as int8) weights with one scale each. Per step: output = bias; unless the input rows are all zero,
 * quantize them (symmetric, or asymmetric with `asymmetric_quantize_inputs`), scale the factors by the
 * weight scale and accumulate the int8 product; the same for the aux input and the hidden state; then
 * the activation, and the hidden state takes the output. The arithmetic is kernel-support's hybrid.ts.
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
import {
  applyActivationToVector,
  batchQuantizeFloats,
  expectType,
  hybridWeightsInt8,
  isZeroVector,
  matrixBatchVectorMultiplyAccumulate,
  reductionSumVector,
  scaleFactors,
  shapeText,
  type HybridWeights,
} from '@micrort/kernel-support';
import type { RnnCellInputs } from './rnn-cell.js';

const EMPTY_F32 = new Float32Array(0);

/** A hybrid matrix of the cell and its per-tensor scale. */
interface HybridMatrix {
  w: HybridWeights;
  scale: number;
}

/** One hybrid RNN cell: constant weights, row sums and quantization buffers, all fixed in prepare. */
export interface HybridRnnCell {
  units: number;
  inputSize: number;
  auxSize: number;
  weights: HybridMatrix;
  recurrent: HybridMatrix;
  aux: HybridMatrix | null;
  asymmetric: boolean;
  /** Bias, bound at invoke. */
  bias: Float32Array;
  qInput: Int8Array;
  qAux: Int8Array;
  qHidden: Int8Array;
  factors: Float32Array;
  zeroPoints: Int32Array;
}

/** True when the cell's weights (at `positions`) are not float32: the node runs the hybrid kernel. */
export function isHybridRnn(context: TfLiteContext, node: Node, weights: number): boolean {
  const i = node.inputs[weights];
  return i !== undefined && i >= 0 && context.getTensor(i).type !== TensorType.FLOAT32;
}

function matrix(op: string, context: TfLiteContext, node: Node, what: string, t: Tensor, rows: number, cols: number): HybridMatrix {
  if (t.dims.length !== 2 || t.dims[0] !== rows || t.dims[1] !== cols)
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected [${rows}, ${cols}]`);
  if (t.type !== TensorType.INT8 && t.type !== TensorType.UINT8)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) of a hybrid RNN must be int8 or uint8, got ${tensorTypeName(t.type)}`,
    );
  const data = hybridWeightsInt8(op, context, node, what, t);
  if (data === null) throw new KernelError(op, node.index, `${what} (tensor ${t.index}) of a hybrid RNN must be a constant`);
  const q = t.quantization;
  if (!q || q.scale.length !== 1 || !(q.scale[0]! > 0 && q.scale[0]! < Infinity))
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) of a hybrid RNN needs one positive scale`);
  const rowSums = context.allocatePersistentBuffer(Math.max(1, rows) * 4).i32;
  reductionSumVector(data, 0, rows, cols, rowSums);
  return { w: { matrix: data, offset: 0, rows, cols, rowSums, rowSumsOffset: 0, perChannelScale: null }, scale: q.scale[0]! };
}

/**
 * Checks and prepares one hybrid cell as TFLite's Prepare does (weights [units, inputSize] and
 * recurrent weights [units, units] of one int8/uint8 type, float32 bias [units], a float32 variable
 * hidden state [batch, units], aux weights [units, auxSize] when `auxSize` > 0) and returns it.
 */
export function prepareHybridRnnCell(
  op: string,
  context: TfLiteContext,
  node: Node,
  at: RnnCellInputs,
  batch: number,
  inputSize: number,
  auxSize: number,
  asymmetric: boolean,
): HybridRnnCell {
  const w = getInput(context, node, at.weights, op);
  const rw = getInput(context, node, at.recurrentWeights, op);
  const bias = getInput(context, node, at.bias, op);
  const hidden = getInput(context, node, at.hiddenState, op);
  if (w.dims.length !== 2) throw new KernelError(op, node.index, `weights (tensor ${w.index}) must be 2-D, got ${shapeText(w.dims)}`);
  const units = w.dims[0]!;
  if (rw.type !== w.type)
    throw new KernelError(
      op,
      node.index,
      `recurrent weights type ${tensorTypeName(rw.type)} differs from the weights' ${tensorTypeName(w.type)}`,
    );
  expectType(op, node, 'bias', bias, TensorType.FLOAT32);
  expectType(op, node, 'hidden state', hidden, TensorType.FLOAT32);
  if (bias.dims.length !== 1 || bias.dims[0] !== units)
    throw new KernelError(op, node.index, `bias (tensor ${bias.index}) has shape ${shapeText(bias.dims)}, expected [${units}]`);
  if (hidden.dims.length !== 2 || hidden.dims[0] !== batch || hidden.dims[1] !== units)
    throw new KernelError(
      op,
      node.index,
      `hidden state (tensor ${hidden.index}) has shape ${shapeText(hidden.dims)}, expected [${batch}, ${units}]`,
    );
  if (!hidden.isVariable) throw new KernelError(op, node.index, `hidden state (tensor ${hidden.index}) must be a variable tensor`);
  const auxW = at.auxWeights >= 0 ? getOptionalInput(context, node, at.auxWeights) : null;
  const rows = Math.max(1, batch);
  return {
    units,
    inputSize,
    auxSize,
    weights: matrix(op, context, node, 'weights', w, units, inputSize),
    recurrent: matrix(op, context, node, 'recurrent weights', rw, units, units),
    aux: auxSize > 0 && auxW !== null ? matrix(op, context, node, 'aux weights', auxW, units, auxSize) : null,
    asymmetric,
    bias: EMPTY_F32,
    qInput: context.allocatePersistentBuffer(Math.max(1, rows * inputSize)).i8,
    qAux: context.allocatePersistentBuffer(Math.max(1, rows * auxSize)).i8,
    qHidden: context.allocatePersistentBuffer(Math.max(1, rows * units)).i8,
    factors: context.allocatePersistentBuffer(rows * 4).f32,
    zeroPoints: context.allocatePersistentBuffer(rows * 4).i32,
  };
}

/** Binds the cell's bias for this invoke and returns its hidden state's data. */
export function bindHybridRnnCell(context: TfLiteContext, node: Node, at: RnnCellInputs, cell: HybridRnnCell): Float32Array {
  cell.bias = context.getEvalTensor(node.inputs[at.bias]!).data as Float32Array;
  return context.getEvalTensor(node.inputs[at.hiddenState]!).data as Float32Array;
}

/** Quantizes `batches` rows of `size` at `v[at]` and accumulates the product with `m` into the output rows. */
function accumulate(
  cell: HybridRnnCell,
  m: HybridMatrix,
  v: Float32Array,
  at: number,
  size: number,
  q: Int8Array,
  batches: number,
  out: Float32Array,
  outAt: number,
  outStride: number,
): void {
  if (isZeroVector(v, at, batches * size)) return;
  batchQuantizeFloats(v, at, batches, size, q, 0, cell.factors, cell.zeroPoints, 0, cell.asymmetric);
  scaleFactors(cell.factors, 0, batches, m.scale);
  matrixBatchVectorMultiplyAccumulate(m.w, q, 0, cell.factors, cell.zeroPoints, 0, batches, out, outAt, outStride);
}

/**
 * One hybrid step over `batches` rows (TFLite's RnnBatchStep), output rows `outStride` apart; `aux`
 * rows are read only when the cell has aux weights.
 */
export function hybridRnnBatchStep(
  cell: HybridRnnCell,
  x: Float32Array,
  xAt: number,
  aux: Float32Array,
  auxAt: number,
  batches: number,
  activation: number,
  hidden: Float32Array,
  hiddenAt: number,
  out: Float32Array,
  outAt: number,
  outStride: number,
): void {
  const units = cell.units;
  for (let b = 0; b < batches; b++) for (let i = 0; i < units; i++) out[outAt + b * outStride + i] = cell.bias[i]!;
  accumulate(cell, cell.weights, x, xAt, cell.inputSize, cell.qInput, batches, out, outAt, outStride);
  if (cell.aux !== null) accumulate(cell, cell.aux, aux, auxAt, cell.auxSize, cell.qAux, batches, out, outAt, outStride);
  accumulate(cell, cell.recurrent, hidden, hiddenAt, units, cell.qHidden, batches, out, outAt, outStride);
  for (let b = 0; b < batches; b++) {
    const o = outAt + b * outStride;
    applyActivationToVector(activation, out, o, units);
    for (let i = 0; i < units; i++) hidden[hiddenAt + b * units + i] = out[o + i]!;
  }
}
