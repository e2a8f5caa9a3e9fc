/**
 * SUM (tflite-micro kernels/reduce.cc, reduce_common.cc: PrepareMeanOrSumHelper, EvalSumHelper).
 *
 * - float32: reference_ops::ReduceGeneric from 0, adding in float32 in row-major input order.
 * - int8, int16: reference_ops::QuantizedMeanOrSum with compute_sum: wrapping int32 sums in a scratch
 *   buffer of one int32 per output (as TFLM requests it), the input zero point removed as
 *   sum - zero point * count, MultiplyByQuantizedMultiplier by input scale / output scale, plus the
 *   output zero point, saturated. An empty input gives raw zeros, as TFLM.
 * - int32, int64 (TFLite's): plain wrapping sums (int64 on int32 word pairs).
 * - uint8 (TFLite 2.9's EvalSum): with the input's scale and zero point on the output, a plain sum that
 *   wraps in uint8 (EvalGeneric); otherwise TFLite's float rescaling of QuantizedMeanOrSum: int32 sums s,
 *   then static_cast<uint8_t>(TfLiteRound(s · scale + bias) + output zero point) in float32, where
 *   scale = input scale / output scale and bias = −input zero point · scale · count (no clamping).
 */
import {
  BuiltinOperator,
  TensorType,
  roundHalfAwayFromZero,
  checkedQuantizeMultiplier,
  multiplyByQuantizedMultiplier,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  OP_DATA_REDUCE_BYTES,
  Reducer,
  type ReduceOpData,
  fillOutputs,
  fillOutputsInt64,
  foldInput,
  foldInputInt64,
  prepareReduce,
  writeReduceShapeFields,
  followsReduce,
} from './reduce-common.js';
import { type NumberArray, allocateOpDataBlock, opDataBlock } from './transpose-common.js';
import { opData, supportsInputTypes, typeRange } from '@micrort/kernel-support';

const OP = 'SUM';
const TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.UINT8,
];

/** How SUM computes, chosen in prepare. */
enum SumMode {
  Float,
  /** int8/int16: TFLM's QuantizedMeanOrSum. */
  Quantized,
  /** int32, and uint8 with the input's quantization on the output: a wrapping sum in the output type. */
  Plain,
  Int64,
  /** uint8 rescaled in float32 (TFLite 2.9). */
  Uint8Float,
}

interface SumOpData extends ReduceOpData {
  multiplier: number;
  shift: number;
  inputZeroPoint: number;
  outputZeroPoint: number;
  /** zero point * count, wrapped to int32. */
  zeroPointTimesCount: number;
  lo: number;
  hi: number;
  scratchIndex: number;
  mode: SumMode;
  /** Uint8Float: input/output scale and the bias, as float32 (the bias in a typed array: a data-dependent input rewrites it at invoke). */
  scale: number;
  bias: Float32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const block = opDataBlock(OP, node);
  const d = opData<SumOpData>(OP, node);
  const { input, output, plan } = prepareReduce(OP, context, node, TYPES);
  d.plan = plan;
  d.reducer = input.type === TensorType.FLOAT32 ? Reducer.SumFloat : Reducer.SumInt;
  writeReduceShapeFields(block, plan);
  d.mode = SumMode.Quantized;
  if (input.type === TensorType.FLOAT32) d.mode = SumMode.Float;
  else if (input.type === TensorType.INT32) d.mode = SumMode.Plain;
  else if (input.type === TensorType.INT64) d.mode = SumMode.Int64;
  else if (input.type === TensorType.UINT8) {
    const same = input.params.scale === output.params.scale && input.params.zeroPoint === output.params.zeroPoint;
    d.mode = same ? SumMode.Plain : SumMode.Uint8Float;
    d.scale = Math.fround(input.params.scale / output.params.scale);
    d.inputZeroPoint = input.params.zeroPoint;
    setUint8Bias(d, plan.count);
    d.outputZeroPoint = output.params.zeroPoint;
    if (!same) d.scratchIndex = context.requestScratchBufferInArena(4 * plan.numOutputs);
  }
  if (d.mode !== SumMode.Quantized) return;
  const q = checkedQuantizeMultiplier(OP, node, input.params.scale / output.params.scale, 'input/output rescale');
  d.multiplier = q.multiplier;
  d.shift = q.shift;
  d.inputZeroPoint = input.params.zeroPoint;
  d.outputZeroPoint = output.params.zeroPoint;
  d.zeroPointTimesCount = Math.imul(input.params.zeroPoint, plan.count);
  [d.lo, d.hi] = typeRange(input.type);
  d.scratchIndex = context.requestScratchBufferInArena(4 * plan.numOutputs);
  block.setInt32(0, q.multiplier, true);
  block.setInt32(4, q.shift, true);
  block.setInt32(8, d.scratchIndex, true);
  block.setInt32(16, d.inputZeroPoint, true);
  block.setFloat32(20, input.params.scale, true);
  block.setInt32(24, d.outputZeroPoint, true);
  block.setFloat32(28, output.params.scale, true);
}

/** TFLite 2.9's float32 bias of the uint8 rescaled sum: −zero point · scale · count. */
function setUint8Bias(d: SumOpData, count: number): void {
  d.bias[0] = Math.fround(Math.fround(-d.inputZeroPoint * d.scale)) * Math.fround(count);
}

function sumInt(d: SumOpData, input: NumberArray, out: NumberArray, sums: Int32Array): void {
  const plan = d.plan!;
  const n = plan.numOutputs;
  fillOutputs(out, n, 0);
  if (plan.inputElements === 0) return;
  fillOutputs(sums, n, 0);
  foldInput(plan, Reducer.SumInt, input, sums);
  const { multiplier, shift, outputZeroPoint, zeroPointTimesCount, lo, hi } = d;
  for (let i = 0; i < n; i++) {
    const v = (multiplyByQuantizedMultiplier((sums[i]! - zeroPointTimesCount) | 0, multiplier, shift) + outputZeroPoint) | 0;
    out[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

/** uint8 rescaled as TFLite 2.9's QuantizedMeanOrSum (compute_sum) in float32. */
function sumUint8Float(d: SumOpData, input: NumberArray, out: Uint8Array, sums: Int32Array): void {
  const plan = d.plan!;
  const n = plan.numOutputs;
  fillOutputs(out, n, 0);
  if (plan.inputElements === 0 || plan.count === 0) return;
  fillOutputs(sums, n, 0);
  foldInput(plan, Reducer.SumInt, input, sums);
  for (let i = 0; i < n; i++) {
    const v = roundHalfAwayFromZero(Math.fround(Math.fround(sums[i]! * d.scale) + d.bias[0]!)) + d.outputZeroPoint;
    out[i] = v;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SumOpData>(OP, node);
  const inputTensor = context.getEvalTensor(node.inputs[0]!);
  const outputTensor = context.getEvalTensor(node.outputs[0]!);
  const input = inputTensor.data as unknown as NumberArray;
  const out = outputTensor.data as unknown as NumberArray;
  const plan = d.plan!;
  switch (d.mode) {
    case SumMode.Float:
      fillOutputs(out, plan.numOutputs, 0);
      foldInput(plan, Reducer.SumFloat, input, out);
      return;
    case SumMode.Plain:
      // Typed stores wrap each partial sum to the output type, as C's += in that type.
      fillOutputs(out, plan.numOutputs, 0);
      foldInput(plan, Reducer.SumInt, input, out);
      return;
    case SumMode.Int64:
      fillOutputsInt64(outputTensor.words, plan.numOutputs, 0, 0);
      foldInputInt64(plan, Reducer.SumInt, inputTensor.words, outputTensor.words);
      return;
    case SumMode.Uint8Float:
      sumUint8Float(d, input, outputTensor.data as Uint8Array, context.getScratchBuffer(d.scratchIndex).i32);
      return;
    default:
      sumInt(d, input, out, context.getScratchBuffer(d.scratchIndex).i32);
  }
}

/** SUM reference kernel: float32, int8, int16, and TFLite's int32, int64, uint8. */
export const SUM = followsReduce<SumOpData>(
  {
    builtinCode: BuiltinOperator.SUM,
    version: 2,
    provider: PROVIDER,
    name: OP,
    supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
    init: (context: TfLiteContext): SumOpData => ({
      ...allocateOpDataBlock(context, OP_DATA_REDUCE_BYTES),
      plan: null,
      reducer: Reducer.SumFloat,
      initial: 0,
      multiplier: 0,
      shift: 0,
      inputZeroPoint: 0,
      outputZeroPoint: 0,
      zeroPointTimesCount: 0,
      lo: 0,
      hi: 0,
      scratchIndex: -1,
      mode: SumMode.Float,
      scale: 0,
      bias: new Float32Array(1),
    }),
    prepare,
    invoke,
  },
  (d) => d.plan,
  {
    // the parts of the rescaling that depend on the reduced count, for this invoke's count
    sync: (d, plan) => {
      if (d.mode === SumMode.Quantized) d.zeroPointTimesCount = Math.imul(d.inputZeroPoint, plan.count);
      else if (d.mode === SumMode.Uint8Float) setUint8Bias(d, plan.count);
    },
  },
);
