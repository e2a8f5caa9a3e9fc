/**
 * LOG_SOFTMAX (tflite-micro kernels/log_softmax.cc; reference_ops::LogSoftmax, LogSoftmaxQuantized): per
 * row along the last dimension, x - max - log(sum(exp(x - max))). Input and output of one type and shape.
 *
 * - float32: max, then the sum of expf(x - max) and logf of it, every step in float32.
 * - int8: TFLM requires the output quantization q(16/256, 127). Differences to the row maximum at or
 *   above diff_min are rescaled to Q5.26 (PreprocessLogSoftmaxScalingExp, beta 1), exponentiated with
 *   gemmlowp's exp_on_negative_values and summed in Q12.19; log_x_for_x_greater_than_or_equal_to_1 gives
 *   the log of the sum in Q5.26; outputs are (scaled diff - log sum) rounded to 4 integer bits + 127,
 *   or -128 below the adjusted minimum difference.
 *
 * - uint8 (TFLite's activations.cc; TFLM has none): reference_ops::LogSoftmax for uint8, the same
 *   arithmetic with output q(16/256, 255), the row maximum starting at 0, outputs clamped to [0, 255]
 *   and 0 below the adjusted minimum difference. TFLite 2.9's resolver gives the same bytes (checked in
 *   quantized-gaps.tflite-oracle.test.ts).
 *
 * TFLM refuses other types at invoke ("LOG_SOFTMAX only supports float32, int8"); this kernel refuses
 * them in prepare.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  calculateInputRadius,
  checkedQuantizeMultiplier,
  expF32,
  expOnNegativeValues,
  multiplyByQuantizedMultiplier,
  quantizeMultiplierGreaterThanOne,
  quantizeMultiplierSmallerThanOneExp,
  rescale,
  roundingDivideByPOT,
  type Node,
  type Tensor,
  type TfLiteContext,
  tensorTypeName,
} from '@micrort/core';
import { logXForXGreaterThanOrEqualTo1 } from './log-softmax-common.js';
import { MATH_OP_DATA_BYTES, requireSameShape } from './math-common.js';
import { requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { allocateOpData, opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'LOG_SOFTMAX';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8];
/** The only output quantization TFLM (int8) and TFLite (int8, uint8) accept: scale 16/256, zero point the type's maximum. */
const OUTPUT_SCALE = 16 / 256;
/** Integer bits of the scaled differences (Q5.26), of the sum of exps (Q12.19) and of the output. */
const INPUT_INTEGER_BITS = 5;
const ACCUMULATION_INTEGER_BITS = 12;
const OUTPUT_INTEGER_BITS = 4;
const INT32_MIN = -2147483648;

// Word offsets in TFLM's LogSoftmaxOpData (then two size_t: outer size, depth).
const W_INPUT_MULTIPLIER = 0;
const W_INPUT_LEFT_SHIFT = 1;
const W_REVERSE_SCALING_DIVISOR = 2;
const W_REVERSE_SCALING_RIGHT_SHIFT = 3;
const W_DIFF_MIN = 4;

interface LogSoftmaxOpData extends UnaryOpData {
  type: TensorType;
  outer: number;
  depth: number;
  /** TFLM's int8 LogSoftmaxOpData in the arena (empty for float32, where TFLM allocates none). */
  params: Int32Array;
}

function prepare(context: TfLiteContext, node: Node, data: LogSoftmaxOpData, input: Tensor, output: Tensor): void {
  requireSameShape(OP, node, input, output);
  if (input.dims.length === 0) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must have at least one dimension`);
  data.type = input.type;
  data.depth = input.dims[input.dims.length - 1]!;
  data.outer = data.depth === 0 ? 0 : data.count / data.depth;
  if (input.type === TensorType.FLOAT32) return;
  requireQuantizedPair(OP, node, input, output);
  const zeroPoint = input.type === TensorType.UINT8 ? 255 : 127;
  if (output.params.scale !== OUTPUT_SCALE || output.params.zeroPoint !== zeroPoint)
    throw new KernelError(
      OP,
      node.index,
      `${tensorTypeName(input.type)} output (tensor ${output.index}) must be quantized with scale 16/256 and zero point ${zeroPoint}, got scale ${output.params.scale}, zero point ${output.params.zeroPoint}`,
    );
  const p = (data.params = allocateOpData(context, MATH_OP_DATA_BYTES.LOG_SOFTMAX).i32);
  // PreprocessLogSoftmaxScalingExp with beta 1: the input scale in Q5.26, capped at 2^31 - 1.
  const scaling = checkedQuantizeMultiplier(
    OP,
    node,
    Math.min(input.params.scale * 2 ** (31 - INPUT_INTEGER_BITS), 2147483647),
    'input multiplier',
    quantizeMultiplierGreaterThanOne,
  );
  // (1 << (31 - left_shift)) is an int shift in C (INT32_MIN for a shift of 31, then refused below).
  const realReverseScalingDivisor = ((1 << (31 - scaling.shift)) | 0) / scaling.multiplier;
  const reverse = checkedQuantizeMultiplier(
    OP,
    node,
    realReverseScalingDivisor,
    'reverse scaling divisor',
    quantizeMultiplierSmallerThanOneExp,
  );
  p[W_INPUT_MULTIPLIER] = scaling.multiplier;
  p[W_INPUT_LEFT_SHIFT] = scaling.shift;
  p[W_REVERSE_SCALING_DIVISOR] = reverse.multiplier;
  p[W_REVERSE_SCALING_RIGHT_SHIFT] = -reverse.shift;
  p[W_DIFF_MIN] = -calculateInputRadius(INPUT_INTEGER_BITS, scaling.shift);
  // size_t outer_size and depth, as TFLM stores them (low words; 8-aligned after the five int32).
  p[6] = data.outer;
  p[8] = data.depth;
}

function logSoftmaxFloat(x: Float32Array, y: Float32Array, outer: number, depth: number): void {
  const f = Math.fround;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    let max = -3.4028234663852886e38;
    for (let c = 0; c < depth; c++) {
      const v = x[base + c]!;
      if (max < v) max = v;
    }
    let sum = 0;
    for (let c = 0; c < depth; c++) sum = f(sum + expF32(f(x[base + c]! - max)));
    const logSum = f(Math.log(sum));
    for (let c = 0; c < depth; c++) y[base + c] = f(x[base + c]! - max) - logSum;
  }
}

/**
 * The fixed-point LOG_SOFTMAX of int8 (TFLM's, reference_integer_ops) and uint8 (reference_ops): `lo`,
 * `hi` the type's range, the output zero point `hi`.
 */
function logSoftmaxQuantized(
  x: Int8Array | Uint8Array,
  y: Int8Array | Uint8Array,
  outer: number,
  depth: number,
  p: Int32Array,
  lo: number,
  hi: number,
): void {
  const inputMultiplier = p[W_INPUT_MULTIPLIER]!;
  const inputLeftShift = p[W_INPUT_LEFT_SHIFT]!;
  const reverseDivisor = p[W_REVERSE_SCALING_DIVISOR]!;
  const reverseShift = -p[W_REVERSE_SCALING_RIGHT_SHIFT]!;
  const diffMin = p[W_DIFF_MIN]!;
  const outputShift = 31 - INPUT_INTEGER_BITS - OUTPUT_INTEGER_BITS;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    let maxInRow = lo;
    for (let c = 0; c < depth; c++) {
      const v = x[base + c]!;
      if (v > maxInRow) maxInRow = v;
    }
    let sumOfExps = 0; // Q12.19
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c]! - maxInRow;
      if (diff >= diffMin) {
        const scaled = multiplyByQuantizedMultiplier(diff, inputMultiplier, inputLeftShift);
        sumOfExps = (sumOfExps + rescale(expOnNegativeValues(scaled, INPUT_INTEGER_BITS), 0, ACCUMULATION_INTEGER_BITS)) | 0;
      }
    }
    const logSum = logXForXGreaterThanOrEqualTo1(sumOfExps, INPUT_INTEGER_BITS, ACCUMULATION_INTEGER_BITS);
    const shiftedLogSum = (logSum + INT32_MIN) | 0;
    const reversed = multiplyByQuantizedMultiplier(shiftedLogSum, reverseDivisor, reverseShift);
    const adjustedDiffMin = diffMin - 1 > reversed ? diffMin - 1 : reversed;
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c]! - maxInRow;
      if (diff > adjustedDiffMin) {
        const scaled = multiplyByQuantizedMultiplier(diff, inputMultiplier, inputLeftShift);
        const out = (roundingDivideByPOT((scaled - logSum) | 0, outputShift) + hi) | 0;
        y[base + c] = out > hi ? hi : out < lo ? lo : out;
      } else y[base + c] = lo;
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<LogSoftmaxOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data;
  const y = context.getEvalTensor(node.outputs[0]!).data;
  if (d.bounded) {
    // a data-dependent input (unaryKernel set d.count and the output's dims): rows of its actual last dimension
    const dims = context.getEvalTensor(node.inputs[0]!).dims;
    d.depth = dims[dims.length - 1]!;
    d.outer = d.depth === 0 ? 0 : d.count / d.depth;
  }
  if (d.type === TensorType.FLOAT32) logSoftmaxFloat(x as Float32Array, y as Float32Array, d.outer, d.depth);
  else if (d.type === TensorType.INT8) logSoftmaxQuantized(x as Int8Array, y as Int8Array, d.outer, d.depth, d.params, -128, 127);
  else logSoftmaxQuantized(x as Uint8Array, y as Uint8Array, d.outer, d.depth, d.params, 0, 255);
}

/** LOG_SOFTMAX reference kernel: float32, int8 (output q(16/256, 127)), uint8 (output q(16/256, 255)). */
export const LOG_SOFTMAX = {
  ...unaryKernel<LogSoftmaxOpData>({
    name: OP,
    builtinCode: BuiltinOperator.LOG_SOFTMAX,
    version: 2,
    types: TYPES,
    readsActualDims: true,
    init: () => ({ type: TensorType.FLOAT32, outer: 0, depth: 0, params: new Int32Array(0), count: 0 }),
    prepare,
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
};
