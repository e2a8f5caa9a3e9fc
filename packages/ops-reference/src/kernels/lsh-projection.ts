/**
 * LSH_PROJECTION (TFLite kernels/lsh_projection.cc): projects the input to bits by locality-sensitive
 * hashing. For hash function i and bit j the seed is hash[i][j] (float32); the bit is the sign of
 * Σ_k weight[k] · double(Fingerprint64(seed bytes ‖ item k bytes)), where item k is the k-th of dim 0's
 * equal slices of the input's raw bytes (any element type; for a string tensor, of its serialized
 * buffer, as TFLite slices `input->bytes`), and weight defaults to 1. SPARSE writes one int32 per hash
 * function (its bits, plus i · 2^bits), DENSE every bit. Fingerprint64 is farmhash.ts's, on int32 word
 * pairs; the key buffer is persistent arena memory sized in prepare.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  stringCount,
  stringStart,
  type EvalTensor,
  type LSHProjectionOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { expectType, int64ToNumber, opData, setOutputShape } from '@micrort/kernel-support';
import { HASH, fingerprint64 } from './farmhash.js';

const OP = 'LSH_PROJECTION';
/** LSHProjectionType in the schema. */
const SPARSE = 1;
const DENSE = 2;

interface OpData {
  sparse: boolean;
  numHash: number;
  numBits: number;
  /** seed (4 bytes) then one item. */
  key: Uint8Array;
  hasWeight: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  if (node.inputs.length !== 2 && node.inputs.length !== 3)
    throw new KernelError(OP, node.index, `expects 2 or 3 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const type = (node.builtinData as Partial<LSHProjectionOptions> | null)?.type ?? 0;
  if (type !== SPARSE && type !== DENSE)
    throw new KernelError(OP, node.index, `projection type ${type} is neither SPARSE (1) nor DENSE (2)`);
  const hash = context.getTensor(node.inputs[0]!);
  const input = context.getTensor(node.inputs[1]!);
  expectType(OP, node, 'hash', hash, [TensorType.FLOAT32]);
  if (hash.dims.length !== 2)
    throw new KernelError(OP, node.index, `hash (tensor ${hash.index}) must be 2-D, got ${hash.dims.length} dimensions`);
  const numHash = hash.dims[0]!;
  const numBits = hash.dims[1]!;
  if (numBits > 32) throw new KernelError(OP, node.index, `hash has ${numBits} bits per function, at most 32 are supported`);
  if (input.dims.length < 1) throw new KernelError(OP, node.index, 'input must have at least 1 dimension');
  const hasWeight = node.inputs.length === 3 && node.inputs[2]! >= 0;
  if (hasWeight) {
    const weight = context.getTensor(node.inputs[2]!);
    expectType(OP, node, 'weight', weight, [TensorType.FLOAT32]);
    if (weight.dims.length !== 1 || weight.dims[0] !== input.dims[0])
      throw new KernelError(OP, node.index, `weight must be 1-D of ${input.dims[0]} values, got [${weight.dims.join(',')}]`);
  }
  const output = setOutputShape(OP, context, node, 0, [type === SPARSE ? numHash : numHash * numBits]);
  expectType(OP, node, 'output', output, [TensorType.INT32]);
  const rows = input.dims[0]!;
  const itemBytes = rows > 0 ? Math.floor(input.byteLength / rows) : 0;
  const key = context.allocatePersistentBuffer(4 + itemBytes).u8;
  d.sparse = type === SPARSE;
  d.numHash = numHash;
  d.numBits = numBits;
  d.key = key;
  d.hasWeight = hasWeight;
}

/**
 * TFLite's RunningSignBit: 1 when Σ weight[k] · double(Fingerprint64(seed ‖ item k)) > 0. The seed's
 * four bytes are copied from the hash tensor at byte `seedAt` (as bytes: no float is read, so that
 * nothing is boxed even before V8 optimizes the caller).
 */
function runningSignBit(
  d: OpData,
  hash: Uint8Array,
  seedAt: number,
  input: EvalTensor,
  weight: Float32Array | null,
  rows: number,
  itemBytes: number,
): number {
  const key = d.key;
  key[0] = hash[seedAt]!;
  key[1] = hash[seedAt + 1]!;
  key[2] = hash[seedAt + 2]!;
  key[3] = hash[seedAt + 3]!;
  const bytes = input.bytes;
  let score = 0;
  for (let k = 0, p = 0; k < rows; k++, p += itemBytes) {
    for (let b = 0; b < itemBytes; b++) key[4 + b] = bytes[p + b]!;
    fingerprint64(key, 0, 4 + itemBytes);
    const value = int64ToNumber(HASH, 0);
    score += weight ? weight[k]! * value : value;
  }
  return score > 0 ? 1 : 0;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const hash = context.getEvalTensor(node.inputs[0]!).bytes;
  const input = context.getEvalTensor(node.inputs[1]!);
  const weight = d.hasWeight ? (context.getEvalTensor(node.inputs[2]!).data as Float32Array) : null;
  const out = context.getEvalTensor(node.outputs[0]!).data as Int32Array;
  const rows = input.dims[0]!;
  // TFLite slices input->bytes: for a string tensor, the serialized buffer's used length.
  const total = input.type === TensorType.STRING ? stringStart(input.bytes, stringCount(input.bytes)) : input.bytes.byteLength;
  const itemBytes = rows > 0 ? Math.floor(total / rows) : 0;
  const { numHash, numBits } = d;
  let o = 0;
  for (let i = 0; i < numHash; i++) {
    let signature = 0;
    for (let j = 0; j < numBits; j++) {
      const bit = runningSignBit(d, hash, 4 * (i * numBits + j), input, weight, rows, itemBytes);
      if (d.sparse) signature = (signature << 1) | bit;
      else out[o++] = bit;
    }
    if (d.sparse) out[o++] = (signature + i * (1 << numBits)) | 0;
  }
}

/** The reference LSH_PROJECTION kernel. */
export const LSH_PROJECTION: Registration<OpData> = {
  builtinCode: BuiltinOperator.LSH_PROJECTION,
  provider: PROVIDER,
  name: OP,
  init: () => ({ sparse: true, numHash: 0, numBits: 0, key: new Uint8Array(0), hasWeight: false }),
  prepare,
  invoke,
};
