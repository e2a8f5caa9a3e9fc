/**
 * Helpers shared by the signal kernels: custom-options parsing with node-aware errors, prepare-time
 * type/shape checks, and a cached Uint32Array view for UINT64 tensors (read and written as little-endian
 * word pairs, since kernels may not use BigInt).
 */
import {
  KernelError,
  TensorType,
  numElements,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { FlexMap, parseFlexMap } from '@micrort/core';
import { flexOption } from '@micrort/kernel-support';

/** An int32 option; absent or non-integer is a KernelError. */
export function optionInt32(op: string, node: Node, options: FlexMap, key: string): number {
  return flexOption(op, node, () => options.int32(key));
}

/** A bool option; absent or non-integer is a KernelError. */
export function optionBool(op: string, node: Node, options: FlexMap, key: string): boolean {
  return flexOption(op, node, () => options.bool(key));
}

/** Throws unless `lo <= value <= hi`, naming the option. */
export function checkOptionRange(op: string, node: Node, key: string, value: number, lo: number, hi: number): void {
  if (!(value >= lo && value <= hi)) throw new KernelError(op, node.index, `option "${key}" is ${value}, must be in [${lo}, ${hi}]`);
}

/** Throws unless the node has exactly `nIn` inputs and `nOut` outputs, none omitted. */
export function checkIo(op: string, node: Node, nIn: number, nOut: number): void {
  if (node.inputs.length !== nIn) throw new KernelError(op, node.index, `expects ${nIn} inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== nOut) throw new KernelError(op, node.index, `expects ${nOut} outputs, got ${node.outputs.length}`);
  for (let i = 0; i < nIn; i++) if (node.inputs[i]! < 0) throw new KernelError(op, node.index, `input ${i} is omitted (-1)`);
  for (let i = 0; i < nOut; i++) if (node.outputs[i]! < 0) throw new KernelError(op, node.index, `output ${i} is omitted (-1)`);
}

/** Throws unless `t` has type `type`. */
export function checkType(op: string, node: Node, what: string, t: Tensor, type: TensorType): void {
  if (t.type !== type)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) has type ${tensorTypeName(t.type)}, expected ${tensorTypeName(type)}`,
    );
}

/** Throws unless `t` has `rank` dimensions. */
export function checkRank(op: string, node: Node, what: string, t: Tensor, rank: number): void {
  if (t.dims.length !== rank)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) must have ${rank} dimension(s), has shape [${Array.from(t.dims).join(', ')}]`,
    );
}

/** Throws unless `t` has exactly `count` elements. */
export function checkElements(op: string, node: Node, what: string, t: Tensor, count: number): void {
  const n = numElements(t.dims);
  if (n !== count) throw new KernelError(op, node.index, `${what} (tensor ${t.index}) has ${n} elements, expected ${count}`);
}

/** `[d0, d1, ...]`, for messages. */
export function shapeText(t: Tensor): string {
  return `[${Array.from(t.dims).join(', ')}]`;
}

/**
 * A `supports()` answer from the type of input `position`: true when it is one of `types`, otherwise the
 * reason (`"int8 input (handles int16)"`). An omitted input is left to prepare.
 */
export function supportsInputType(context: TfLiteContext, node: Node, types: readonly TensorType[], position = 0): true | string {
  const index = node.inputs[position];
  if (index === undefined || index < 0) return true;
  const type = context.getTensor(index).type;
  return types.includes(type) ? true : `${tensorTypeName(type)} input (handles ${types.map(tensorTypeName).join(', ')})`;
}

/**
 * A `supports()` answer from the custom option `T` (the tensor type the op was built for): true when it
 * is one of `types`, otherwise the reason. Missing or malformed options are left to prepare, which
 * reports them.
 */
export function supportsOptionType(node: Node, types: readonly TensorType[]): true | string {
  const data = node.customInitialData;
  if (!data || data.byteLength === 0) return true;
  let t: number;
  try {
    const m = parseFlexMap(data);
    if (!m.has('T')) return true;
    t = m.int32('T');
  } catch {
    return true;
  }
  return types.includes(t) ? true : `T = ${tensorTypeName(t)} (handles ${types.map(tensorTypeName).join(', ')})`;
}

const EMPTY_U32 = new Uint32Array(0);

/**
 * A Uint32Array view of a tensor's bytes, created on first use and reused while the tensor stays bound
 * to the same memory, so `invoke()` allocates nothing after its first call. Element `2i` is the low word
 * and `2i + 1` the high word of UINT64 element `i` (little-endian, as tensor data are).
 */
export class WordView {
  private view: Uint32Array = EMPTY_U32;

  of(t: EvalTensor): Uint32Array {
    const b = t.bytes;
    let v = this.view;
    if (v.buffer !== b.buffer || v.byteOffset !== b.byteOffset || v.length !== b.byteLength >>> 2) {
      v = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
      this.view = v;
    }
    return v;
  }
}
