/**
 * STABLEHLO_SCATTER (LiteRT tflite/kernels/stablehlo_scatter.cc; StableHLO's `scatter`): the output is
 * the operand with each element of `updates` combined into it. An update's scatter dimensions (those not
 * in `update_window_dims`) pick an index vector from `scatter_indices` (along `index_vector_dim`),
 * scattered into operand dimensions by `scatter_dims_to_operand_dims`; its window dimensions (in the
 * order `update_window_dims` lists them) add an offset, with 0 at `inserted_window_dims`. Updates that
 * land outside the operand are skipped, as LiteRT (following StableHLO's reference interpreter) does.
 *
 * As LiteRT, the update computation subgraph is not run but read: no operator means the update replaces
 * the element, one STABLEHLO_ADD / MULTIPLY / MAXIMUM / MINIMUM combines them (stablehlo-elementwise-
 * common.ts arithmetic); anything else is refused. Element types: float16, float32, float64, int8–int64,
 * uint8–uint64, bool; indices int32 or int64. Checks LiteRT leaves to the model (dimensions out of
 * range, window dimensions not adding up to the operand's rank) are refused here.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  builtinOperatorName,
  elementSize,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Registration,
  type StablehloScatterOptions,
  type TfLiteContext,
} from '@micrort/core';
import { expectSameType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { checkSubgraphIndex } from './control-flow-common.js';
import {
  Computation,
  STABLEHLO_ELEMENTWISE_TYPES,
  combineAt,
  wordsOf,
  type ElementViews,
  type Numbers,
} from './stablehlo-elementwise-common.js';
import { expectDims, expectIndexType, indexVectorLayout, readIndex, stridesOf, type IndexVectorLayout } from './stablehlo-index-common.js';

const OP = 'STABLEHLO_SCATTER';

/** The computation a region's single operator names (stablehlo_scatter.cc OpCodeToComputationType). */
const COMPUTATIONS: ReadonlyMap<number, Computation> = new Map([
  [BuiltinOperator.STABLEHLO_ADD, Computation.Add],
  [BuiltinOperator.STABLEHLO_MULTIPLY, Computation.Mul],
  [BuiltinOperator.STABLEHLO_MAXIMUM, Computation.Max],
  [BuiltinOperator.STABLEHLO_MINIMUM, Computation.Min],
]);

interface OpData {
  input: EvalTensor | null;
  indices: EvalTensor | null;
  updates: EvalTensor | null;
  output: EvalTensor | null;
  type: TensorType;
  elementBytes: number;
  /** null: the update replaces the element. */
  computation: Computation | null;
  int64: boolean;
  updateDims: Int32Array;
  /** Per update dimension: the operand dimension its window offset goes to, or −1 − its scatter position. */
  role: Int32Array;
  vector: IndexVectorLayout;
  toOperand: Int32Array;
  operandDims: Int32Array;
  operandStrides: Int32Array;
  index: Int32Array;
  start: Float64Array;
  target: Float64Array;
  out: ElementViews;
  upd: ElementViews;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const p = node.builtinData as Partial<StablehloScatterOptions> | null;
  if (!p?.updateWindowDims || !p.insertedWindowDims || !p.scatterDimsToOperandDims || p.indexVectorDim === undefined)
    throw new KernelError(OP, node.index, 'StablehloScatterOptions are missing');
  if (node.inputs.length !== 3 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const indices = context.getTensor(node.inputs[1]!);
  const updates = context.getTensor(node.inputs[2]!);
  expectIndexType(OP, node, indices);
  if (!STABLEHLO_ELEMENTWISE_TYPES.includes(input.type))
    throw new KernelError(OP, node.index, `${tensorTypeName(input.type)} is not supported`);
  expectSameType(OP, node, 'input and updates', input, updates);
  const output = setOutputShape(OP, context, node, 0, input.dims);
  expectSameType(OP, node, 'input and output', input, output);
  // The update computation: read, not run (GetComputationType).
  const region = p.updateComputationSubgraphIndex ?? 0;
  checkSubgraphIndex(OP, context, node, region, 'update computation');
  const codes = context.subgraphBuiltinCodes(region);
  let computation: Computation | null = null;
  if (codes.length > 1)
    throw new KernelError(OP, node.index, `only one operator is allowed in the update computation, subgraph ${region} has ${codes.length}`);
  if (codes.length === 1) {
    const c = COMPUTATIONS.get(codes[0]!);
    if (c === undefined)
      throw new KernelError(
        OP,
        node.index,
        `update computation ${builtinOperatorName(codes[0]!)}: only update, STABLEHLO_ADD, MULTIPLY, MAXIMUM and MINIMUM are supported`,
      );
    computation = c;
  }
  const rank = input.dims.length;
  const updRank = updates.dims.length;
  if (p.indexVectorDim < 0 || p.indexVectorDim > indices.dims.length)
    throw new KernelError(OP, node.index, `index_vector_dim ${p.indexVectorDim} is outside the indices' rank ${indices.dims.length}`);
  expectDims(OP, node, 'update_window_dims', p.updateWindowDims, updRank);
  expectDims(OP, node, 'inserted_window_dims', p.insertedWindowDims, rank);
  expectDims(OP, node, 'scatter_dims_to_operand_dims', p.scatterDimsToOperandDims, rank);
  if (p.updateWindowDims.length + p.insertedWindowDims.length !== rank)
    throw new KernelError(
      OP,
      node.index,
      `${p.updateWindowDims.length} update_window_dims and ${p.insertedWindowDims.length} inserted_window_dims do not make the operand's rank ${rank}`,
    );
  const vector = indexVectorLayout(indices.dims, p.indexVectorDim);
  if (vector.length !== p.scatterDimsToOperandDims.length)
    throw new KernelError(
      OP,
      node.index,
      `index vectors have ${vector.length} entries, scatter_dims_to_operand_dims ${p.scatterDimsToOperandDims.length}`,
    );
  const scatterCount = updRank - p.updateWindowDims.length;
  if (vector.batchDims.length !== scatterCount)
    throw new KernelError(
      OP,
      node.index,
      `the indices have ${vector.batchDims.length} batch dimensions, the updates ${scatterCount} scatter dimensions`,
    );
  // ExpandDims: the k-th window dimension (in update_window_dims order) goes to the k-th operand dimension not inserted.
  const windowTargets = Array.from({ length: rank }, (_, k) => k).filter((k) => !p.insertedWindowDims!.includes(k));
  const role = new Int32Array(updRank);
  let scatter = 0;
  for (let k = 0; k < updRank; k++) {
    const w = p.updateWindowDims.indexOf(k);
    if (w >= 0) role[k] = windowTargets[w]!;
    else {
      if (updates.dims[k] !== vector.batchDims[scatter])
        throw new KernelError(
          OP,
          node.index,
          `update dimension ${k} (${updates.dims[k]}) differs from indices batch dimension ${scatter} (${vector.batchDims[scatter]})`,
        );
      role[k] = -1 - scatter++;
    }
  }
  Object.assign(d, {
    input: context.getEvalTensor(node.inputs[0]!),
    indices: context.getEvalTensor(node.inputs[1]!),
    updates: context.getEvalTensor(node.inputs[2]!),
    output: context.getEvalTensor(node.outputs[0]!),
    type: input.type,
    elementBytes: elementSize(input.type)!,
    computation,
    int64: indices.type === TensorType.INT64,
    updateDims: Int32Array.from(updates.dims),
    role,
    vector,
    toOperand: Int32Array.from(p.scatterDimsToOperandDims),
    operandDims: Int32Array.from(input.dims),
    operandStrides: stridesOf(input.dims),
    index: new Int32Array(updRank),
    start: new Float64Array(rank),
    target: new Float64Array(rank),
    out: { data: new Uint8Array(0), bytes: new Uint8Array(0), words: null },
    upd: { data: new Uint8Array(0), bytes: new Uint8Array(0), words: null },
  });
}

/** Rebinds a view set to `t`'s data (only when the binding changed: nothing allocates once bound). */
function bindViews(v: ElementViews, t: EvalTensor, wide: boolean): void {
  if (v.bytes !== t.bytes) {
    v.bytes = t.bytes;
    v.data = t.data as Numbers;
  }
  if (wide) v.words = wordsOf(t, v.words);
}

function invoke(_context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const output = d.output!;
  const updates = d.updates!;
  output.bytes.set(d.input!.bytes);
  if (updates.bytes.length === 0 || output.bytes.length === 0) return;
  const wide = d.type === TensorType.INT64 || d.type === TensorType.UINT64;
  bindViews(d.out, output, wide);
  bindViews(d.upd, updates, wide);
  const es = d.elementBytes;
  const { updateDims, role, vector, toOperand, operandDims, operandStrides, index, start, target, computation, int64, type } = d;
  const indices = d.indices!;
  const updRank = updateDims.length;
  const count = updates.bytes.length / es;
  index.fill(0);
  for (let u = 0; u < count; u++) {
    let base = 0;
    for (let k = 0; k < updRank; k++) if (role[k]! < 0) base += index[k]! * vector.batchStrides[-1 - role[k]!]!;
    start.fill(0);
    for (let j = 0; j < toOperand.length; j++) start[toOperand[j]!] = readIndex(indices, int64, base + j * vector.stride);
    target.set(start);
    for (let k = 0; k < updRank; k++) if (role[k]! >= 0) target[role[k]!] = target[role[k]!]! + index[k]!;
    let at = 0;
    let inside = true;
    for (let k = 0; k < operandDims.length; k++) {
      const v = target[k]!;
      if (v < 0 || v >= operandDims[k]!) {
        inside = false;
        break;
      }
      at += v * operandStrides[k]!;
    }
    if (inside) {
      if (computation === null) copyElement(output.bytes, at * es, updates.bytes, u * es, es);
      else combineAt(computation, type, d.out, at, d.upd, u);
    }
    for (let k = updRank - 1; k >= 0; k--) {
      index[k] = index[k]! + 1;
      if (index[k]! < updateDims[k]!) break;
      index[k] = 0;
    }
  }
}

function copyElement(to: Uint8Array, at: number, from: Uint8Array, src: number, n: number): void {
  for (let b = 0; b < n; b++) to[at + b] = from[src + b]!;
}

/** The reference STABLEHLO_SCATTER kernel. */
export const STABLEHLO_SCATTER: Registration<OpData> = {
  builtinCode: BuiltinOperator.STABLEHLO_SCATTER,
  provider: PROVIDER,
  name: OP,
  init: () => ({}) as OpData,
  prepare,
  invoke,
};
