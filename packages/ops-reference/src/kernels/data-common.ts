/**
 * Helpers shared by the data-movement, shape and spatial kernels of registrations/data.ts (GATHER, SLICE,
 * SPLIT, PACK, MIRROR_PAD, RESIZE_*, ...): the type sets TFLM's kernels accept, `supports()` answers
 * that name the declined type, constant axis operands read in prepare, and int64 index values read from
 * raw bytes in invoke (no BigInt, no allocation).
 */
import { KernelError, TensorType } from '@micrort/core';
import type { EvalTensor, Node, Tensor, TfLiteContext } from '@micrort/core';
import { shapeString } from './transpose-common.js';
import { StringWriter, declineType, selectedStringsBound, setStringOutputCapacity } from '@micrort/kernel-support';

// Moved to kernel-support (SLICE, STRIDED_SLICE and the splits read them in both kernel packages).
export { FIXED_SIZE_TYPES, dimProduct, int64At, readConstantAxis, requireSameTypeAs, resolveAxis } from '@micrort/kernel-support';

/**
 * A `supports()` answer: `true` when the tensor at `node.inputs[position]` (or `node.outputs[position]`
 * when `io` is `'output'`) has one of `allowed`, else a short reason such as
 * `"int16 input (handles float32, int8, uint8)"`. Missing tensors are left to prepare (answers true).
 */
export function typeSupport(
  context: TfLiteContext,
  node: Node,
  allowed: readonly TensorType[],
  position = 0,
  io: 'input' | 'output' = 'input',
): true | string {
  const index = (io === 'input' ? node.inputs : node.outputs)[position];
  if (index === undefined || index < 0) return true;
  return declineType(io, context.getTensor(index), allowed) ?? true;
}

/** Throws KernelError unless `tensor` has exactly the dims `expected`. */
export function requireShape(op: string, node: Node, tensor: Tensor, what: string, expected: ArrayLike<number>): void {
  const dims = tensor.dims;
  let same = dims.length === expected.length;
  for (let i = 0; same && i < dims.length; i++) same = dims[i] === expected[i];
  if (!same)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${tensor.index}) has shape ${shapeString(dims)}, expected ${shapeString(expected)}`,
    );
}

const TWO_POW_32 = 4294967296;

/** Integer types of index and position tensors (TFLite's gathers take int16, int32, int64): kernel-support's, which GATHER's prepare checks. */
export { GATHER_INDEX_TYPES as INDEX_TYPES } from '@micrort/kernel-support';

/**
 * Element `i` of an int16, int32 or int64 index tensor, as a number (int64 exact within ±2^53; beyond,
 * a value of that magnitude, which every bound check rejects). No BigInt, no allocation.
 */
export function indexAt(t: EvalTensor, i: number): number {
  switch (t.type) {
    case TensorType.INT64: {
      const w = t.words;
      return w[2 * i + 1]! * TWO_POW_32 + (w[2 * i]! >>> 0);
    }
    case TensorType.INT16:
      return (t.data as Int16Array)[i]!;
    default:
      return (t.data as Int32Array)[i]!;
  }
}

/** The low 32 bits of int64 element `i` as int32 (C++'s `static_cast<int>` of an int64). */
export function int64Low32At(bytes: Uint8Array, i: number): number {
  const p = i * 8;
  return bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24);
}

/** Writes the int32 `value`, sign-extended, as int64 element `i` of `bytes`. */
export function setInt64FromInt32(bytes: Uint8Array, i: number, value: number): void {
  const p = i * 8;
  bytes[p] = value;
  bytes[p + 1] = value >> 8;
  bytes[p + 2] = value >> 16;
  bytes[p + 3] = value >> 24;
  const sign = value < 0 ? 0xff : 0;
  bytes[p + 4] = sign;
  bytes[p + 5] = sign;
  bytes[p + 6] = sign;
  bytes[p + 7] = sign;
}

/**
 * How a data-movement kernel moves STRING elements: it runs its own element mover on the element
 * indices (`iota`, 0 … n − 1) into `map` — output element k is input string `map[k]` — and the strings
 * are then written in that order. Both arrays are persistent arena memory made in prepare.
 */
export interface StringMove {
  readonly iota: Int32Array;
  readonly map: Int32Array;
  readonly writer: StringWriter;
}

/**
 * Prepares the string move of a node whose STRING output takes its elements from the STRING tensor
 * `source`: sets the output's capacity (every output string one of `source`'s; `distinct` when each is
 * used at most once) and allocates `iota` and `map`.
 */
export function prepareStringMove(
  op: string,
  context: TfLiteContext,
  node: Node,
  source: Tensor,
  distinct: boolean,
  position = 0,
): StringMove {
  const output = context.getTensor(node.outputs[position]!);
  setStringOutputCapacity(op, context, node, position, selectedStringsBound(source, output.elementCount, distinct));
  const iota = context.allocatePersistentBuffer(4 * source.elementCount).i32;
  for (let i = 0; i < iota.length; i++) iota[i] = i;
  const map = context.allocatePersistentBuffer(4 * output.elementCount).i32;
  return { iota, map, writer: new StringWriter(`${op} output (tensor ${output.index})`) };
}

/** Writes output strings `map[0]`, `map[1]`, … of the serialized `source` into `out` (no allocation). */
export function writeMappedStrings(m: StringMove, source: Uint8Array, out: Uint8Array, count = m.map.length): void {
  m.writer.begin(out, count);
  for (let k = 0; k < count; k++) m.writer.appendString(source, m.map[k]!);
  m.writer.finish();
}

/**
 * For kernels that pass a tensor's bytes through unchanged (RESHAPE, SQUEEZE, EXPAND_DIMS): a STRING
 * output gets the input's size (a constant's length, else its capacity), so invoke's byte copy carries
 * the serialized strings whole.
 */
export function prepareStringCopy(op: string, context: TfLiteContext, node: Node, input: Tensor): void {
  if (input.type === TensorType.STRING) setStringOutputCapacity(op, context, node, 0, input.byteLength);
}
