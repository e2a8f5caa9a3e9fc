/**
 * REVERSE_SEQUENCE (TFLite reverse_sequence.cc, reference_ops::ReverseSequence): for each position b
 * along `batch_dim`, the first seq_lengths[b] slices along `seq_dim` are reversed and the rest copied.
 * float32, uint8, int16, int32, int64 data (moved as bytes); int32 or int64 lengths (read through their
 * low 32 bits). A length outside [0, dims[seq_dim]] fails the invoke.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type Registration,
  type ReverseSequenceOptions,
  type TfLiteContext,
} from '@micrort/core';
import {
  declineArity,
  declineTypes,
  expectRank,
  expectSameType,
  expectType,
  fillOpData,
  newOpData,
  opData,
  setOutputShape,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { dimProduct, int64Low32At } from './data-common.js';
import { copyElements, fixedElementSize } from './tflite-ops-common.js';

const OP = 'REVERSE_SEQUENCE';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.UINT8, TensorType.INT16, TensorType.INT32, TensorType.INT64];
const LENGTH_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT64];

interface ReverseSequenceOpData {
  /** Whether the batch dimension is the outer one of the two. */
  batchFirst: boolean;
  outer: number;
  midSize: number;
  medium: number;
  highSize: number;
  copy: number;
  size: number;
  seqSize: number;
  int64: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const lengths = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TYPES);
  expectType(OP, node, 'seq_lengths', lengths, LENGTH_TYPES);
  expectSameType(OP, node, 'input and output', input, output);
  expectRank(OP, node, 'seq_lengths', lengths, 1);
  const o = node.builtinData as ReverseSequenceOptions | null;
  const rank = input.dims.length;
  const seqDim = o?.seqDim ?? 0;
  const batchDim = o?.batchDim ?? 0;
  for (const [name, v] of [
    ['seq_dim', seqDim],
    ['batch_dim', batchDim],
  ] as const)
    if (v < 0 || v >= rank) throw new KernelError(OP, node.index, `${name} ${v} is out of range for an input of rank ${rank}`);
  if (seqDim === batchDim) throw new KernelError(OP, node.index, `seq_dim and batch_dim are both ${seqDim}`);
  if (lengths.dims[0] !== input.dims[batchDim])
    throw new KernelError(OP, node.index, `seq_lengths has ${lengths.dims[0]} values, the batch dimension ${input.dims[batchDim]}`);
  setOutputShape(OP, context, node, 0, input.dims);
  const mid = Math.min(seqDim, batchDim);
  const high = Math.max(seqDim, batchDim);
  fillOpData<ReverseSequenceOpData>(OP, node, {
    batchFirst: batchDim < seqDim,
    outer: dimProduct(input.dims, 0, mid),
    midSize: input.dims[mid]!,
    medium: dimProduct(input.dims, mid + 1, high),
    highSize: input.dims[high]!,
    copy: dimProduct(input.dims, high + 1),
    size: fixedElementSize(OP, node, 'input', input),
    seqSize: input.dims[seqDim]!,
    int64: lengths.type === TensorType.INT64,
  });
}

function lengthAt(d: ReverseSequenceOpData, node: Node, lengths: Uint8Array, i32: Int32Array, b: number): number {
  const v = d.int64 ? int64Low32At(lengths, b) : i32[b]!;
  if (v < 0 || v > d.seqSize) throw new KernelError(OP, node.index, `seq_lengths[${b}] = ${v} is outside [0, ${d.seqSize}]`);
  return v;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ReverseSequenceOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).bytes;
  const lt = context.getEvalTensor(node.inputs[1]!);
  const y = context.getEvalTensor(node.outputs[0]!).bytes;
  const { outer, midSize, medium, highSize, copy, size } = d;
  const i32 = lt.data as Int32Array;
  for (let i = 0; i < outer; i++)
    for (let j = 0; j < midSize; j++)
      for (let k = 0; k < medium; k++)
        for (let l = 0; l < highSize; l++) {
          const inPos = (((i * midSize + j) * medium + k) * highSize + l) * copy;
          let outPos = inPos;
          if (d.batchFirst) {
            const sl = lengthAt(d, node, lt.bytes, i32, j) - 1;
            if (l <= sl) outPos = (((i * midSize + j) * medium + k) * highSize + sl - l) * copy;
          } else {
            const sl = lengthAt(d, node, lt.bytes, i32, l) - 1;
            if (j <= sl) outPos = (((i * midSize + sl - j) * medium + k) * highSize + l) * copy;
          }
          copyElements(x, inPos, y, outPos, copy, size);
        }
}

/** REVERSE_SEQUENCE registration (op version 1). */
export const REVERSE_SEQUENCE: Registration = {
  builtinCode: BuiltinOperator.REVERSE_SEQUENCE,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0], TYPES) ?? true,
  init: newOpData,
  prepare,
  invoke,
};
