/**
 * BATCH_MATMUL's geometry (TFLite batch_matmul.cc ResizeOutputTensor, TFLM batch_matmul_common.cc): LHS
 * [..., A, K] × RHS [..., K, C] → [..., A, C] (adj_x: LHS stored [..., K, A]; adj_y: RHS stored
 * [..., C, K]), ranks 2 to 5, the batch dimensions (both operands extended to rank 5 with leading 1s)
 * broadcast against each other. Shared by every BATCH_MATMUL kernel.
 */
import { KernelError, type Node, type Tensor } from '@micrort/core';
import { shapeText } from './checks.js';

/** The rank both operands are extended to. */
export const BATCH_MATMUL_RANK = 5;

/** The sizes of a BATCH_MATMUL node. */
export interface BatchMatMulGeometry {
  /** LHS and RHS dims extended to rank 5 (leading 1s), as stored (before adj_x / adj_y). */
  lhs: number[];
  rhs: number[];
  /** The three broadcast batch dims of the output. */
  batch: Int32Array;
  /** Output rows (A), columns (C) and the accumulation depth (K). */
  rows: number;
  cols: number;
  depth: number;
  /** The output's dims: the broadcast batch dims of the higher rank, then rows and columns. */
  outputDims: number[];
}

/** `dims` extended to `rank` with leading 1s. */
export function extendDims(dims: ArrayLike<number>, rank: number): number[] {
  const out = new Array<number>(rank).fill(1);
  for (let i = 0; i < dims.length; i++) out[rank - dims.length + i] = dims[i]!;
  return out;
}

/** Why a BATCH_MATMUL operand's rank is not handled (outside 2 to 5), or null. */
export function declineBatchMatMulRank(what: string, t: Tensor): string | null {
  return t.dims.length < 2 || t.dims.length > BATCH_MATMUL_RANK
    ? `${what} (tensor ${t.index}) has rank ${t.dims.length}; ranks 2 to 5 are supported`
    : null;
}

/**
 * The geometry of BATCH_MATMUL over `lhs` and `rhs` with the adjoint flags; throws KernelError on a rank
 * outside 2 to 5, batch dims that do not broadcast, or depths that differ.
 */
export function batchMatMulGeometry(op: string, node: Node, lhs: Tensor, rhs: Tensor, adjX: boolean, adjY: boolean): BatchMatMulGeometry {
  for (const [t, what] of [
    [lhs, 'lhs'],
    [rhs, 'rhs'],
  ] as const) {
    const why = declineBatchMatMulRank(what, t);
    if (why) throw new KernelError(op, node.index, why);
  }
  const l = extendDims(lhs.dims, BATCH_MATMUL_RANK);
  const r = extendDims(rhs.dims, BATCH_MATMUL_RANK);
  const batch = new Int32Array(3);
  for (let i = 0; i < 3; i++) {
    const a = l[i]!;
    const b = r[i]!;
    if (a !== b && a !== 1 && b !== 1)
      throw new KernelError(
        op,
        node.index,
        `batch dimensions of lhs ${shapeText(lhs.dims)} and rhs ${shapeText(rhs.dims)} cannot be broadcast`,
      );
    batch[i] = a === 1 ? b : a;
  }
  const rows = adjX ? l[4]! : l[3]!;
  const depth = adjX ? l[3]! : l[4]!;
  const rhsDepth = adjY ? r[4]! : r[3]!;
  const cols = adjY ? r[3]! : r[4]!;
  if (depth !== rhsDepth)
    throw new KernelError(
      op,
      node.index,
      `lhs ${shapeText(lhs.dims)}${adjX ? ' (adj_x)' : ''} and rhs ${shapeText(rhs.dims)}${adjY ? ' (adj_y)' : ''} disagree on the accumulation depth: ${depth} vs ${rhsDepth}`,
    );
  const outRank = Math.max(lhs.dims.length, rhs.dims.length);
  const outputDims = [...Array.from(batch).slice(3 - (outRank - 2)), rows, cols];
  return { lhs: l, rhs: r, batch, rows, cols, depth, outputDims };
}

/**
 * For each output batch (row-major over the three broadcast batch dims), the index of the LHS matrix
 * (`which` 'lhs') or RHS matrix it reads: a broadcast dim (size 1 in the operand) contributes nothing.
 */
export function batchMatMulOperandIndex(g: BatchMatMulGeometry, which: 'lhs' | 'rhs'): Int32Array {
  const d = which === 'lhs' ? g.lhs : g.rhs;
  const b = g.batch;
  const out = new Int32Array(b[0]! * b[1]! * b[2]!);
  let o = 0;
  for (let b0 = 0; b0 < b[0]!; b0++)
    for (let b1 = 0; b1 < b[1]!; b1++)
      for (let b2 = 0; b2 < b[2]!; b2++) {
        const i0 = d[0] === 1 ? 0 : b0;
        const i1 = d[1] === 1 ? 0 : b1;
        const i2 = d[2] === 1 ? 0 : b2;
        out[o++] = (i0 * d[1]! + i1) * d[2]! + i2;
      }
  return out;
}

/**
 * Transposes the last two dims of `batches` row-major [rows, cols] matrices from `src` into `dst` (both
 * of one element type; allocates nothing): BATCH_MATMUL's adj_x LHS and non-adj_y RHS.
 */
export function transposeMatrices<T extends Float32Array | Int32Array | Int16Array | Int8Array>(
  src: T,
  dst: T,
  batches: number,
  rows: number,
  cols: number,
): void {
  const size = rows * cols;
  for (let b = 0; b < batches; b++) {
    const base = b * size;
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) dst[base + c * rows + r] = src[base + r * cols + c]!;
  }
}
