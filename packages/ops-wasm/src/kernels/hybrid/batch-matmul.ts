/**
 * Hybrid BATCH_MATMUL (TFLite batch_matmul.cc EvalHybrid, as ops-reference's batch-matmul.ts): float32
 * LHS × constant int8 RHS → float32, the converter's dynamic-range quantization of transformers. Every
 * LHS row is quantized at invoke (hybrid_quantize: symmetric, or asymmetric with a zero point per row
 * under `asymmetric_quantize_inputs`; an adj_x LHS is transposed into a scratch buffer first), each output
 * matrix is the int8 GEMM tile (qs8_conv with W.Raw: the LHS rows as the GEMM's pixels, the RHS matrix as
 * its weights [C, K], packed once at prepare) storing int32 accumulators, and hybrid_epilogue scales them
 * to float32 (see hybrid-common.ts): `acc − zp · Σw` per column of that RHS matrix, then `f32(acc) ·
 * factor` (one RHS scale, folded into the factors) or `f32(acc) · (factor · scale[c])` (one scale per
 * output column). The int32 sums wrap as ops-reference's (`| 0` of its exact sum), so any depth is
 * exact. Batch dims broadcast as in TFLite (kernel-support's batchMatMulGeometry): one GEMM per output
 * matrix, or one over every row when one RHS matrix serves LHS matrices used once in order. GEMM tiles
 * and epilogue split across the pool's threads as FULLY_CONNECTED's. Declines (the next provider serves
 * the node): an RHS that is not a constant int8 tensor, scales other than one or one per output column,
 * fewer than `minMacs` multiply-accumulates.
 */
import {
  BuiltinOperator,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type BatchMatMulOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  batchMatMulGeometry,
  batchMatMulOperandIndex,
  declineArity,
  declineBatchMatMulRank,
  hybridWeightScales,
  reductionSumVector,
  setOutputShape,
  transposeMatrices,
} from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import { kernelsFor } from '../../wasm-arena.js';
import { GEMM_TILE_PIXELS, W, WINDOW_PARAMS_BYTES, extScratchBytes, inputOffset, writeWindowParams } from '../kernel-common.js';
import { parallelFor, threadsFor } from '../parallel.js';
import { packConvGemm } from '../weight-pack.js';
import { bindWindowScratch, requestWindowScratch } from '../window-scratch.js';
import {
  HY,
  HybridMode,
  declineHybrid,
  emptyHybridKernelData,
  finishHybridKernel,
  prepareHybridEpilogue,
  quantizeHybridInput,
  type HybridKernelData,
} from './hybrid-common.js';

const OP = 'BATCH_MATMUL';
const RHS_TYPES: readonly TensorType[] = [TensorType.INT8];
const NO_I32 = new Int32Array(0);

interface HybridBmmData extends HybridKernelData {
  /** Per RHS matrix, the arena offset of its packed weights (W.Packed for its GEMMs). */
  packedAt: Int32Array;
  /** Arena offset of the RHS matrices' column weight sums (asymmetric inputs), else 0. */
  sumsAt: number;
  /** GEMMs: rows each, output columns, depth; per GEMM the LHS and RHS matrix it reads. */
  rows: number;
  cols: number;
  depth: number;
  lhsIndex: Int32Array;
  rhsIndex: Int32Array;
  /** adj_x: the scratch buffer the LHS is transposed into (-1 without adj_x), and the stored LHS matrices' count and dims. */
  lhsT: number;
  lhsMatrices: number;
  lhsRows: number;
  lhsCols: number;
}

/** The RHS's column dimension (per-channel scales lie along it) and the output columns. */
function columns(rhs: { dims: ArrayLike<number> }, adjY: boolean): { dim: number; cols: number } {
  const dim = rhs.dims.length - (adjY ? 2 : 1);
  return { dim, cols: rhs.dims[dim] ?? 0 };
}

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const lhs = context.getTensor(node.inputs[0]!);
  const rhs = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  if (lhs.type !== TensorType.FLOAT32 || rhs.type === TensorType.FLOAT32) return 'not hybrid (float32 lhs, quantized rhs)';
  const why = declineBatchMatMulRank('lhs', lhs) ?? declineBatchMatMulRank('rhs', rhs);
  if (why) return why;
  const opts = node.builtinData as BatchMatMulOptions | null;
  const { dim, cols } = columns(rhs, opts?.adjY ?? false);
  const hybrid = declineHybrid(lhs, rhs, null, output, RHS_TYPES, dim, cols);
  if (hybrid) return hybrid;
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
  const asymmetric = opts?.asymmetricQuantizeInputs ?? false;
  const g = batchMatMulGeometry(OP, node, lhs, rhs, adjX, adjY);
  setOutputShape(OP, context, node, 0, g.outputDims);
  const { rows, cols, depth } = g;
  const { scale, perChannel } = hybridWeightScales(OP, node, 'rhs', rhs, columns(rhs, adjY).dim, cols);
  const d = node.userData as HybridBmmData;
  d.cols = cols;
  d.depth = depth;
  d.lhsMatrices = g.lhs[0]! * g.lhs[1]! * g.lhs[2]!;
  d.lhsRows = g.lhs[3]!;
  d.lhsCols = g.lhs[4]!;
  const rhsMatrices = g.rhs[0]! * g.rhs[1]! * g.rhs[2]!;
  let lhsIndex = batchMatMulOperandIndex(g, 'lhs');
  let rhsIndex = batchMatMulOperandIndex(g, 'rhs');
  // one RHS matrix for every batch and every LHS matrix used once in order: one GEMM over all rows
  const merged = rhsMatrices === 1 && lhsIndex.every((m, i) => m === i);
  d.rows = merged ? rows * lhsIndex.length : rows;
  if (merged) {
    lhsIndex = new Int32Array(1);
    rhsIndex = new Int32Array(1);
  }
  d.lhsIndex = lhsIndex;
  d.rhsIndex = rhsIndex;

  // each RHS matrix as GEMM weights [C, K] (adj_y: as stored), packed; their column sums (asymmetric)
  const rhsData = rhs.data as Int8Array;
  const matrix = cols * depth;
  const weights = adjY ? rhsData : new Int8Array(rhsMatrices * matrix);
  if (!adjY) transposeMatrices(rhsData, weights, rhsMatrices, depth, cols);
  let sums: Int32Array | null = null;
  if (asymmetric) {
    sums = new Int32Array(rhsMatrices * cols);
    reductionSumVector(weights, 0, rhsMatrices * cols, depth, sums);
  }
  const hyRegion = prepareHybridEpilogue(context, {
    perBatch: 1,
    outC: cols,
    // TFLite: one scale folded into the factors; per-column scales multiply the factor per column
    mode: perChannel ? HybridMode.PerChannel : HybridMode.Folded,
    sums,
    scales: perChannel,
    bias: null,
    clamp: false,
    lo: 0,
    hi: 0,
  });
  const region = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  d.k = kernelsFor(OP, node, region);
  const p = region.i32;
  // the rows of a GEMM are one row of 1x1 windows (no padding: no zero row)
  writeWindowParams(p, { batches: 1, inH: 1, inW: d.rows, inC: depth, outH: 1, outW: d.rows, outC: cols, actMin: 0, actMax: 0 });
  d.packedAt = new Int32Array(rhsMatrices);
  let units = 0;
  for (let m = 0; m < rhsMatrices; m++) {
    units = packConvGemm(context, p, weights.subarray(m * matrix, (m + 1) * matrix), cols, 1, depth, null, 0, 0, d.rows === 1).units;
    d.packedAt[m] = p[W.Packed]!;
  }
  p[W.Direct] = 1;
  const tiles = Math.ceil(d.rows / GEMM_TILE_PIXELS);
  const threads = d.rows === 1 ? 1 : threadsFor(options, lhsIndex.length * d.rows * cols * depth, tiles);
  d.scratch = requestWindowScratch(context, p, NO_I32, NO_I32, {
    channels: 0,
    zeroBytes: 0,
    ptrBytes: d.rows === 1 ? 0 : 4,
    extBytes: d.rows === 1 ? 0 : extScratchBytes(units),
    threads,
  });
  d.par = parallelFor(region, threads, tiles);
  d.lhsT = adjX ? context.requestScratchBufferInArena(Math.max(4, lhs.byteLength)) : -1;
  finishHybridKernel(
    context,
    node,
    d,
    region,
    hyRegion,
    { batches: d.lhsMatrices * rows, rowSize: depth, asymmetric, foldScale: perChannel ? 0 : scale },
    !adjX,
  );
  const hy = hyRegion.i32;
  d.sumsAt = hy[HY.Sums]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as HybridBmmData;
  const k = d.k!;
  let lhs: number;
  if (d.lhsT >= 0) {
    const t = context.getScratchBuffer(d.lhsT);
    transposeMatrices(context.getEvalTensor(node.inputs[0]!).data as Float32Array, t.f32, d.lhsMatrices, d.lhsRows, d.lhsCols);
    lhs = t.offset;
  } else lhs = inputOffset(context, node, 0, d.fixed);
  const q = quantizeHybridInput(context, d.quant!, d.hy, k, lhs);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const { p, hy, rows, cols, depth, par } = d;
  bindWindowScratch(context, p, d.scratch);
  // per GEMM: its RHS matrix's packing and column sums, its LHS rows' factors and zero points
  const factors = hy[HY.Factors]!;
  const zeroPoints = hy[HY.ZeroPoints]!;
  if (par) k.window_begin(d.params);
  for (let i = 0; i < d.lhsIndex.length; i++) {
    const l = d.lhsIndex[i]! * rows;
    const r = d.rhsIndex[i]!;
    p[W.Packed] = d.packedAt[r]!;
    if (d.sumsAt !== 0) hy[HY.Sums] = d.sumsAt + r * cols * 4;
    hy[HY.Factors] = factors + l * 4;
    hy[HY.ZeroPoints] = zeroPoints + l * 4;
    const a = q + l * depth;
    const c = output + i * rows * cols * 4;
    if (par) {
      par.pool.run(k, par.instance, Fn.Conv, d.params, a, c, 0, rows, GEMM_TILE_PIXELS, par.chunks);
      par.pool.run(k, par.instance, Fn.HybridEpilogue, d.hp, c, 0, 0, rows, 1, par.chunks);
    } else {
      k.qs8_conv(d.params, a, c);
      k.hybrid_epilogue(d.hp, c, 0, rows);
    }
  }
}

/** The hybrid BATCH_MATMUL registration (float32 LHS with a constant int8 RHS only). */
export function createBatchMatMulHybrid(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<HybridBmmData> {
  return {
    builtinCode: BuiltinOperator.BATCH_MATMUL,
    version: 4,
    provider: PROVIDER,
    name: 'BATCH_MATMUL/wasm-hybrid-gemm',
    supports: (context, node) => supports(context, node, options),
    init: (): HybridBmmData => ({
      ...emptyHybridKernelData(),
      packedAt: NO_I32,
      sumsAt: 0,
      rows: 0,
      cols: 0,
      depth: 0,
      lhsIndex: NO_I32,
      rhsIndex: NO_I32,
      lhsT: -1,
      lhsMatrices: 0,
      lhsRows: 0,
      lhsCols: 0,
    }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
