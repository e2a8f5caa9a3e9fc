/**
 * BATCH_MATMUL (tflite-micro kernels/batch_matmul.cc, batch_matmul_common.cc; reference_ops::BatchMatMul):
 * LHS [..., A, K] x RHS [..., K, C] -> [..., A, C] (adj_x: LHS stored as [..., K, A]; adj_y: RHS stored as
 * [..., C, K]), ranks 2 to 5, batch dimensions broadcast against each other. LHS, RHS and output share one
 * type — float32, int8 or int16 — or, TFLite only: int16 LHS × int8 RHS → int16 (a16w8, current LiteRT),
 * and TFLite's hybrid float32 LHS × constant int8 RHS → float32.
 *
 * - float32: each output is the sum over k in order of lhs * rhs, every product and sum in float32.
 * - int8: int32 sums of (lhs - lhs zero point) * (rhs - rhs zero point), MultiplyByQuantizedMultiplier by
 *   lhs scale * rhs scale (in float32) / output scale, plus the output zero point, clamped.
 * - int16 (and int16 × int8): zero points must be 0; int64 sums (exact here up to 2^53) and the 64-bit
 *   MultiplyByQuantizedMultiplier.
 * - hybrid (TFLite batch_matmul.cc EvalHybrid): each LHS row is quantized to int8 at run time (symmetric,
 *   or asymmetric with `asymmetric_quantize_inputs`), the int32 dot products with the RHS columns are
 *   scaled by the row's factor × the RHS scale (per tensor, or per output column) in float32
 *   (kernel-support's hybrid module).
 *
 * Like TFLM, RHS is transposed (unless adj_y) and LHS transposed when adj_x into persistent arena buffers,
 * so every dot product runs over two contiguous rows; a constant operand is transposed once, in prepare.
 * The arena also holds TFLM's other persistent allocations for this kernel (OpDataBatchMatmul, its
 * quantization block, a TfLiteEvalTensor and dims array per transposed operand, the output's writable
 * dims), so arena figures match TFLM's.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  checkedQuantizeMultiplier,
  getInput,
  getOutput,
  getQuantizedConvolutionMultiplier,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierInt64,
  tensorTypeName,
  type BatchMatMulOptions,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { MATH_OP_DATA_BYTES, intArrayBytes } from './math-common.js';
import {
  BATCH_MATMUL_RANK,
  batchMatMulGeometry,
  batchQuantizeFloats,
  expectType,
  expectZeroPoint,
  hybridWeightScales,
  opData,
  reductionSumVector,
  scaleFactors,
  setOutputShape,
  supportsInputTypes,
  transposeMatrices,
  typeRange,
} from '@micrort/kernel-support';

const OP = 'BATCH_MATMUL';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16];

type Values = Float32Array | Int8Array | Int16Array;

/** How a node computes: the LHS type, or hybrid (float32 × int8). */
const enum Kind {
  Float32 = 0,
  Int8 = 1,
  Int16 = 2,
  Hybrid = 3,
}

/** What a hybrid node keeps from prepare. */
interface HybridPlan {
  asymmetric: boolean;
  /** Per-tensor RHS scale (folded into the factors), or per output column (`perChannel`). */
  scale: number;
  perChannel: Float32Array | null;
  /** Row sums of every transposed RHS matrix ([rhs batches, C]), for asymmetric inputs. */
  rowSums: Int32Array;
  quantizedIndex: number;
  factorsIndex: number;
  zeroPointsIndex: number;
}

interface BatchMatMulOpData {
  kind: Kind;
  hybrid: HybridPlan | null;
  /** Output batch dims (3), matrix sizes. */
  batch: Int32Array;
  rows: number;
  cols: number;
  depth: number;
  /** Per batch dim: element step of the (row-major, K-last) LHS and RHS operands, 0 where broadcast. */
  lhsExtents: Int32Array;
  rhsExtents: Int32Array;
  /** LHS transposed to [..., A, K] (adj_x), else null: the input is used as is. */
  lhsT: Values | null;
  /** RHS transposed to [..., C, K] (not adj_y), else null: the input is used as is. */
  rhsT: Values | null;
  /** Batch count and matrix dims of the stored operands, for transposing them. */
  lhsBatches: number;
  lhsRows: number;
  lhsCols: number;
  rhsBatches: number;
  rhsRows: number;
  rhsCols: number;
  lhsConstant: boolean;
  rhsConstant: boolean;
  /** Integer paths: zero points, multiplier, clamp range. */
  lhsZeroPoint: number;
  rhsZeroPoint: number;
  outputZeroPoint: number;
  multiplier: number;
  shift: number;
  lo: number;
  hi: number;
}

function typedView(region: { f32: Float32Array; i8: Int8Array; i16: Int16Array }, type: TensorType): Values {
  return type === TensorType.FLOAT32 ? region.f32 : type === TensorType.INT8 ? region.i8 : region.i16;
}

/** Element steps per batch dim of a row-major 5-D shape, 0 where the dim is 1 (TFLM's batch_matmul::extent). */
function batchExtents(dims: number[]): Int32Array {
  const ext = new Int32Array(3);
  for (let i = 0; i < 3; i++) {
    if (dims[i] === 1) continue;
    let prod = 1;
    for (let j = i + 1; j < BATCH_MATMUL_RANK; j++) prod *= dims[j]!;
    ext[i] = prod;
  }
  return ext;
}

/**
 * TFLM's AllocInitTransposeTensorFromTfLiteTensor: a TfLiteEvalTensor, its dims and its data in the arena.
 * Returns the data view (the first two blocks only keep arena figures equal to TFLM's).
 */
function allocateTransposed(context: TfLiteContext, tensor: Tensor): Values {
  context.allocatePersistentBuffer(MATH_OP_DATA_BYTES.EVAL_TENSOR);
  context.allocatePersistentBuffer(intArrayBytes(tensor.dims.length));
  const region = context.allocatePersistentBuffer(tensor.byteLength);
  return typedView(region, tensor.type);
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<BatchMatMulOpData>(OP, node);
  checkArity(OP, node, 2, 1);
  const lhs = getInput(context, node, 0, OP);
  const rhs = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'lhs', lhs, TYPES);
  const hybrid = lhs.type === TensorType.FLOAT32 && rhs.type === TensorType.INT8 && output.type === TensorType.FLOAT32;
  const a16w8 = lhs.type === TensorType.INT16 && rhs.type === TensorType.INT8 && output.type === TensorType.INT16;
  if (!hybrid && !a16w8 && (rhs.type !== lhs.type || output.type !== lhs.type))
    throw new KernelError(
      OP,
      node.index,
      `lhs, rhs and output must share one type, or be float32 × int8 → float32 (hybrid) or int16 × int8 → int16; got ${tensorTypeName(lhs.type)}, ${tensorTypeName(rhs.type)}, ${tensorTypeName(output.type)}`,
    );
  const options = node.builtinData as BatchMatMulOptions | null;
  const adjX = options?.adjX ?? false;
  const adjY = options?.adjY ?? false;
  d.kind = hybrid ? Kind.Hybrid : lhs.type === TensorType.FLOAT32 ? Kind.Float32 : lhs.type === TensorType.INT8 ? Kind.Int8 : Kind.Int16;

  if (lhs.type !== TensorType.FLOAT32) {
    context.allocatePersistentBuffer(MATH_OP_DATA_BYTES.BATCH_MATMUL_QUANTIZATION);
    if (lhs.type === TensorType.INT16) {
      expectZeroPoint(OP, node, 'lhs', lhs, 0);
      expectZeroPoint(OP, node, 'rhs', rhs, 0);
      expectZeroPoint(OP, node, 'output', output, 0);
    }
    const real = getQuantizedConvolutionMultiplier(lhs.params.scale, rhs.params.scale, output.params.scale);
    const q = checkedQuantizeMultiplier(OP, node, real, 'lhs scale * rhs scale / output scale');
    d.multiplier = q.multiplier;
    d.shift = q.shift;
    d.lhsZeroPoint = lhs.params.zeroPoint;
    d.rhsZeroPoint = rhs.params.zeroPoint;
    d.outputZeroPoint = output.params.zeroPoint;
    [d.lo, d.hi] = typeRange(lhs.type);
  }
  if (hybrid && !rhs.isConstant)
    throw new KernelError(
      OP,
      node.index,
      `hybrid rhs (tensor ${rhs.index}) must be a constant (TFLite's kernel takes constant int8 weights)`,
    );

  const { lhs: l, rhs: r, batch, rows, cols, depth, outputDims } = batchMatMulGeometry(OP, node, lhs, rhs, adjX, adjY);
  // TFLite's ResizeOutputTensor: the broadcast batch dimensions, then rows and columns.
  setOutputShape(OP, context, node, 0, outputDims);

  d.batch = batch;
  d.rows = rows;
  d.cols = cols;
  d.depth = depth;
  // After transposition both operands are row-major with K last: LHS [b, A, K], RHS [b, C, K].
  d.lhsExtents = batchExtents([l[0]!, l[1]!, l[2]!, rows, depth]);
  d.rhsExtents = batchExtents([r[0]!, r[1]!, r[2]!, cols, depth]);
  d.lhsBatches = l[0]! * l[1]! * l[2]!;
  d.lhsRows = l[3]!;
  d.lhsCols = l[4]!;
  d.rhsBatches = r[0]! * r[1]! * r[2]!;
  d.rhsRows = r[3]!;
  d.rhsCols = r[4]!;
  d.lhsConstant = lhs.isConstant;
  d.rhsConstant = rhs.isConstant;
  d.lhsT = adjX ? allocateTransposed(context, lhs) : null;
  d.rhsT = adjY ? null : allocateTransposed(context, rhs);
  // CreateWritableTensorDimsWithCopy: TFLM rewrites the output dims in a persistent copy.
  context.allocatePersistentBuffer(intArrayBytes(output.dims.length));
  if (d.lhsT && d.lhsConstant) transposeMatrices(lhs.data as Values, d.lhsT, d.lhsBatches, d.lhsRows, d.lhsCols);
  if (d.rhsT && d.rhsConstant) transposeMatrices(rhs.data as Values, d.rhsT, d.rhsBatches, d.rhsRows, d.rhsCols);
  if (hybrid) d.hybrid = prepareHybrid(context, node, rhs, d, adjY, options?.asymmetricQuantizeInputs ?? false);
}

/**
 * The hybrid plan: the RHS scales (per tensor, or per output column along the RHS's column dimension),
 * the row sums of the transposed RHS (asymmetric inputs), the scratch for the quantized LHS rows.
 */
function prepareHybrid(
  context: TfLiteContext,
  node: Node,
  rhs: Tensor,
  d: BatchMatMulOpData,
  adjY: boolean,
  asymmetric: boolean,
): HybridPlan {
  const rank = rhs.dims.length;
  const { scale, perChannel } = hybridWeightScales(OP, node, 'rhs', rhs, adjY ? rank - 2 : rank - 1, d.cols);
  const transposed = (d.rhsT ?? rhs.data) as Int8Array;
  const rows = d.rhsBatches * d.cols;
  const rowSums = asymmetric ? context.allocatePersistentBuffer(rows * 4).i32.subarray(0, rows) : new Int32Array(0);
  if (asymmetric) reductionSumVector(transposed, 0, rows, d.depth, rowSums);
  const lhsRows = d.lhsBatches * d.rows;
  return {
    asymmetric,
    scale,
    perChannel,
    rowSums,
    quantizedIndex: context.requestScratchBufferInArena(Math.max(1, lhsRows * d.depth)),
    factorsIndex: context.requestScratchBufferInArena(Math.max(1, lhsRows) * 4),
    zeroPointsIndex: context.requestScratchBufferInArena(Math.max(1, lhsRows) * 4),
  };
}

function matmulFloat(d: BatchMatMulOpData, lhs: Float32Array, rhs: Float32Array, out: Float32Array): void {
  const f = Math.fround;
  const { rows, cols, depth } = d;
  const b = d.batch;
  const le = d.lhsExtents;
  const re = d.rhsExtents;
  let o = 0;
  for (let b0 = 0; b0 < b[0]!; b0++)
    for (let b1 = 0; b1 < b[1]!; b1++)
      for (let b2 = 0; b2 < b[2]!; b2++) {
        const lBase = b0 * le[0]! + b1 * le[1]! + b2 * le[2]!;
        const rBase = b0 * re[0]! + b1 * re[1]! + b2 * re[2]!;
        for (let a = 0; a < rows; a++) {
          const lRow = lBase + a * depth;
          for (let c = 0; c < cols; c++) {
            const rRow = rBase + c * depth;
            let total = 0;
            for (let k = 0; k < depth; k++) total = f(total + f(lhs[lRow + k]! * rhs[rRow + k]!));
            out[o++] = total;
          }
        }
      }
}

function matmulInt8(d: BatchMatMulOpData, lhs: Int8Array, rhs: Int8Array, out: Int8Array): void {
  const { rows, cols, depth, lhsZeroPoint, rhsZeroPoint, outputZeroPoint, multiplier, shift, lo, hi } = d;
  const b = d.batch;
  const le = d.lhsExtents;
  const re = d.rhsExtents;
  let o = 0;
  for (let b0 = 0; b0 < b[0]!; b0++)
    for (let b1 = 0; b1 < b[1]!; b1++)
      for (let b2 = 0; b2 < b[2]!; b2++) {
        const lBase = b0 * le[0]! + b1 * le[1]! + b2 * le[2]!;
        const rBase = b0 * re[0]! + b1 * re[1]! + b2 * re[2]!;
        for (let a = 0; a < rows; a++) {
          const lRow = lBase + a * depth;
          for (let c = 0; c < cols; c++) {
            const rRow = rBase + c * depth;
            let total = 0;
            for (let k = 0; k < depth; k++) total = (total + Math.imul(rhs[rRow + k]! - rhsZeroPoint, lhs[lRow + k]! - lhsZeroPoint)) | 0;
            const v = (multiplyByQuantizedMultiplier(total, multiplier, shift) + outputZeroPoint) | 0;
            out[o++] = v < lo ? lo : v > hi ? hi : v;
          }
        }
      }
}

/**
 * Hybrid (TFLite reference_ops::BatchMatMul for int8 × int8 → float): every LHS row quantized, then
 * out = float(dot − rowSum · zero point) · scale, scale = factor (× the column's scale), in float32.
 */
function matmulHybrid(d: BatchMatMulOpData, context: TfLiteContext, lhs: Float32Array, rhs: Int8Array, out: Float32Array): void {
  const f = Math.fround;
  const h = d.hybrid!;
  const { rows, cols, depth } = d;
  const q = context.getScratchBuffer(h.quantizedIndex).i8;
  const factors = context.getScratchBuffer(h.factorsIndex).f32;
  const zeroPoints = context.getScratchBuffer(h.zeroPointsIndex).i32;
  const lhsRows = d.lhsBatches * rows;
  batchQuantizeFloats(lhs, 0, lhsRows, depth, q, 0, factors, zeroPoints, 0, h.asymmetric);
  if (h.perChannel === null) scaleFactors(factors, 0, lhsRows, h.scale);
  const pc = h.perChannel;
  const b = d.batch;
  const le = d.lhsExtents;
  const re = d.rhsExtents;
  let o = 0;
  for (let b0 = 0; b0 < b[0]!; b0++)
    for (let b1 = 0; b1 < b[1]!; b1++)
      for (let b2 = 0; b2 < b[2]!; b2++) {
        const lBase = b0 * le[0]! + b1 * le[1]! + b2 * le[2]!;
        const rBase = b0 * re[0]! + b1 * re[1]! + b2 * re[2]!;
        for (let a = 0; a < rows; a++) {
          const lRow = lBase + a * depth;
          const row = lRow / depth;
          const factor = factors[row]!;
          const zp = zeroPoints[row]!;
          for (let c = 0; c < cols; c++) {
            const rRow = rBase + c * depth;
            let total = 0;
            for (let k = 0; k < depth; k++) total += rhs[rRow + k]! * q[lRow + k]!;
            if (zp !== 0) total -= h.rowSums[rRow / depth]! * zp;
            const scale = pc === null ? factor : f(factor * pc[c]!);
            out[o++] = f(f(total | 0) * scale);
          }
        }
      }
}

function matmulInt16(d: BatchMatMulOpData, lhs: Int16Array, rhs: Int16Array | Int8Array, out: Int16Array): void {
  const { rows, cols, depth, outputZeroPoint, multiplier, shift, lo, hi } = d;
  const b = d.batch;
  const le = d.lhsExtents;
  const re = d.rhsExtents;
  let o = 0;
  for (let b0 = 0; b0 < b[0]!; b0++)
    for (let b1 = 0; b1 < b[1]!; b1++)
      for (let b2 = 0; b2 < b[2]!; b2++) {
        const lBase = b0 * le[0]! + b1 * le[1]! + b2 * le[2]!;
        const rBase = b0 * re[0]! + b1 * re[1]! + b2 * re[2]!;
        for (let a = 0; a < rows; a++) {
          const lRow = lBase + a * depth;
          for (let c = 0; c < cols; c++) {
            const rRow = rBase + c * depth;
            // Zero points are 0; int64 sums are exact in a double (each product is below 2^30).
            let total = 0;
            for (let k = 0; k < depth; k++) total += rhs[rRow + k]! * lhs[lRow + k]!;
            const v = (multiplyByQuantizedMultiplierInt64(total, multiplier, shift) + outputZeroPoint) | 0;
            out[o++] = v < lo ? lo : v > hi ? hi : v;
          }
        }
      }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<BatchMatMulOpData>(OP, node);
  let lhs = context.getEvalTensor(node.inputs[0]!).data as Values;
  let rhs = context.getEvalTensor(node.inputs[1]!).data as Values;
  if (d.lhsT) {
    if (!d.lhsConstant) transposeMatrices(lhs, d.lhsT, d.lhsBatches, d.lhsRows, d.lhsCols);
    lhs = d.lhsT;
  }
  if (d.rhsT) {
    if (!d.rhsConstant) transposeMatrices(rhs, d.rhsT, d.rhsBatches, d.rhsRows, d.rhsCols);
    rhs = d.rhsT;
  }
  const out = context.getEvalTensor(node.outputs[0]!).data;
  if (d.kind === Kind.Float32) matmulFloat(d, lhs as Float32Array, rhs as Float32Array, out as Float32Array);
  else if (d.kind === Kind.Int8) matmulInt8(d, lhs as Int8Array, rhs as Int8Array, out as Int8Array);
  else if (d.kind === Kind.Hybrid) matmulHybrid(d, context, lhs as Float32Array, rhs as Int8Array, out as Float32Array);
  else matmulInt16(d, lhs as Int16Array, rhs as Int16Array | Int8Array, out as Int16Array);
}

function init(context: TfLiteContext): BatchMatMulOpData {
  context.allocatePersistentBuffer(MATH_OP_DATA_BYTES.BATCH_MATMUL);
  const zero = new Int32Array(3);
  return {
    kind: Kind.Float32,
    hybrid: null,
    batch: zero,
    rows: 0,
    cols: 0,
    depth: 0,
    lhsExtents: zero,
    rhsExtents: zero,
    lhsT: null,
    rhsT: null,
    lhsBatches: 0,
    lhsRows: 0,
    lhsCols: 0,
    rhsBatches: 0,
    rhsRows: 0,
    rhsCols: 0,
    lhsConstant: false,
    rhsConstant: false,
    lhsZeroPoint: 0,
    rhsZeroPoint: 0,
    outputZeroPoint: 0,
    multiplier: 0,
    shift: 0,
    lo: 0,
    hi: 0,
  };
}

/** BATCH_MATMUL reference kernel: float32, int8, int16, int16 × int8, hybrid float32 × int8. */
export const BATCH_MATMUL = {
  builtinCode: BuiltinOperator.BATCH_MATMUL,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES, 0, 'lhs'),
  init,
  prepare,
  invoke,
};
