/**
 * BATCH_MATMUL, int8 and int16, in WebAssembly: qs8_bmm_run and qs16_bmm_run (assembly/int8/batch-matmul.ts),
 * TFLite's reference arithmetic byte for byte — int8: int32 sums of (lhs − lhs zero point) × (rhs − rhs
 * zero point), one MultiplyByQuantizedMultiplier by lhs scale × rhs scale / output scale, plus the output
 * zero point; int16 (zero points 0): int64 sums and the int64 MultiplyByQuantizedMultiplier. Each RHS matrix is packed as int16 columns less its zero point — at prepare when
 * constant, else before every invoke into the same persistent arena buffer; the LHS is read in place
 * (adj_x by its strides). When one RHS matrix serves every batch of a row-major LHS, the node is one
 * matrix of batches × rows. Batch dims broadcast as in TFLite (kernel-support's batchMatMulGeometry).
 * The kernel runs over rows of the output matrices stacked (each matrix's LHS and RHS in a table in the
 * parameter region), so a node of at least `parallelMinMacs` multiply-accumulates splits its rows across
 * the pool's threads in one job (pairs of rows for int8, its tile's height), each thread with its own
 * widened-row scratch; every output value is one row by one column, the same bytes on any thread.
 * Declines other types (int16 × int8 and hybrid go to the next provider), int16 with nonzero zero
 * points, and int16 requantization scales of 2^14 or more.
 */
import {
  BuiltinOperator,
  TensorType,
  checkArity,
  checkedQuantizeMultiplier,
  getInput,
  getOutput,
  getQuantizedConvolutionMultiplier,
  quantizeMultiplier,
  reducedMultiplier16,
  type BatchMatMulOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { BM, BM_BYTES, RQ_BYTES } from '../generated/abi.js';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { Fn } from '../threads/control.js';
import { constantInputCopies, inputOffset, writeRequantBlock } from './kernel-common.js';
import { parallelFor, threadsFor, type Parallel, requestThreadScratch, threadScratchOffset, type ThreadScratch } from './parallel.js';
import {
  INT8_ONLY,
  batchMatMulGeometry,
  batchMatMulOperandIndex,
  declineArity,
  declineBatchMatMulRank,
  declineTensorTypes,
  declineType,
  setOutputShape,
  typeRange,
} from '@micrort/kernel-support';

const OP = 'BATCH_MATMUL';
const INT8_OR_INT16: readonly TensorType[] = [TensorType.INT8, TensorType.INT16];
const INT16_ONLY: readonly TensorType[] = [TensorType.INT16];

interface BatchMatMulData {
  k: KernelExports | null;
  params: number;
  int16: boolean;
  /** Arena offset of a constant LHS's copy, or -1. */
  lhsCopy: number;
  /** RHS matrices packed one after the other (int16 columns) and the bytes of one. */
  packed: Int16Array;
  packedBytes: number;
  rhsDynamic: boolean;
  rhsMatrices: number;
  rhsZeroPoint: number;
  /** Value (c, k) of RHS matrix m at m * cols * depth + c * cStep + k * kStep. */
  cStep: number;
  kStep: number;
  cols: number;
  depth: number;
  depth8: number;
  /** Output rows of every matrix together (the range the threads split). */
  totalRows: number;
  /** The pool's share, or null on one thread. */
  par: Parallel | null;
  /** Per thread, two widened LHS rows (bound into BM.Row at invoke). */
  rows: ThreadScratch | null;
  /** The parameter block's words. */
  p: Int32Array;
}

function init(): BatchMatMulData {
  return {
    k: null,
    params: 0,
    int16: false,
    lhsCopy: -1,
    packed: new Int16Array(0),
    packedBytes: 0,
    rhsDynamic: false,
    rhsMatrices: 0,
    rhsZeroPoint: 0,
    cStep: 0,
    kStep: 0,
    cols: 0,
    depth: 0,
    depth8: 0,
    totalRows: 0,
    par: null,
    rows: null,
    p: new Int32Array(0),
  };
}

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const lhs = context.getTensor(node.inputs[0]!);
  const rhs = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  const types = lhs.type === TensorType.INT16 ? INT16_ONLY : INT8_ONLY;
  const why =
    declineType('lhs', lhs, INT8_OR_INT16) ??
    declineTensorTypes([rhs, output], types) ??
    declineBatchMatMulRank('lhs', lhs) ??
    declineBatchMatMulRank('rhs', rhs);
  if (why) return why;
  if (lhs.type === TensorType.INT16) {
    if (lhs.params.zeroPoint !== 0 || rhs.params.zeroPoint !== 0 || output.params.zeroPoint !== 0) return 'int16 with a nonzero zero point';
    const real = getQuantizedConvolutionMultiplier(lhs.params.scale, rhs.params.scale, output.params.scale);
    // a zero or missing scale (a real multiplier that is not finite) is refused by prepare, with a KernelError
    if (Number.isFinite(real)) {
      const { shift } = quantizeMultiplier(real);
      if (shift > 14) return `int16 requantization shift ${shift} (handles up to 14)`;
    }
  }
  const opts = node.builtinData as BatchMatMulOptions | null;
  const depth = lhs.dims[lhs.dims.length - (opts?.adjX ? 2 : 1)] ?? 0;
  // int64 sums of at most 2^30 per product stay below 2^47, where the kernel's int64 requantization is exact
  if (lhs.type === TensorType.INT16 && depth >= 2 ** 17) return `int16 depth ${depth} (handles below 2^17)`;
  return declineSmall(depth, output.elementCount, 1, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  checkArity(OP, node, 2, 1);
  const lhs = getInput(context, node, 0, OP);
  const rhs = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  const opts = node.builtinData as BatchMatMulOptions | null;
  const adjX = opts?.adjX ?? false;
  const adjY = opts?.adjY ?? false;
  const g = batchMatMulGeometry(OP, node, lhs, rhs, adjX, adjY);
  setOutputShape(OP, context, node, 0, g.outputDims);
  const real = getQuantizedConvolutionMultiplier(lhs.params.scale, rhs.params.scale, output.params.scale);
  const q = checkedQuantizeMultiplier(OP, node, real, 'lhs scale * rhs scale / output scale');
  const { rows, cols, depth } = g;
  const d = node.userData as BatchMatMulData;
  d.int16 = lhs.type === TensorType.INT16;
  const es = d.int16 ? 2 : 1;
  d.cols = cols;
  d.depth = depth;
  d.depth8 = (depth + 7) & ~7;
  d.rhsMatrices = g.rhs[0]! * g.rhs[1]! * g.rhs[2]!;
  d.rhsZeroPoint = rhs.params.zeroPoint;
  d.cStep = adjY ? depth : 1;
  d.kStep = adjY ? 1 : cols;
  let lhsIndex = batchMatMulOperandIndex(g, 'lhs');
  let rhsIndex = batchMatMulOperandIndex(g, 'rhs');
  // one RHS matrix for every batch and row-major LHS matrices used once in order: one call over all rows
  const merged = !adjX && d.rhsMatrices === 1 && lhsIndex.every((m, i) => m === i);
  const callRows = merged ? rows * lhsIndex.length : rows;
  if (merged) {
    lhsIndex = new Int32Array(1);
    rhsIndex = new Int32Array(1);
  }
  const calls = lhsIndex.length;
  d.totalRows = calls * callRows;
  // int8 computes rows in pairs (its tile), so the threads split pairs
  const tileRows = d.int16 ? 1 : 2;
  const units = Math.ceil(d.totalRows / tileRows);
  const threads = threadsFor(options, d.totalRows * cols * depth, units);

  // the parameter block, the requantization block, the matrices' table; per thread two widened LHS rows in scratch
  const table = BM_BYTES + RQ_BYTES;
  d.rows = requestThreadScratch(context, d.depth8 * 4, threads);
  const region = context.allocatePersistentBuffer(table + calls * 8);
  d.k = kernelsFor(OP, node, region);
  d.params = region.offset;
  d.par = parallelFor(region, threads, units);
  d.lhsCopy = constantInputCopies(context, node, [0])[0]!;
  const colsPadded = (cols + 3) & ~3;
  d.packedBytes = colsPadded * d.depth8 * 2;
  const packed = context.allocatePersistentBuffer(d.packedBytes * d.rhsMatrices);
  d.packed = packed.i16.subarray(0, (d.packedBytes / 2) * d.rhsMatrices);
  d.rhsDynamic = !rhs.isConstant;
  d.packed.fill(0);
  if (!d.rhsDynamic) packAll(d, rhs.data as Int8Array | Int16Array);

  const p = region.i32;
  p.fill(0, 0, BM.Words);
  for (let i = 0; i < calls; i++) {
    p[table / 4 + 2 * i] = lhsIndex[i]! * rows * depth * es;
    p[table / 4 + 2 * i + 1] = packed.offset + rhsIndex[i]! * d.packedBytes;
  }
  p[BM.Calls] = calls;
  p[BM.Index] = region.offset + table;
  p[BM.Rows] = callRows;
  p[BM.Cols] = cols;
  p[BM.Depth] = depth;
  p[BM.Depth8] = d.depth8;
  p[BM.LhsRow] = (adjX ? 1 : depth) * es;
  p[BM.LhsStep] = (adjX ? rows : 1) * es;
  p[BM.ZpLhs] = lhs.params.zeroPoint;
  p[BM.ZpOut] = output.params.zeroPoint;
  const [lo, hi] = typeRange(lhs.type);
  p[BM.ActMin] = lo;
  p[BM.ActMax] = hi;
  const rq = region.offset + BM_BYTES;
  writeRequantBlock(p, BM_BYTES / 4, 0, 4, new Int32Array(4).fill(q.multiplier), new Int32Array(4).fill(q.shift));
  p[BM.Rq] = rq;
  p[BM.Mult16] = reducedMultiplier16(q.multiplier);
  p[BM.Shift16] = 15 - q.shift;
  d.p = p;
}

/** Packs every RHS matrix as int16 columns of depth8 values less the zero point (padding stays 0; allocates nothing). */
function packAll(d: BatchMatMulData, rhs: Int8Array | Int16Array): void {
  const { cols, depth, depth8, cStep, kStep, rhsZeroPoint: zp, packed } = d;
  const matrix = cols * depth;
  const stride = d.packedBytes / 2;
  for (let m = 0; m < d.rhsMatrices; m++)
    for (let c = 0; c < cols; c++) {
      const src = m * matrix + c * cStep;
      const dst = m * stride + c * depth8;
      for (let k = 0; k < depth; k++) packed[dst + k] = rhs[src + k * kStep]! - zp;
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as BatchMatMulData;
  if (d.rhsDynamic) packAll(d, context.getEvalTensor(node.inputs[1]!).data as Int8Array | Int16Array);
  d.p[BM.Row] = threadScratchOffset(context, d.rows!);
  const lhs = inputOffset(context, node, 0, d.lhsCopy);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const k = d.k!;
  const par = d.par;
  if (par) par.pool.run(k, par.instance, d.int16 ? Fn.Bmm16 : Fn.Bmm8, d.params, lhs, output, 0, d.totalRows, d.int16 ? 1 : 2, par.chunks);
  else if (d.int16) k.qs16_bmm_run(d.params, lhs, output, 0, d.totalRows, 0);
  else k.qs8_bmm_run(d.params, lhs, output, 0, d.totalRows, 0);
}

/** The int8 and int16 BATCH_MATMUL registration. */
export function createBatchMatMul(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<BatchMatMulData> {
  return {
    builtinCode: BuiltinOperator.BATCH_MATMUL,
    version: 4,
    provider: PROVIDER,
    name: 'BATCH_MATMUL/wasm-qs8-qs16',
    supports: (context, node) => supports(context, node, options),
    init,
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
