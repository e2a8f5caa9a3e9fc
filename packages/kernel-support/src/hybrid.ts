/**
 * The arithmetic of TFLite's hybrid kernels (float32 activations × int8 weights — the converter's
 * dynamic-range quantization), written once for FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D,
 * TRANSPOSE_CONV, BATCH_MATMUL, SVDF, the RNNs and the LSTMs: TFLite's `tensor_utils`
 * (kernels/internal/reference/portable_tensor_utils.cc) to the float32 operation.
 *
 * A hybrid kernel quantizes its float input at run time, one row ("batch") at a time, to int8 with a
 * scaling factor (and, asymmetric, a zero point), accumulates int8 × int8 products exactly in int32,
 * and scales the sum back to float with the row's scaling factor × the weight scale:
 *   result[b][r] += float(Σ q_in[b][k] · w[r][k] − row_sum[r] · zero_point[b]) · (factor[b] · w_scale)
 * Every float32 operation is rounded as in C++ (`Math.fround`), so the results equal TFLite's portable
 * kernels to the bit; its SSE/NEON variants compute the same integer sums and the same float products.
 *
 * Scalars that a C++ function returns through a pointer (scaling factors, zero points) are written
 * into typed arrays at an index: nothing here returns a double or allocates, so invoke can call it.
 */
import {
  ActivationFunctionType,
  KernelError,
  TensorType,
  roundHalfAwayFromZero,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { QuantizationError, TensorTypeError } from './checks.js';

const f = Math.fround;

/**
 * TFLite SymmetricQuantizeFloats: `values[offset .. offset + size)` to int8 in [-127, 127] with the
 * scaling factor `max|v| / 127` (float32), written to `factors[factorIndex]`; an all-zero row gives
 * zeros and factor 1. q = clamp(round_half_away(v · (127 / max|v|))).
 */
export function symmetricQuantizeFloats(
  values: Float32Array,
  offset: number,
  size: number,
  out: Int8Array,
  outOffset: number,
  factors: Float32Array,
  factorIndex: number,
): void {
  let min = values[offset]!;
  let max = min;
  for (let i = 1; i < size; i++) {
    const v = values[offset + i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const range = Math.max(Math.abs(min), Math.abs(max));
  if (size === 0 || range === 0) {
    out.fill(0, outOffset, outOffset + size);
    factors[factorIndex] = 1;
    return;
  }
  factors[factorIndex] = range / 127;
  const inv = f(127 / range);
  for (let i = 0; i < size; i++) {
    const q = roundHalfAwayFromZero(f(values[offset + i]! * inv));
    out[outOffset + i] = q > 127 ? 127 : q < -127 ? -127 : q;
  }
}

/**
 * TFLite AsymmetricQuantizeFloats: `values[offset .. offset + size)` to int8 in [-128, 127] over the
 * range [min(0, min v), max(0, max v)] (the scale and zero point chosen in double, the zero point
 * nudged into [-128, 127]); the scale goes to `factors[index]`, the zero point to `zeroPoints[index]`.
 * q = clamp(round_half_away(zero_point + v · (1 / scale))), the sum in float32.
 */
export function asymmetricQuantizeFloats(
  values: Float32Array,
  offset: number,
  size: number,
  out: Int8Array,
  outOffset: number,
  factors: Float32Array,
  zeroPoints: Int32Array,
  index: number,
): void {
  let min = 0;
  let max = 0;
  for (let i = 0; i < size; i++) {
    const v = values[offset + i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === max) {
    out.fill(0, outOffset, outOffset + size);
    factors[index] = 1;
    zeroPoints[index] = 0;
    return;
  }
  const scale = (max - min) / 255;
  const fromMin = -128 - min / scale;
  const fromMax = 127 - max / scale;
  const fromMinError = 128 + Math.abs(min / scale);
  const fromMaxError = 127 + Math.abs(max / scale);
  const zp = fromMinError < fromMaxError ? fromMin : fromMax;
  const zeroPoint = zp <= -128 ? -128 : zp >= 127 ? 127 : roundHalfAwayFromZero(zp);
  factors[index] = scale;
  zeroPoints[index] = zeroPoint;
  const inv = f(1 / factors[index]!);
  for (let i = 0; i < size; i++) {
    const q = roundHalfAwayFromZero(f(zeroPoint + f(values[offset + i]! * inv)));
    out[outOffset + i] = q > 127 ? 127 : q < -128 ? -128 : q;
  }
}

/**
 * TFLite BatchQuantizeFloats: `batches` rows of `size` floats from `values[offset ..]`, each quantized
 * on its own (asymmetric or symmetric) into `out[outOffset ..]`, factors and zero points at
 * `[index + row]`. Symmetric rows get zero point 0 (TFLite leaves them unwritten and passes no zero
 * points to the matrix product; 0 is that product's value).
 */
export function batchQuantizeFloats(
  values: Float32Array,
  offset: number,
  batches: number,
  size: number,
  out: Int8Array,
  outOffset: number,
  factors: Float32Array,
  zeroPoints: Int32Array,
  index: number,
  asymmetric: boolean,
): void {
  for (let b = 0; b < batches; b++) {
    const at = offset + b * size;
    const to = outOffset + b * size;
    if (asymmetric) asymmetricQuantizeFloats(values, at, size, out, to, factors, zeroPoints, index + b);
    else {
      symmetricQuantizeFloats(values, at, size, out, to, factors, index + b);
      zeroPoints[index + b] = 0;
    }
  }
}

/** TFLite IsZeroVector: every value of `values[offset .. offset + size)` is exactly 0. */
export function isZeroVector(values: Float32Array, offset: number, size: number): boolean {
  for (let i = 0; i < size; i++) if (values[offset + i] !== 0) return false;
  return true;
}

/** Multiplies `factors[index .. index + count)` by `scale` in float32 (the per-tensor weight scale). */
export function scaleFactors(factors: Float32Array, index: number, count: number, scale: number): void {
  for (let i = 0; i < count; i++) factors[index + i] = factors[index + i]! * scale;
}

/** TFLite ReductionSumVector: `sums[i]` = Σ of row i of the `rows` × `cols` int8 matrix at `offset`. */
export function reductionSumVector(matrix: Int8Array, offset: number, rows: number, cols: number, sums: Int32Array, sumsOffset = 0): void {
  for (let r = 0; r < rows; r++) {
    let s = 0;
    const base = offset + r * cols;
    for (let c = 0; c < cols; c++) s += matrix[base + c]!;
    sums[sumsOffset + r] = s;
  }
}

/**
 * The weights and scales of one hybrid matrix product: an int8 `rows` × `cols` matrix (row-major, at
 * `offset`), its row sums (needed when inputs are quantized asymmetrically, else unused) and the
 * per-channel scales along the rows (null: per-tensor, the weight scale already folded into the
 * factors).
 */
export interface HybridWeights {
  matrix: Int8Array;
  offset: number;
  rows: number;
  cols: number;
  rowSums: Int32Array;
  rowSumsOffset: number;
  perChannelScale: Float32Array | null;
}

/**
 * TFLite MatrixBatchVectorMultiplyAccumulate (int8 × int8 → float): for each of `batches` quantized
 * input rows (`vectors[vOffset + b · cols ..]`, factor and zero point at `[index + b]`) and each weight
 * row r, `result[rOffset + b · rows + r] += float(dot − rowSum[r] · zeroPoint[b]) · scale` with
 * scale = factor[b] (× perChannelScale[r]), every float operation in float32. `resultStride` spaces the
 * batches (default `rows`).
 */
export function matrixBatchVectorMultiplyAccumulate(
  w: HybridWeights,
  vectors: Int8Array,
  vOffset: number,
  factors: Float32Array,
  zeroPoints: Int32Array,
  index: number,
  batches: number,
  result: Float32Array,
  rOffset: number,
  resultStride = w.rows,
): void {
  const { matrix, offset, rows, cols, rowSums, rowSumsOffset, perChannelScale } = w;
  for (let b = 0; b < batches; b++) {
    const factor = factors[index + b]!;
    const zeroPoint = zeroPoints[index + b]!;
    const vBase = vOffset + b * cols;
    const rBase = rOffset + b * resultStride;
    for (let r = 0; r < rows; r++) {
      const mBase = offset + r * cols;
      let dot = 0;
      for (let c = 0; c < cols; c++) dot += matrix[mBase + c]! * vectors[vBase + c]!;
      if (zeroPoint !== 0) dot -= rowSums[rowSumsOffset + r]! * zeroPoint;
      dot |= 0;
      const scale = perChannelScale === null ? factor : f(factor * perChannelScale[r]!);
      result[rBase + r] = result[rBase + r]! + f(f(dot) * scale);
    }
  }
}

/**
 * TFLite ApplyActivationToVector (float): NONE, RELU, RELU_N1_TO_1, RELU6 (std::max/std::min as
 * written, so −0 and NaN come out as C++'s), TANH, SIGN_BIT (1 for a negative value, −0 included) over
 * `data[offset .. offset + count)`, in place; one loop per activation.
 */
export function applyActivationToVector(activation: ActivationFunctionType, data: Float32Array, offset: number, count: number): void {
  const end = offset + count;
  switch (activation) {
    case ActivationFunctionType.NONE:
      return;
    case ActivationFunctionType.RELU:
      for (let i = offset; i < end; i++) data[i] = data[i]! > 0 ? data[i]! : 0;
      return;
    case ActivationFunctionType.RELU_N1_TO_1:
      // std::max(-1.0f, std::min(v, 1.0f)), comparison for comparison (NaN → -1).
      for (let i = offset; i < end; i++) {
        const m = 1 < data[i]! ? 1 : data[i]!;
        data[i] = -1 < m ? m : -1;
      }
      return;
    case ActivationFunctionType.RELU6:
      // std::max(0.0f, std::min(v, 6.0f)) (−0 and NaN → 0).
      for (let i = offset; i < end; i++) {
        const m = 6 < data[i]! ? 6 : data[i]!;
        data[i] = 0 < m ? m : 0;
      }
      return;
    case ActivationFunctionType.TANH:
      for (let i = offset; i < end; i++) data[i] = Math.tanh(data[i]!);
      return;
    case ActivationFunctionType.SIGN_BIT:
      for (let i = offset; i < end; i++) data[i] = data[i]! < 0 || (data[i] === 0 && 1 / data[i]! < 0) ? 1 : 0;
      return;
    default:
      throw new RangeError(`applyActivationToVector: unsupported activation ${activation}`);
  }
}

/** Whether {@link applyActivationToVector} takes `activation` (every fused activation of the schema). */
export function isVectorActivation(activation: ActivationFunctionType): boolean {
  return activation >= ActivationFunctionType.NONE && activation <= ActivationFunctionType.SIGN_BIT;
}

/**
 * TFLite UnpackDenseInt4IntoInt8: `count` int4 values packed two per byte (low nibble first, as the
 * converter writes them) into one int8 each. A buffer of `count` bytes holds them unpacked already
 * (one value per byte, which the loader accepts too) and is copied.
 */
export function unpackInt4(packed: Uint8Array | Int8Array, count: number, out: Int8Array, outOffset = 0): void {
  if (packed.length === count) {
    for (let i = 0; i < count; i++) out[outOffset + i] = (packed[i]! << 28) >> 28;
    return;
  }
  for (let i = 0; i < count; i++) {
    const byte = packed[i >> 1]!;
    out[outOffset + i] = i & 1 ? (byte << 24) >> 28 : (byte << 28) >> 28;
  }
}

/** The weight types TFLite's hybrid kernels take (int8, uint8 read as int8, int4). */
export const HYBRID_WEIGHT_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8, TensorType.INT4];

/**
 * The int8 values of a hybrid kernel's weights, in prepare: int8 data as they are; uint8 data read as
 * int8 bytes (TFLite's hybrid kernels take `GetTensorData<int8_t>` of a uint8 filter: the converter's
 * legacy "uint8" hybrid weights are int8 values, and the zero point is not used); int4 data unpacked once
 * into a persistent arena buffer (TFLite unpacks on every invoke). Weights other than int8 must be
 * constant; int8 weights that are not constant return null (read them from the eval tensor in invoke).
 */
export function hybridWeightsInt8(op: string, context: TfLiteContext, node: Node, what: string, t: Tensor): Int8Array | null {
  if (!HYBRID_WEIGHT_TYPES.includes(t.type)) throw new TensorTypeError(op, node.index, what, t.index, t.type, HYBRID_WEIGHT_TYPES);
  if (!t.isConstant) {
    if (t.type !== TensorType.INT8)
      throw new KernelError(op, node.index, `${tensorTypeName(t.type)} ${what} (tensor ${t.index}) of a hybrid kernel must be a constant`);
    return null;
  }
  if (t.type === TensorType.INT8) return t.data as Int8Array;
  if (t.type === TensorType.UINT8) return new Int8Array(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength);
  const count = t.elementCount;
  const out = context.allocatePersistentBuffer(count).i8.subarray(0, count);
  unpackInt4(t.data as Int8Array, count, out);
  return out;
}

/**
 * The weight scales of a hybrid kernel: the per-tensor scale, and the per-channel scales (null when the
 * tensor has one scale) along `dimension`, which must hold `channels` entries. Throws a
 * `QuantizationError` for missing or non-positive scales.
 */
export function hybridWeightScales(
  op: string,
  node: Node,
  what: string,
  t: Tensor,
  dimension: number,
  channels: number,
): { scale: number; perChannel: Float32Array | null } {
  const q = t.quantization;
  if (!q || q.scale.length === 0 || !q.scale.every((s) => s > 0 && s < Infinity))
    throw new QuantizationError(
      op,
      node.index,
      what,
      t.index,
      `${what} (tensor ${t.index}) of a hybrid kernel needs positive finite scales`,
    );
  if (q.scale.length === 1) return { scale: q.scale[0]!, perChannel: null };
  if (q.quantizedDimension !== dimension || q.scale.length !== channels)
    throw new QuantizationError(
      op,
      node.index,
      what,
      t.index,
      `${what} (tensor ${t.index}) has ${q.scale.length} scales along dimension ${q.quantizedDimension}; a hybrid kernel takes one, or ${channels} along dimension ${dimension}`,
    );
  return { scale: q.scale[0]!, perChannel: q.scale };
}
