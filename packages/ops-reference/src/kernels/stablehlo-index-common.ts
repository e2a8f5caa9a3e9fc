/**
 * What STABLEHLO_GATHER and STABLEHLO_SCATTER share (LiteRT tflite/kernels/tensor_slice_util.h and the
 * two kernels): reading an index vector out of an int32 or int64 indices tensor, and the checks that
 * keep every index computation inside its arrays (LiteRT leaves several of them to the model).
 */
import { KernelError, TensorType, tensorTypeName, type EvalTensor, type Node, type Tensor } from '@micrort/core';

/** Row-major element strides of `dims`. */
export function stridesOf(dims: ArrayLike<number>): Int32Array {
  const s = new Int32Array(dims.length);
  let acc = 1;
  for (let k = dims.length - 1; k >= 0; k--) {
    s[k] = acc;
    acc *= dims[k]!;
  }
  return s;
}

/** Throws unless the indices tensor is int32 or int64 (LiteRT: "(Index Type: …) currently not supported"). */
export function expectIndexType(op: string, node: Node, t: Tensor): void {
  if (t.type !== TensorType.INT32 && t.type !== TensorType.INT64)
    throw new KernelError(op, node.index, `indices must be int32 or int64, got ${tensorTypeName(t.type)}`);
}

/** Throws unless every entry of `dims` (option `name`) is a dimension of a rank-`rank` tensor, and (`unique`) none repeats. */
export function expectDims(op: string, node: Node, name: string, dims: ArrayLike<number>, rank: number, unique = true): void {
  const seen = new Set<number>();
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i]!;
    if (d < 0 || d >= rank) throw new KernelError(op, node.index, `${name}[${i}] = ${d} is not a dimension of a rank-${rank} tensor`);
    if (unique && seen.has(d)) throw new KernelError(op, node.index, `${name} repeats dimension ${d}`);
    seen.add(d);
  }
}

/**
 * Element `i` of an int32 or int64 indices tensor as a number (int64 beyond ±2^53 rounded, which only
 * matters for clipping and bounds checks, where it stays out of range).
 */
export function readIndex(t: EvalTensor, int64: boolean, i: number): number {
  if (!int64) return (t.data as Int32Array)[i]!;
  const b = t.bytes;
  const p = i * 8;
  const lo = (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  const hi = b[p + 4]! | (b[p + 5]! << 8) | (b[p + 6]! << 16) | (b[p + 7]! << 24);
  return hi * 4294967296 + lo;
}

/**
 * Where the index vector of a batch position starts and how its entries step, in the indices tensor:
 * `index_vector_dim` is the dimension holding the vector (its length is that dimension's size), the other
 * dimensions are batch dimensions in order. `index_vector_dim` equal to the rank means a vector of one
 * element (StableHLO's implicit trailing dimension; LiteRT reads past the shape there).
 */
export interface IndexVectorLayout {
  /** Element stride of each batch dimension of the indices tensor, in batch order. */
  batchStrides: Int32Array;
  /** Size of each batch dimension. */
  batchDims: Int32Array;
  /** Entries of each index vector and their stride. */
  length: number;
  stride: number;
}

export function indexVectorLayout(indicesDims: ArrayLike<number>, indexVectorDim: number): IndexVectorLayout {
  const strides = stridesOf(indicesDims);
  const batchStrides: number[] = [];
  const batchDims: number[] = [];
  for (let k = 0; k < indicesDims.length; k++) {
    if (k === indexVectorDim) continue;
    batchStrides.push(strides[k]!);
    batchDims.push(indicesDims[k]!);
  }
  const inside = indexVectorDim < indicesDims.length;
  return {
    batchStrides: Int32Array.from(batchStrides),
    batchDims: Int32Array.from(batchDims),
    length: inside ? indicesDims[indexVectorDim]! : 1,
    stride: inside ? strides[indexVectorDim]! : 0,
  };
}
