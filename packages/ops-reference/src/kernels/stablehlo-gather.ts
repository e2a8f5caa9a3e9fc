/**
 * STABLEHLO_GATHER (LiteRT tflite/kernels/stablehlo_gather.cc; StableHLO's `gather`): for each output
 * index, its batch dimensions (those not in `offset_dims`) pick an index vector from `start_indices`
 * (along `index_vector_dim`), scattered into operand dimensions by `start_index_map` and clipped so the
 * slice `slice_sizes` fits; its offset dimensions walk the slice, whose `collapsed_slice_dims` (size 1)
 * are dropped. Output shape: LiteRT's GetResultShape for the output's rank. Any 8/16/32/64-bit element
 * type (bytes are copied), int32 or int64 indices.
 *
 * LiteRT checks only some option sizes; the others (dimensions out of range, offset and collapsed
 * dimensions not adding up to the operand's rank, slices larger than the operand) would index outside
 * its arrays there and are refused here.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  elementSize,
  type EvalTensor,
  type Node,
  type Registration,
  type StablehloGatherOptions,
  type TfLiteContext,
} from '@micrort/core';
import { expectSameType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { expectDims, expectIndexType, indexVectorLayout, readIndex, stridesOf, type IndexVectorLayout } from './stablehlo-index-common.js';

const OP = 'STABLEHLO_GATHER';

interface OpData {
  operand: EvalTensor | null;
  indices: EvalTensor | null;
  output: EvalTensor | null;
  int64: boolean;
  elementBytes: number;
  outDims: Int32Array;
  /** Per output dimension: the operand dimension it walks (offset dims), or −1 − its batch position. */
  role: Int32Array;
  vector: IndexVectorLayout;
  startIndexMap: Int32Array;
  operandDims: Int32Array;
  operandStrides: Int32Array;
  sliceSizes: Int32Array;
  /** Scratch: the output index and the start index (allocated once). */
  index: Int32Array;
  start: Float64Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const p = node.builtinData as Partial<StablehloGatherOptions> | null;
  if (!p?.sliceSizes || !p.offsetDims || !p.collapsedSliceDims || !p.startIndexMap || p.indexVectorDim === undefined)
    throw new KernelError(OP, node.index, 'StablehloGatherOptions are missing');
  if (node.inputs.length !== 2 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 2 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const operand = context.getTensor(node.inputs[0]!);
  const indices = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  expectIndexType(OP, node, indices);
  const size = elementSize(operand.type);
  if (size === undefined) throw new KernelError(OP, node.index, `operand elements have no fixed size`);
  const rank = operand.dims.length;
  const outRank = output.dims.length;
  if (p.sliceSizes.length !== rank)
    throw new KernelError(OP, node.index, `slice_sizes has ${p.sliceSizes.length} entries for a rank-${rank} operand`);
  if (p.indexVectorDim < 0 || p.indexVectorDim > indices.dims.length)
    throw new KernelError(OP, node.index, `index_vector_dim ${p.indexVectorDim} is outside the indices' rank ${indices.dims.length}`);
  expectDims(OP, node, 'offset_dims', p.offsetDims, outRank);
  expectDims(OP, node, 'collapsed_slice_dims', p.collapsedSliceDims, rank);
  expectDims(OP, node, 'start_index_map', p.startIndexMap, rank);
  if (p.offsetDims.length + p.collapsedSliceDims.length !== rank)
    throw new KernelError(
      OP,
      node.index,
      `${p.offsetDims.length} offset_dims and ${p.collapsedSliceDims.length} collapsed_slice_dims do not make the operand's rank ${rank}`,
    );
  const vector = indexVectorLayout(indices.dims, p.indexVectorDim);
  if (vector.length !== p.startIndexMap.length)
    throw new KernelError(OP, node.index, `index vectors have ${vector.length} entries, start_index_map ${p.startIndexMap.length}`);
  if (vector.batchDims.length !== outRank - p.offsetDims.length)
    throw new KernelError(
      OP,
      node.index,
      `the indices have ${vector.batchDims.length} batch dimensions, the output ${outRank - p.offsetDims.length}`,
    );
  for (let k = 0; k < rank; k++) {
    const s = p.sliceSizes[k]!;
    if (s < 0 || s > operand.dims[k]!)
      throw new KernelError(OP, node.index, `slice_sizes[${k}] = ${s} does not fit operand dimension ${operand.dims[k]}`);
    if (p.collapsedSliceDims.includes(k) && s !== 1)
      throw new KernelError(OP, node.index, `collapsed dimension ${k} must have slice size 1, it has ${s}`);
  }
  // GetResultShape: offset dims take the slice sizes left after collapsing, the others the batch dims.
  const kept = Array.from({ length: rank }, (_, k) => k).filter((k) => !p.collapsedSliceDims!.includes(k));
  const outDims = new Int32Array(outRank);
  const role = new Int32Array(outRank);
  let offset = 0;
  let batch = 0;
  for (let k = 0; k < outRank; k++) {
    if (p.offsetDims.includes(k)) {
      role[k] = kept[offset]!;
      outDims[k] = p.sliceSizes[kept[offset++]!]!;
    } else {
      role[k] = -1 - batch;
      outDims[k] = vector.batchDims[batch++]!;
    }
  }
  setOutputShape(OP, context, node, 0, outDims);
  expectSameType(OP, node, 'operand and output', operand, output);
  Object.assign(d, {
    operand: context.getEvalTensor(node.inputs[0]!),
    indices: context.getEvalTensor(node.inputs[1]!),
    output: context.getEvalTensor(node.outputs[0]!),
    int64: indices.type === TensorType.INT64,
    elementBytes: size,
    outDims,
    role,
    vector,
    startIndexMap: Int32Array.from(p.startIndexMap),
    operandDims: Int32Array.from(operand.dims),
    operandStrides: stridesOf(operand.dims),
    sliceSizes: Int32Array.from(p.sliceSizes),
    index: new Int32Array(outRank),
    start: new Float64Array(rank),
  });
}

function invoke(_context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const out = d.output!.bytes;
  const src = d.operand!.bytes;
  if (out.length === 0 || src.length === 0) return;
  const { outDims, role, vector, startIndexMap, operandDims, operandStrides, sliceSizes, index, start, elementBytes: es, int64 } = d;
  const indices = d.indices!;
  const outRank = outDims.length;
  index.fill(0);
  for (let dst = 0; dst < out.length; dst += es) {
    // The index vector of this output element's batch position, scattered and clipped.
    let base = 0;
    for (let k = 0; k < outRank; k++) if (role[k]! < 0) base += index[k]! * vector.batchStrides[-1 - role[k]!]!;
    start.fill(0);
    for (let j = 0; j < startIndexMap.length; j++) start[startIndexMap[j]!] = readIndex(indices, int64, base + j * vector.stride);
    let at = 0;
    for (let k = 0; k < operandDims.length; k++) {
      const v = Math.max(0, Math.min(start[k]!, operandDims[k]! - sliceSizes[k]!));
      at += v * operandStrides[k]!;
    }
    for (let k = 0; k < outRank; k++) if (role[k]! >= 0) at += index[k]! * operandStrides[role[k]!]!;
    const from = at * es;
    for (let b = 0; b < es; b++) out[dst + b] = src[from + b]!;
    for (let k = outRank - 1; k >= 0; k--) {
      index[k] = index[k]! + 1;
      if (index[k]! < outDims[k]!) break;
      index[k] = 0;
    }
  }
}

/** The reference STABLEHLO_GATHER kernel. */
export const STABLEHLO_GATHER: Registration<OpData> = {
  builtinCode: BuiltinOperator.STABLEHLO_GATHER,
  provider: PROVIDER,
  name: OP,
  init: () => ({}) as OpData,
  prepare,
  invoke,
};
