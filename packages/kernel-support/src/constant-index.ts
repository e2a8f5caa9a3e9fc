/**
 * Prepare-time readers of the index operands of the data-movement kernels (SLICE, STRIDED_SLICE, SPLIT,
 * SPLIT_V, UNPACK, TRANSPOSE, GATHER…) and their small checks, with the messages both kernel packages
 * give: constant int32/int64 index tensors, a constant axis and its range, a pair of tensors that must
 * share a type, and int64 values read from raw bytes at invoke (no BigInt, no allocation).
 */
import { KernelError, TensorType, tensorTypeName, type Node, type Tensor } from '@micrort/core';
import { expectType, shapeText } from './checks.js';

/**
 * The values of a constant int32 or int64 index tensor (`what` names it in messages), read in prepare.
 * KernelError when it is not constant (it would be computed at invoke from data), when an int64 value
 * does not fit in int32, or for another type.
 */
export function readConstantIndexTensor(tensor: Tensor, op: string, node: Node, what: string): number[] {
  if (!tensor.isConstant)
    throw new KernelError(
      op,
      node.index,
      `${what} tensor ${tensor.index} must be constant (non-constant ${what} is not supported: it is computed at invoke from data, ` +
        'not from constants and shapes, which micrort evaluates during prepare)',
    );
  const n = tensor.elementCount;
  const out = new Array<number>(n);
  if (tensor.type === TensorType.INT32) {
    const d = tensor.data as Int32Array;
    for (let i = 0; i < n; i++) out[i] = d[i]!;
  } else if (tensor.type === TensorType.INT64) {
    const d = tensor.data as BigInt64Array;
    for (let i = 0; i < n; i++) {
      const v = d[i]!;
      if (v < -2147483648n || v > 2147483647n) throw new KernelError(op, node.index, `${what}[${i}] = ${v} does not fit in int32`);
      out[i] = Number(v);
    }
  } else {
    throw new KernelError(
      op,
      node.index,
      `${what} tensor ${tensor.index} has type ${tensorTypeName(tensor.type)}, expected int32 or int64`,
    );
  }
  return out;
}

/**
 * The single value of a constant axis tensor (a scalar or a 1-element vector), read in prepare. `types`
 * lists the index types the TFLM kernel reads (int32, and int64 where it accepts it).
 */
export function readConstantAxis(
  op: string,
  node: Node,
  tensor: Tensor,
  what: string,
  types: readonly TensorType[] = [TensorType.INT32],
): number {
  expectType(op, node, what, tensor, types);
  if (tensor.elementCount !== 1)
    throw new KernelError(op, node.index, `${what} (tensor ${tensor.index}) must hold one value, got shape ${shapeText(tensor.dims)}`);
  return readConstantIndexTensor(tensor, op, node, what)[0]!;
}

/** `axis`, made non-negative for a tensor of rank `rank` (`axis + rank` when negative); KernelError when outside [-rank, rank). */
export function resolveAxis(op: string, node: Node, axis: number, rank: number, what = 'axis'): number {
  const a = axis < 0 ? axis + rank : axis;
  if (!(a >= 0 && a < rank))
    throw new KernelError(op, node.index, `${what} ${axis} is out of range for a ${rank}-D tensor (valid: ${-rank}..${rank - 1})`);
  return a;
}

/** Throws KernelError unless `a` and `b` have the same type. */
export function requireSameTypeAs(op: string, node: Node, a: Tensor, aWhat: string, b: Tensor, bWhat: string): void {
  if (a.type !== b.type)
    throw new KernelError(
      op,
      node.index,
      `${aWhat} type ${tensorTypeName(a.type)} (tensor ${a.index}) differs from ${bWhat} type ${tensorTypeName(b.type)} (tensor ${b.index})`,
    );
}

/** Product of `dims[from..to)`. */
export function dimProduct(dims: ArrayLike<number>, from = 0, to: number = dims.length): number {
  let p = 1;
  for (let i = from; i < to; i++) p *= dims[i]!;
  return p;
}

const TWO_POW_32 = 4294967296;

/** Element `i` of little-endian int64 `bytes` as a number (exact within ±2^53). No BigInt, no allocation. */
export function int64At(bytes: Uint8Array, i: number): number {
  const p = i * 8;
  const lo = (bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24)) >>> 0;
  const hi = bytes[p + 4]! | (bytes[p + 5]! << 8) | (bytes[p + 6]! << 16) | (bytes[p + 7]! << 24);
  return hi * TWO_POW_32 + lo;
}
