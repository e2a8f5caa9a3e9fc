/**
 * MEAN (TFLM kernels/reduce.cc + reduce_common.cc; reference_ops::Mean / QuantizedMeanOrSum from
 * tensorflow/lite/kernels/internal/reference/reduce.h). Reduces over any set of axes (negative allowed,
 * duplicates ignored) of an input of up to 5 dimensions, with or without keep_dims.
 *
 * - float32: sums in float32 in input order, then divides by the element count. TFLM's special 4-D
 *   H,W path (keep_dims, axes {1, 2}) sums each output in the same h-then-w order, so one code path
 *   gives its results.
 * - int8/int16: TFLM's QuantizedMeanOrSum, which current TFLM runs for every integer MEAN: int32 sums
 *   (wrapping, in a scratch buffer of one int32 per output as TFLM requests), the input zero point
 *   removed as `sum - zp_in * count`, then MultiplyByQuantizedMultiplier with the multiplier of
 *   scale_in / scale_out into which 1/count has been folded, plus zp_out, saturated. TFLite's
 *   reference kernel runs the same QuantizedMeanOrSum for uint8 (reduce.cc EvalQuantizedMean).
 * - int32, int64 (TFLite's reference_ops::Mean): int64 sums (wrapping; int32 inputs sign-extended, so
 *   they never overflow), divided by the count truncating toward zero (C++'s `/`), the int32 output
 *   taking the low word. On int32 word pairs (kernel-support's int64.ts), in a scratch buffer of 8 bytes
 *   per output.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  multiplyByQuantizedMultiplier,
  checkedQuantizeMultiplier,
  tensorTypeName,
} from '@micrort/core';
import type { EvalTensor, Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { OP_DATA_REDUCE_BYTES, REDUCE_MAX_DIMS, planReduce, followsReduce } from './reduce-common.js';
import { type NumberArray, type OpDataBlock, allocateOpDataBlock, opDataBlock } from './transpose-common.js';
import { add64, fillOpData, neg64, opData, setInt64FromNumber, udivmod64 } from '@micrort/kernel-support';
import { type ReducePlan, foldInputInt64, Reducer } from './reduce-common.js';

const OP = 'MEAN';

/** Op data computed in prepare. */
export interface MeanOpData extends OpDataBlock {
  type: TensorType;
  /** Input dims front-padded with 1s to 5. */
  inDims: Int32Array;
  /** Per (padded) input axis: stride in the output, 0 for reduced axes. */
  outStrides: Int32Array;
  numOutputs: number;
  inputElements: number;
  /** Number of input elements averaged into each output. */
  count: number;
  /** Integer path: folded multiplier/shift, zero points, int32 of zp_in * count, scratch index. */
  multiplier: number;
  shift: number;
  inputZeroPoint: number;
  outputZeroPoint: number;
  zeroPointTimesCount: number;
  qmin: number;
  qmax: number;
  scratchIndex: number;
  /** The reduction's geometry (int64 sums fold through it). */
  plan: ReducePlan | null;
}

/**
 * QuantizedMeanOrSum's rescaling for a mean: folds 1/count into (multiplier, shift) exactly as TFLM does
 * with int64 math: s = min(floor(log2(count)), 32, 31 + shift); multiplier' = (multiplier << s) / count
 * (truncating); shift' = shift - s.
 */
export function foldCountIntoMultiplier(multiplier: number, shift: number, count: number): { multiplier: number; shift: number } {
  if (!(count >= 1 && count < 4294967296)) throw new RangeError(`foldCountIntoMultiplier: count ${count} out of range`);
  foldCountInto(FOLDED, multiplier, shift, count);
  return { multiplier: FOLDED[0]!, shift: FOLDED[1]! };
}

const FOLDED = new Int32Array(2);

/**
 * `foldCountIntoMultiplier` without allocating (int64 on int32 words, kernel-support's udivmod64):
 * writes the folded multiplier and shift at `out[0]`, `out[1]`. `count` in [1, 2^31), `multiplier` in
 * [0, 2^31). A data-dependent MEAN calls it at invoke with the actual count.
 */
export function foldCountInto(out: Int32Array, multiplier: number, shift: number, count: number): void {
  let s = 31 - Math.clz32(count);
  if (s > 32) s = 32;
  if (s > 31 + shift) s = 31 + shift;
  // (multiplier << s) as the words (lo, hi); s is at most 31 for counts below 2^32 (floor(log2) < 32)
  // (a shift below 0 — a rescale under 2^-31 — shifts right, as BigInt's << of a negative count)
  const lo = s === 0 ? multiplier : s < 0 ? (s <= -32 ? 0 : multiplier >>> -s) : (multiplier << s) >>> 0;
  const hi = s <= 0 ? 0 : multiplier >>> (32 - s);
  udivmod64(WIDE, 0, lo, hi, count, 0);
  out[0] = WIDE[0]!;
  out[1] = shift - s;
}

function init(context: TfLiteContext): OpDataBlock {
  return allocateOpDataBlock(context, OP_DATA_REDUCE_BYTES);
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const block = opDataBlock(OP, node);
  const input = getInput(context, node, 0, OP);
  const axisTensor = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  const type = input.type;
  if (
    type !== TensorType.FLOAT32 &&
    type !== TensorType.INT8 &&
    type !== TensorType.INT16 &&
    type !== TensorType.UINT8 &&
    type !== TensorType.INT32 &&
    type !== TensorType.INT64
  )
    throw new KernelError(
      OP,
      node.index,
      `unsupported input type ${tensorTypeName(type)} (float32, int8, int16, uint8, int32, int64 are supported)`,
    );
  if (output.type !== type)
    throw new KernelError(OP, node.index, `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(type)}`);
  const rank = input.dims.length;
  if (rank > REDUCE_MAX_DIMS)
    throw new KernelError(OP, node.index, `input has ${rank} dimensions, at most ${REDUCE_MAX_DIMS} are supported`);
  if (axisTensor.type !== TensorType.INT32)
    throw new KernelError(OP, node.index, `axis tensor has type ${tensorTypeName(axisTensor.type)}, expected int32`);
  if (!axisTensor.isConstant) throw new KernelError(OP, node.index, `axis tensor ${axisTensor.index} must be constant`);
  const plan = planReduce(OP, context, node, input, output, axisTensor.data as Int32Array);
  const { inDims, outStrides, numOutputs, count } = plan;

  const data: MeanOpData = {
    block,
    type,
    inDims,
    outStrides,
    numOutputs,
    inputElements: input.elementCount,
    count,
    multiplier: 0,
    shift: 0,
    inputZeroPoint: 0,
    outputZeroPoint: 0,
    zeroPointTimesCount: 0,
    qmin: 0,
    qmax: 0,
    scratchIndex: -1,
    plan,
  };
  if (type === TensorType.INT32 || type === TensorType.INT64) {
    data.scratchIndex = context.requestScratchBufferInArena(numOutputs * 8);
  } else if (type !== TensorType.FLOAT32) {
    const inScale = input.params.scale;
    const outScale = output.params.scale;
    if (!(inScale > 0) || !(outScale > 0))
      throw new KernelError(OP, node.index, `quantized MEAN needs positive scales, got input ${inScale}, output ${outScale}`);
    const q = checkedQuantizeMultiplier(OP, node, inScale / outScale, 'input/output rescale');
    const folded = count > 0 ? foldCountIntoMultiplier(q.multiplier, q.shift, count) : q;
    data.multiplier = folded.multiplier;
    data.shift = folded.shift;
    data.inputZeroPoint = input.params.zeroPoint;
    data.outputZeroPoint = output.params.zeroPoint;
    data.zeroPointTimesCount = Math.imul(input.params.zeroPoint, count);
    [data.qmin, data.qmax] = type === TensorType.INT8 ? [-128, 127] : type === TensorType.UINT8 ? [0, 255] : [-32768, 32767];
    data.scratchIndex = context.requestScratchBufferInArena(numOutputs * 4);
    // TFLM keeps the multiplier of scale_in / scale_out; 1/count is folded in at eval.
    block.setInt32(0, q.multiplier, true);
    block.setInt32(4, q.shift, true);
    block.setInt32(8, data.scratchIndex, true);
    block.setInt32(16, data.inputZeroPoint, true);
    block.setFloat32(20, inScale, true);
    block.setInt32(24, data.outputZeroPoint, true);
    block.setFloat32(28, outScale, true);
  }
  block.setInt32(32, numOutputs, true);
  block.setInt32(36, axisTensor.elementCount, true);
  fillOpData(OP, node, data);
}

/** sum[out(i)] += in[i] over the (padded 5-D) input in row-major order, wrapping to int32. */
function accumulateInt(d: MeanOpData, input: NumberArray, sum: Int32Array): void {
  const n = d.inDims,
    s = d.outStrides;
  const n0 = n[0]!,
    n1 = n[1]!,
    n2 = n[2]!,
    n3 = n[3]!,
    n4 = n[4]!;
  const s0 = s[0]!,
    s1 = s[1]!,
    s2 = s[2]!,
    s3 = s[3]!,
    s4 = s[4]!;
  let p = 0;
  for (let i0 = 0; i0 < n0; i0++)
    for (let i1 = 0; i1 < n1; i1++)
      for (let i2 = 0; i2 < n2; i2++)
        for (let i3 = 0; i3 < n3; i3++) {
          let o = i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3;
          for (let i4 = 0; i4 < n4; i4++, o += s4) sum[o] = (sum[o]! + input[p++]!) | 0;
        }
}

/** Float version of accumulateInt: the Float32Array store rounds each partial sum to float32, as C does. */
function accumulateFloat(d: MeanOpData, input: Float32Array, sum: Float32Array): void {
  const n = d.inDims,
    s = d.outStrides;
  const n0 = n[0]!,
    n1 = n[1]!,
    n2 = n[2]!,
    n3 = n[3]!,
    n4 = n[4]!;
  const s0 = s[0]!,
    s1 = s[1]!,
    s2 = s[2]!,
    s3 = s[3]!,
    s4 = s[4]!;
  let p = 0;
  for (let i0 = 0; i0 < n0; i0++)
    for (let i1 = 0; i1 < n1; i1++)
      for (let i2 = 0; i2 < n2; i2++)
        for (let i3 = 0; i3 < n3; i3++) {
          let o = i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3;
          for (let i4 = 0; i4 < n4; i4++, o += s4) sum[o] = sum[o]! + input[p++]!;
        }
}

/** Float32 mean: sums in the output, then divides by the count (float32 division, as C). */
function meanFloat(d: MeanOpData, input: Float32Array, out: Float32Array): void {
  const n = d.numOutputs;
  for (let i = 0; i < n; i++) out[i] = 0;
  accumulateFloat(d, input, out);
  const count = d.count;
  if (count > 0) for (let i = 0; i < n; i++) out[i] = out[i]! / count;
  // Nothing reduced at an invoke of a data-dependent input: TFLite 2.9 divides by the zero count (NaN)
  else if (d.plan!.actualOutputDims !== null) for (let i = 0; i < n; i++) out[i] = NaN;
}

/** int8/int16/uint8 mean: TFLM QuantizedMeanOrSum with the int32 sums in `sum` (the scratch buffer). */
function meanInt(d: MeanOpData, input: NumberArray, out: NumberArray, sum: Int32Array): void {
  const n = d.numOutputs;
  if (d.inputElements === 0) {
    for (let i = 0; i < n; i++) out[i] = 0;
    return;
  }
  for (let i = 0; i < n; i++) sum[i] = 0;
  accumulateInt(d, input, sum);
  const { multiplier, shift, outputZeroPoint, zeroPointTimesCount, qmin, qmax } = d;
  for (let i = 0; i < n; i++) {
    const shifted = (sum[i]! - zeroPointTimesCount) | 0;
    const v = multiplyByQuantizedMultiplier(shifted, multiplier, shift) + outputZeroPoint;
    out[i] = v < qmin ? qmin : v > qmax ? qmax : v;
  }
}

const WIDE = new Int32Array(2);

/** int32 / int64 mean: int64 sums in `sums` (words), then truncating division by the count. */
function meanWide(d: MeanOpData, input: EvalTensor, output: EvalTensor, sums: Int32Array): void {
  const n = d.numOutputs;
  sums.fill(0, 0, 2 * n);
  if (d.type === TensorType.INT64) foldInputInt64(d.plan!, Reducer.SumInt, input.words, sums);
  else {
    const x = input.data as Int32Array;
    const nd = d.inDims,
      st = d.outStrides;
    let p = 0;
    for (let i0 = 0; i0 < nd[0]!; i0++)
      for (let i1 = 0; i1 < nd[1]!; i1++)
        for (let i2 = 0; i2 < nd[2]!; i2++)
          for (let i3 = 0; i3 < nd[3]!; i3++) {
            let o = i0 * st[0]! + i1 * st[1]! + i2 * st[2]! + i3 * st[3]!;
            for (let i4 = 0; i4 < nd[4]!; i4++, o += st[4]!) {
              setInt64FromNumber(WIDE, 0, x[p++]!);
              add64(sums, 2 * o, sums, 2 * o, WIDE, 0);
            }
          }
  }
  const out = output.words.length > 0 && d.type === TensorType.INT64 ? output.words : null;
  const out32 = output.data as Int32Array;
  const count = d.count;
  for (let i = 0; i < n; i++) {
    if (count === 0) {
      if (out) out.fill(0, 2 * i, 2 * i + 2);
      else out32[i] = 0;
      continue;
    }
    const neg = sums[2 * i + 1]! < 0;
    if (neg) neg64(sums, 2 * i, sums, 2 * i);
    udivmod64(WIDE, 0, sums[2 * i]!, sums[2 * i + 1]!, count, 0);
    if (neg) neg64(WIDE, 0, WIDE, 0);
    if (out) {
      out[2 * i] = WIDE[0]!;
      out[2 * i + 1] = WIDE[1]!;
    } else out32[i] = WIDE[0]!;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<MeanOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  if (d.type === TensorType.FLOAT32) meanFloat(d, input.data as Float32Array, output.data as Float32Array);
  else if (d.type === TensorType.INT32 || d.type === TensorType.INT64)
    meanWide(d, input, output, context.getScratchBuffer(d.scratchIndex).i32);
  else
    meanInt(d, input.data as unknown as NumberArray, output.data as unknown as NumberArray, context.getScratchBuffer(d.scratchIndex).i32);
}

/** MEAN registration: float32, int8, int16, uint8 (op versions 1..3). */
export const MEAN: Registration = followsReduce<MeanOpData>(
  {
    builtinCode: BuiltinOperator.MEAN,
    version: 3,
    provider: PROVIDER,
    name: OP,
    // init returns TFLM's block; prepare fills the rest of MeanOpData into it (fillOpData)
    init: init as unknown as (context: TfLiteContext) => MeanOpData,
    prepare,
    invoke,
  },
  (d) => d.plan,
  {
    sync: (d, plan) => {
      d.numOutputs = plan.numOutputs;
      d.inputElements = plan.inputElements;
      d.count = plan.count;
      if (d.type === TensorType.INT8 || d.type === TensorType.INT16 || d.type === TensorType.UINT8) {
        // the quantized rescaling of this count (TFLM folds 1/count in at eval too); the input/output
        // multiplier stays in TFLM's block
        const m = d.block.getInt32(0, true);
        const shift = d.block.getInt32(4, true);
        if (plan.count > 0) {
          foldCountInto(FOLDED, m, shift, plan.count);
          d.multiplier = FOLDED[0]!;
          d.shift = FOLDED[1]!;
        } else {
          d.multiplier = m;
          d.shift = shift;
        }
        d.zeroPointTimesCount = Math.imul(d.inputZeroPoint, plan.count);
      }
    },
  },
);
