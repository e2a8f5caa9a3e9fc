/**
 * LOGISTIC (tflite-micro kernels/logistic.cc, logistic_common.cc; reference_ops::Logistic for float,
 * reference_integer_ops::Logistic for int8 and int16).
 *
 * - float32: 1 / (1 + exp(-x)), with TFLM's cut-offs (1 above 16.619..., exp(x) below -9).
 * - int8: the input difference from its zero point is rescaled to Q4.27 and run through gemmlowp's
 *   fixed-point logistic; the Q0.31 result is rounded to the output scale 1/256 with zero point -128.
 *   Inputs beyond the saturation radius give -128 / 127 directly.
 * - int16: TFLM's sigmoid lookup table with linear interpolation; input and output zero points 0, output
 *   scale 2^-15, input rescaled by 3 * 4096 * scale (or a power-of-two shortcut for scale 2^-12).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkedLog2,
  multiplyByQuantizedMultiplier,
  roundingDivideByPOT,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { fixedPointLogistic, int16ActivationParams, int8ActivationParams, logisticInt16 } from './activation-common.js';
import {
  TFLM_OP_DATA_BYTES,
  allocateOpData,
  opDataOf,
  requireQuantized,
  requireSameElementCount,
  requireSameType,
  requireType,
  requireZeroPoint,
  unaryTensors,
} from './elementwise-common.js';

const OP = 'LOGISTIC';

// Word offsets in TFLM's OpDataLogistic block.
const INPUT_ZERO_POINT = 0;
const INPUT_RANGE_RADIUS = 1;
const INPUT_MULTIPLIER = 2;
const INPUT_LEFT_SHIFT = 3;

/** float32 inputs above this give exactly 1 (TFLM's cutoff_upper). */
const CUTOFF_UPPER = 16.619047164916992;
/** float32 inputs below this give exp(x) (TFLM's cutoff_lower). */
const CUTOFF_LOWER = -9;

interface LogisticOpData {
  /** TFLM's OpDataLogistic in the arena. */
  params: Int32Array;
  type: TensorType;
  count: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opDataOf<LogisticOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  requireType(OP, node, input, 'input', [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16]);
  requireSameType(OP, node, input, output, 'input and output');
  data.count = requireSameElementCount(OP, node, input, output);
  const p = data.params;
  if (input.type === TensorType.INT8) {
    requireQuantized(OP, node, input, 'input');
    requireQuantized(OP, node, output, 'output');
    requireZeroPoint(OP, node, output, 'output', -128);
    if (output.params.scale !== 1 / 256)
      throw new KernelError(OP, node.index, `int8 output (tensor ${output.index}) scale must be 1/256, got ${output.params.scale}`);
    const q = int8ActivationParams(input.params.scale);
    if (q.leftShift < 0)
      throw new KernelError(OP, node.index, `input (tensor ${input.index}) scale ${input.params.scale} is too small (left shift ${q.leftShift})`);
    p[INPUT_ZERO_POINT] = input.params.zeroPoint;
    p[INPUT_RANGE_RADIUS] = q.radius;
    p[INPUT_MULTIPLIER] = q.multiplier;
    p[INPUT_LEFT_SHIFT] = q.leftShift;
  } else if (input.type === TensorType.INT16) {
    requireQuantized(OP, node, input, 'input');
    requireQuantized(OP, node, output, 'output');
    requireZeroPoint(OP, node, input, 'input', 0);
    requireZeroPoint(OP, node, output, 'output', 0);
    const q = int16ActivationParams(input.params.scale, 0);
    if (typeof q === 'string') throw new KernelError(OP, node.index, q);
    const outLog2 = checkedLog2(output.params.scale);
    if (!outLog2.isPowerOfTwo || outLog2.log2 !== -15)
      throw new KernelError(OP, node.index, `int16 output (tensor ${output.index}) scale must be 2^-15, got ${output.params.scale}`);
    p[INPUT_MULTIPLIER] = q.multiplier;
    p[INPUT_LEFT_SHIFT] = q.leftShift;
  }
  data.type = input.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as LogisticOpData;
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const p = data.params;
  const n = data.count;
  switch (data.type) {
    case TensorType.FLOAT32:
      logisticFloat(input as Float32Array, output as Float32Array, n);
      break;
    case TensorType.INT8:
      logisticInt8(input as Int8Array, output as Int8Array, n, p[INPUT_ZERO_POINT]!, p[INPUT_RANGE_RADIUS]!, p[INPUT_MULTIPLIER]!, p[INPUT_LEFT_SHIFT]!);
      break;
    default: {
      let multiplier = p[INPUT_MULTIPLIER]!;
      let leftShift = p[INPUT_LEFT_SHIFT]!;
      if (multiplier === 0) {
        // Power-of-two input scale: the factor 3 of the [-10.7, 10.7] table range, no shift.
        multiplier = 3 << leftShift;
        leftShift = 0;
      }
      const round = leftShift > 0 ? 1 << (leftShift - 1) : 0;
      const x = input as Int16Array;
      const y = output as Int16Array;
      for (let i = 0; i < n; i++) y[i] = logisticInt16(x[i]!, multiplier, leftShift, round);
    }
  }
}

function logisticFloat(x: Float32Array, y: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    y[i] = v > CUTOFF_UPPER ? 1 : v < CUTOFF_LOWER ? Math.exp(v) : 1 / (1 + Math.exp(-v));
  }
}

function logisticInt8(x: Int8Array, y: Int8Array, n: number, zeroPoint: number, radius: number, multiplier: number, leftShift: number): void {
  for (let i = 0; i < n; i++) {
    const d = x[i]! - zeroPoint;
    if (d <= -radius) y[i] = -128;
    else if (d >= radius) y[i] = 127;
    else {
      const inQ4 = multiplyByQuantizedMultiplier(d, multiplier, leftShift);
      const outQ23 = roundingDivideByPOT(fixedPointLogistic(inQ4, 4), 23) - 128;
      y[i] = outQ23 < -128 ? -128 : outQ23 > 127 ? 127 : outQ23;
    }
  }
}

/** LOGISTIC reference kernel: float32, int8, int16. */
export const LOGISTIC: Registration<LogisticOpData> = {
  builtinCode: BuiltinOperator.LOGISTIC,
  version: 3,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: 'LOGISTIC',
  init: (context) => ({ params: allocateOpData(context, TFLM_OP_DATA_BYTES.LOGISTIC), type: TensorType.FLOAT32, count: 0 }),
  prepare,
  invoke,
};
