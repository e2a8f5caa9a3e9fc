/**
 * SQUARED_DIFFERENCE (tflite-micro kernels/squared_difference.cc), elementwise with broadcasting up to
 * 4-D (TFLM's BroadcastBinaryFunction4DSlow).
 *
 * - float32: d = a - b, d * d in float32. int32: the same in wrapping int32 arithmetic.
 * - int8 (left shift 7) and int16 (left shift 0, zero points 0): each side (x - zero point) * 2^shift is
 *   rescaled by its scale / (2 * max scale) (QuantizeMultiplierSmallerThanOneExp), the difference squared
 *   in int32 and rescaled by (2 * max scale)^2 / (2^(2 * shift) * output scale) (QuantizeMultiplier),
 *   plus the output zero point, clamped to the type.
 */
import {
  BuiltinOperator,
  TensorType,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { binaryTensors, requireQuantizedBinary, type BinaryTensors, followsBroadcast } from './elementwise-common.js';
import { broadcastInPlace } from './in-place-common.js';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import {
  allocateOpData,
  type BroadcastPlan,
  calculateSquaredDifferenceParams,
  expectSameType,
  expectType,
  expectZeroPoint,
  opData,
  planBinary,
  supportsInputTypes,
} from '@micrort/kernel-support';

const OP = 'SQUARED_DIFFERENCE';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32, TensorType.INT8, TensorType.INT16];
const MAX_BROADCAST_RANK = 4;

// Word offsets in TFLM's OpData { bool requires_broadcast; ArithmeticParams arithmetic_params; } (the
// params start at byte 8 and their first field is the broadcast category).
const W_REQUIRES_BROADCAST = 0;
const W_INPUT1_OFFSET = 3;
const W_INPUT2_OFFSET = 4;
const W_OUTPUT_OFFSET = 5;
const W_OUTPUT_MULTIPLIER = 6;
const W_OUTPUT_SHIFT = 7;
const W_LEFT_SHIFT = 8;
const W_INPUT1_MULTIPLIER = 9;
const W_INPUT1_SHIFT = 10;
const W_INPUT2_MULTIPLIER = 11;
const W_INPUT2_SHIFT = 12;
const W_ACTIVATION_MIN = 13;
const W_ACTIVATION_MAX = 14;

interface SquaredDifferenceOpData {
  /** TFLM's OpData in the arena. */
  params: Int32Array;
  plan: BroadcastPlan | null;
  type: TensorType;
}

/** TFLM's PrepareQuantized (kernel-support's calculateSquaredDifferenceParams) into the op data's words. */
function prepareQuantized(node: Node, p: Int32Array, t: BinaryTensors, leftShift: number): void {
  const q = calculateSquaredDifferenceParams(OP, node, t.input1, t.input2, t.output, leftShift);
  p[W_INPUT1_OFFSET] = q.input1Offset;
  p[W_INPUT2_OFFSET] = q.input2Offset;
  p[W_OUTPUT_OFFSET] = q.outputZeroPoint;
  p[W_LEFT_SHIFT] = q.leftShift;
  p[W_INPUT1_MULTIPLIER] = q.input1.multiplier;
  p[W_INPUT1_SHIFT] = q.input1.shift;
  p[W_INPUT2_MULTIPLIER] = q.input2.multiplier;
  p[W_INPUT2_SHIFT] = q.input2.shift;
  p[W_OUTPUT_MULTIPLIER] = q.output.multiplier;
  p[W_OUTPUT_SHIFT] = q.output.shift;
  p[W_ACTIVATION_MIN] = q.actMin;
  p[W_ACTIVATION_MAX] = q.actMax;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<SquaredDifferenceOpData>(OP, node);
  const t = binaryTensors(OP, context, node);
  expectType(OP, node, 'input 1', t.input1, TYPES);
  expectSameType(OP, node, 'inputs', t.input1, t.input2);
  expectSameType(OP, node, 'input 2 and output', t.input2, t.output);
  d.type = t.input1.type;
  if (d.type === TensorType.INT8 || d.type === TensorType.INT16) {
    requireQuantizedBinary(OP, node, t);
    if (d.type === TensorType.INT16) {
      expectZeroPoint(OP, node, 'input 1', t.input1, 0);
      expectZeroPoint(OP, node, 'input 2', t.input2, 0);
      expectZeroPoint(OP, node, 'output', t.output, 0);
    }
    // int8: a left shift of 7 keeps 255^2 * 2^14 within int32; int16 values need none.
    prepareQuantized(node, d.params, t, d.type === TensorType.INT8 ? 7 : 0);
  }
  d.plan = planBinary(OP, node, t.input1, t.input2, t.output, MAX_BROADCAST_RANK);
  d.params[W_REQUIRES_BROADCAST] = d.plan.requiresBroadcast ? 1 : 0;
}

function squaredDifferenceFloat(plan: BroadcastPlan, a: Float32Array, b: Float32Array, out: Float32Array): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const diff = Math.fround(a[i1]! - b[i2]!);
      out[o] = diff * diff;
    }
    plan.next();
  }
}

function squaredDifferenceInt32(plan: BroadcastPlan, a: Int32Array, b: Int32Array, out: Int32Array): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const diff = (a[i1]! - b[i2]!) | 0;
      out[o] = Math.imul(diff, diff);
    }
    plan.next();
  }
}

function squaredDifferenceQuantized(
  plan: BroadcastPlan,
  a: Int8Array | Int16Array,
  b: Int8Array | Int16Array,
  out: Int8Array | Int16Array,
  p: Int32Array,
): void {
  const off1 = p[W_INPUT1_OFFSET]!;
  const off2 = p[W_INPUT2_OFFSET]!;
  const outOff = p[W_OUTPUT_OFFSET]!;
  const shift = p[W_LEFT_SHIFT]!;
  const m1 = p[W_INPUT1_MULTIPLIER]!;
  const sh1 = p[W_INPUT1_SHIFT]!;
  const m2 = p[W_INPUT2_MULTIPLIER]!;
  const sh2 = p[W_INPUT2_SHIFT]!;
  const mOut = p[W_OUTPUT_MULTIPLIER]!;
  const shOut = p[W_OUTPUT_SHIFT]!;
  const lo = p[W_ACTIVATION_MIN]!;
  const hi = p[W_ACTIVATION_MAX]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x = multiplyByQuantizedMultiplierSmallerThanOneExp((off1 + a[i1]!) << shift, m1, sh1);
      const y = multiplyByQuantizedMultiplierSmallerThanOneExp((off2 + b[i2]!) << shift, m2, sh2);
      const diff = (x - y) | 0;
      const v = (multiplyByQuantizedMultiplier(Math.imul(diff, diff), mOut, shOut) + outOff) | 0;
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SquaredDifferenceOpData>(OP, node);
  const plan = d.plan!;
  const a = context.getEvalTensor(node.inputs[0]!).data;
  const b = context.getEvalTensor(node.inputs[1]!).data;
  const out = context.getEvalTensor(node.outputs[0]!).data;
  switch (d.type) {
    case TensorType.FLOAT32:
      squaredDifferenceFloat(plan, a as Float32Array, b as Float32Array, out as Float32Array);
      break;
    case TensorType.INT32:
      squaredDifferenceInt32(plan, a as Int32Array, b as Int32Array, out as Int32Array);
      break;
    default:
      squaredDifferenceQuantized(plan, a as Int8Array | Int16Array, b as Int8Array | Int16Array, out as Int8Array | Int16Array, d.params);
  }
}

/** SQUARED_DIFFERENCE reference kernel: float32, int32, int8, int16. */
export const SQUARED_DIFFERENCE = followsBroadcast<SquaredDifferenceOpData>(
  {
    builtinCode: BuiltinOperator.SQUARED_DIFFERENCE,
    version: 2,
    provider: PROVIDER,
    name: OP,
    inPlace: broadcastInPlace,
    supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
    init: (context: TfLiteContext): SquaredDifferenceOpData => ({
      params: allocateOpData(context, MATH_OP_DATA_BYTES.SQUARED_DIFFERENCE).i32,
      plan: null,
      type: TensorType.FLOAT32,
    }),
    prepare,
    invoke,
  },
  (d) => d.plan,
);
