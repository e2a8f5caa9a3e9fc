/**
 * BATCH_MATMUL, float32, in WebAssembly: every output matrix is one f32_conv (assembly/float/gemm.ts)
 * with the LHS rows as the GEMM's rows read in place and the RHS matrix as its weights [C, K] (no bias,
 * no activation). Each RHS matrix is packed for the GEMM — once at prepare when it is fixed then, else
 * before every invoke into the same persistent arena buffer — with one parameter block per RHS matrix;
 * an adj_x LHS is transposed into a persistent buffer (at prepare when constant). When one RHS matrix
 * serves every batch and the LHS batches are not broadcast, the whole node is one GEMM over
 * batches × rows. Rows split across the pool's threads like CONV_2D's. Batch dims broadcast as in
 * TFLite (kernel-support's batchMatMulGeometry). Declines other types (the int8 kernel, then
 * ops-reference, serves them).
 */
import {
  BuiltinOperator,
  checkArity,
  getInput,
  getOutput,
  type BatchMatMulOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import type { JobExports } from '../../threads/pool.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { parallelFor, threadsFor, type Parallel } from '../parallel.js';
import { declineNonFloat, floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';
import { G, GEMM_PARAMS_BYTES } from './gemm-common.js';
import { gemmPackedFloats, packGemmF32 } from './weight-pack-f32.js';
import {
  batchMatMulGeometry,
  batchMatMulOperandIndex,
  declineArity,
  declineBatchMatMulRank,
  setOutputShape,
  transposeMatrices,
} from '@micrort/kernel-support';

const OP = 'BATCH_MATMUL';

interface BatchMatMulF32Data {
  k: FloatKernelExports | null;
  /** Arena offset of the first parameter block (one per RHS matrix, GEMM_PARAMS_BYTES apart). */
  params: number;
  /** Arena offset of a constant LHS's copy, or -1. */
  lhsCopy: number;
  /** The transposed LHS (adj_x), else null; its arena offset. */
  lhsT: Float32Array | null;
  lhsTOffset: number;
  lhsDynamic: boolean;
  /** RHS matrices packed one after the other, `packedStride` floats apart. */
  packed: Float32Array;
  packedStride: number;
  rhsDynamic: boolean;
  rhsMatrices: number;
  /** Weight (c, k) of RHS matrix m at m * rhsSize + c * cStep + k * kStep. */
  rhsSize: number;
  cStep: number;
  kStep: number;
  /** LHS matrices as stored, for the adj_x transposition: count, stored rows and columns. */
  lhsMatrices: number;
  lhsRows: number;
  lhsCols: number;
  cols: number;
  depth: number;
  /** GEMM calls: rows each, and per call the LHS and RHS matrix indices. */
  rows: number;
  lhsIndex: Int32Array;
  rhsIndex: Int32Array;
  par: Parallel | null;
}

function init(): BatchMatMulF32Data {
  const none = new Int32Array(0);
  return {
    k: null,
    params: 0,
    lhsCopy: -1,
    lhsT: null,
    lhsTOffset: 0,
    lhsDynamic: false,
    packed: new Float32Array(0),
    packedStride: 0,
    rhsDynamic: false,
    rhsMatrices: 0,
    rhsSize: 0,
    cStep: 0,
    kStep: 0,
    lhsMatrices: 0,
    lhsRows: 0,
    lhsCols: 0,
    cols: 0,
    depth: 0,
    rows: 0,
    lhsIndex: none,
    rhsIndex: none,
    par: null,
  };
}

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const lhs = context.getTensor(node.inputs[0]!);
  const rhs = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  const why = declineNonFloat([lhs, rhs, output]) ?? declineBatchMatMulRank('lhs', lhs) ?? declineBatchMatMulRank('rhs', rhs);
  if (why) return why;
  const opts = node.builtinData as BatchMatMulOptions | null;
  const depth = lhs.dims[lhs.dims.length - (opts?.adjX ? 2 : 1)] ?? 0;
  return declineSmall(depth, output.elementCount, 1, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  checkArity(OP, node, 2, 1);
  const lhs = getInput(context, node, 0, OP);
  const rhs = getInput(context, node, 1, OP);
  getOutput(context, node, 0, OP);
  const opts = node.builtinData as BatchMatMulOptions | null;
  const adjX = opts?.adjX ?? false;
  const adjY = opts?.adjY ?? false;
  const g = batchMatMulGeometry(OP, node, lhs, rhs, adjX, adjY);
  setOutputShape(OP, context, node, 0, g.outputDims);
  const { rows, cols, depth } = g;
  const d = node.userData as BatchMatMulF32Data;
  d.cols = cols;
  d.depth = depth;
  d.lhsMatrices = g.lhs[0]! * g.lhs[1]! * g.lhs[2]!;
  d.lhsRows = g.lhs[3]!;
  d.lhsCols = g.lhs[4]!;
  d.rhsMatrices = g.rhs[0]! * g.rhs[1]! * g.rhs[2]!;
  d.rhsSize = cols * depth;
  d.cStep = adjY ? depth : 1;
  d.kStep = adjY ? 1 : cols;
  let lhsIndex = batchMatMulOperandIndex(g, 'lhs');
  let rhsIndex = batchMatMulOperandIndex(g, 'rhs');
  // one RHS matrix for every batch and every LHS matrix used once in order: one GEMM over all rows
  const merged = d.rhsMatrices === 1 && lhsIndex.every((m, i) => m === i);
  d.rows = merged ? rows * lhsIndex.length : rows;
  if (merged) {
    lhsIndex = new Int32Array(1);
    rhsIndex = new Int32Array(1);
  }
  d.lhsIndex = lhsIndex;
  d.rhsIndex = rhsIndex;

  const first = context.allocatePersistentBuffer(GEMM_PARAMS_BYTES * d.rhsMatrices);
  d.k = floatKernelsFor(OP, node, first);
  d.params = first.offset;
  d.lhsCopy = adjX ? -1 : constantInputCopies(context, node, [0])[0]!;
  d.lhsDynamic = !hasFixedData(lhs);
  if (adjX) {
    const t = context.allocatePersistentBuffer(lhs.byteLength);
    d.lhsT = t.f32.subarray(0, lhs.elementCount);
    d.lhsTOffset = t.offset;
    if (!d.lhsDynamic) transposeMatrices(lhs.data as Float32Array, d.lhsT, d.lhsMatrices, d.lhsRows, d.lhsCols);
  } else d.lhsT = null;

  d.packedStride = gemmPackedFloats(cols, depth);
  const packed = context.allocatePersistentBuffer(d.packedStride * d.rhsMatrices * 4);
  d.packed = packed.f32;
  d.rhsDynamic = !hasFixedData(rhs);
  if (!d.rhsDynamic) packAll(d, rhs.data as Float32Array);

  const threads = threadsFor(options, 4 * d.rows * cols * depth, Math.ceil(d.rows / 4));
  d.par = parallelFor(first, threads, Math.ceil(d.rows / 4));
  const words = GEMM_PARAMS_BYTES / 4;
  for (let m = 0; m < d.rhsMatrices; m++) {
    const p = first.i32.subarray(m * words, (m + 1) * words);
    p.fill(0);
    p[G.Total] = d.rows;
    p[G.OutC] = cols;
    p[G.K] = depth;
    p[G.Packed] = packed.offset + m * d.packedStride * 4;
    p[G.RowBytes] = depth * 4;
    first.f32[m * words + G.ActMin] = -Infinity;
    first.f32[m * words + G.ActMax] = Infinity;
  }
}

/** Packs every RHS matrix of `rhs` for f32_conv (allocates nothing). */
function packAll(d: BatchMatMulF32Data, rhs: Float32Array): void {
  for (let m = 0; m < d.rhsMatrices; m++)
    packGemmF32(d.packed, rhs, null, d.cols, d.depth, m * d.rhsSize, d.cStep, d.kStep, m * d.packedStride);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as BatchMatMulF32Data;
  if (d.rhsDynamic) packAll(d, context.getEvalTensor(node.inputs[1]!).data as Float32Array);
  let lhs: number;
  if (d.lhsT) {
    if (d.lhsDynamic)
      transposeMatrices(context.getEvalTensor(node.inputs[0]!).data as Float32Array, d.lhsT, d.lhsMatrices, d.lhsRows, d.lhsCols);
    lhs = d.lhsTOffset;
  } else lhs = inputOffset(context, node, 0, d.lhsCopy);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const lhsBytes = d.rows * d.depth * 4;
  const outBytes = d.rows * d.cols * 4;
  const par = d.par;
  for (let i = 0; i < d.lhsIndex.length; i++) {
    const pp = d.params + d.rhsIndex[i]! * GEMM_PARAMS_BYTES;
    const a = lhs + d.lhsIndex[i]! * lhsBytes;
    const c = output + i * outBytes;
    if (par) par.pool.run(d.k as unknown as JobExports, par.instance, Fn.F32Conv, pp, a, c, 0, d.rows, 4, par.chunks);
    else d.k!.f32_conv(pp, a, c);
  }
}

/** The float32 BATCH_MATMUL registration. */
export function createBatchMatMulF32(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<BatchMatMulF32Data> {
  return {
    builtinCode: BuiltinOperator.BATCH_MATMUL,
    version: 4,
    provider: PROVIDER,
    name: 'BATCH_MATMUL/wasm-f32-gemm4x8',
    supports: (context, node) => supports(context, node, options),
    init,
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
