/**
 * SUB (tflite-micro kernels/sub.cc, sub_common.cc; reference_ops::SubWithActivation, BroadcastSubSlow,
 * BroadcastQuantSubSlow / SubElementwise).
 *
 * float32 and int32 subtract and clamp to the fused activation range. int8 and int16 use TFLM's general
 * quantized path (both rescaled to twice the larger input scale with a left shift of 20 for int8 and 15
 * for int16, then requantized to the output); TFLM micro has no separate power-of-two int16 path, so
 * `pot_scale_int16` does not change the result. TFLite's uint8 takes the general path with left shift 20,
 * its multipliers computed in double as TFLite's sub.cc does (TFLM computes the int8 ones in float).
 */
import {
  BuiltinOperator,
  TensorType,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { broadcastInPlace } from './in-place-common.js';
import { TFLM_OP_DATA_BYTES, requireNotQuantizedInputs, typedBinaryTensors, followsBroadcast } from './elementwise-common.js';
import { Int64Op, binaryInt64, int64ActivationRange } from './int64-common.js';
import {
  activationRangeFloat,
  activationRangeInt32,
  allocateOpData,
  type BroadcastPlan,
  calculateOpDataSub,
  expectNotQuantized,
  FLT_MAX,
  fusedActivation,
  opData,
  planBinary,
} from '@micrort/kernel-support';

const OP = 'SUB';
/** TFLM's kMaxBroadcastDim in BroadcastSubCommon. */
const MAX_BROADCAST_RANK = 6;

// Word offsets in TFLM's OpDataSub block.
const REQUIRES_BROADCAST = 0;
const INPUT1_SHIFT = 1;
const INPUT2_SHIFT = 2;
const ACT_MIN = 3;
const ACT_MAX = 4;
const INPUT1_MULTIPLIER = 5;
const INPUT2_MULTIPLIER = 6;
const OUTPUT_MULTIPLIER = 7;
const OUTPUT_SHIFT = 8;
const LEFT_SHIFT = 9;
const INPUT1_OFFSET = 10;
const INPUT2_OFFSET = 11;
const OUTPUT_OFFSET = 12;

interface SubOpData {
  /** TFLM's OpDataSub in the arena. */
  params: Int32Array;
  plan: BroadcastPlan | null;
  type: TensorType;
  /** Activation range for float32/int32 outputs (initialised with doubles so the fields never change representation). */
  min: number;
  max: number;
  /** int64: the activation range as words, or null. */
  int64Range: Int32Array | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<SubOpData>(OP, node);
  const t = typedBinaryTensors(OP, context, node, [
    TensorType.FLOAT32,
    TensorType.INT32,
    TensorType.INT8,
    TensorType.INT16,
    TensorType.UINT8,
    TensorType.INT64,
  ]);
  const { input1, input2, output } = t;
  const plan = planBinary(OP, node, input1, input2, output, MAX_BROADCAST_RANK);
  const p = data.params;
  p[REQUIRES_BROADCAST] = plan.requiresBroadcast ? 1 : 0;
  const activation = fusedActivation(node);
  switch (output.type) {
    case TensorType.FLOAT32:
      [data.min, data.max] = activationRangeFloat(OP, node, activation);
      break;
    case TensorType.INT32:
      requireNotQuantizedInputs(OP, node, t);
      expectNotQuantized(OP, node, 'output', output);
      [data.min, data.max] = activationRangeInt32(OP, node, activation);
      break;
    case TensorType.INT64:
      requireNotQuantizedInputs(OP, node, t);
      data.int64Range = int64ActivationRange(OP, node, activation);
      break;
    default: {
      const d = calculateOpDataSub(OP, node, input1, input2, output, activation);
      p[INPUT1_OFFSET] = d.input1Offset;
      p[INPUT2_OFFSET] = d.input2Offset;
      p[OUTPUT_OFFSET] = d.outputOffset;
      p[LEFT_SHIFT] = d.leftShift;
      p[INPUT1_MULTIPLIER] = d.input1Multiplier;
      p[INPUT1_SHIFT] = d.input1Shift;
      p[INPUT2_MULTIPLIER] = d.input2Multiplier;
      p[INPUT2_SHIFT] = d.input2Shift;
      p[OUTPUT_MULTIPLIER] = d.outputMultiplier;
      p[OUTPUT_SHIFT] = d.outputShift;
      p[ACT_MIN] = d.actMin;
      p[ACT_MAX] = d.actMax;
    }
  }
  data.plan = plan;
  data.type = output.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<SubOpData>(OP, node);
  const plan = data.plan!;
  const a = context.getEvalTensor(node.inputs[0]!).data;
  const b = context.getEvalTensor(node.inputs[1]!).data;
  const out = context.getEvalTensor(node.outputs[0]!).data;
  switch (data.type) {
    case TensorType.FLOAT32:
      subFloat(plan, a as Float32Array, b as Float32Array, out as Float32Array, data);
      break;
    case TensorType.INT32:
      subInt32(plan, a as Int32Array, b as Int32Array, out as Int32Array, data.min, data.max);
      break;
    case TensorType.INT64:
      subInt64(context, node, plan, data.int64Range);
      break;
    case TensorType.UINT8:
      subQuantizedUint8(plan, a as Uint8Array, b as Uint8Array, out as Uint8Array, data.params);
      break;
    default:
      subQuantized(plan, a as Int8Array | Int16Array, b as Int8Array | Int16Array, out as Int8Array | Int16Array, data.params);
  }
}

/** The float32 path; the activation range is read from the op data, so no double crosses a call. */
function subFloat(plan: BroadcastPlan, a: Float32Array, b: Float32Array, out: Float32Array, data: SubOpData): void {
  const lo = data.min;
  const hi = data.max;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      // ActivationFunctionWithMinMax (a NaN stays NaN), written inline so no double crosses a call.
      const v = a[i1]! - b[i2]!;
      const y = v < lo ? lo : v;
      out[o] = hi < y ? hi : y;
    }
    plan.next();
  }
}

function subInt64(context: TfLiteContext, node: Node, plan: BroadcastPlan, range: Int32Array | null): void {
  const a = context.getEvalTensor(node.inputs[0]!).words;
  const b = context.getEvalTensor(node.inputs[1]!).words;
  binaryInt64(OP, node, Int64Op.Sub, plan, a, b, context.getEvalTensor(node.outputs[0]!).words, range);
}

function subInt32(plan: BroadcastPlan, a: Int32Array, b: Int32Array, out: Int32Array, lo: number, hi: number): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const v = (a[i1]! - b[i2]!) | 0;
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

function subQuantized(
  plan: BroadcastPlan,
  a: Int8Array | Int16Array,
  b: Int8Array | Int16Array,
  out: Int8Array | Int16Array,
  p: Int32Array,
): void {
  const off1 = p[INPUT1_OFFSET]!;
  const off2 = p[INPUT2_OFFSET]!;
  const offOut = p[OUTPUT_OFFSET]!;
  const scaleUp = 1 << p[LEFT_SHIFT]!;
  const m1 = p[INPUT1_MULTIPLIER]!;
  const sh1 = p[INPUT1_SHIFT]!;
  const m2 = p[INPUT2_MULTIPLIER]!;
  const sh2 = p[INPUT2_SHIFT]!;
  const mo = p[OUTPUT_MULTIPLIER]!;
  const sho = p[OUTPUT_SHIFT]!;
  const lo = p[ACT_MIN]!;
  const hi = p[ACT_MAX]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x1 = multiplyByQuantizedMultiplierSmallerThanOneExp(Math.imul(off1 + a[i1]!, scaleUp), m1, sh1);
      const x2 = multiplyByQuantizedMultiplierSmallerThanOneExp(Math.imul(off2 + b[i2]!, scaleUp), m2, sh2);
      const raw = (multiplyByQuantizedMultiplierSmallerThanOneExp((x1 - x2) | 0, mo, sho) + offOut) | 0;
      out[o] = raw < lo ? lo : raw > hi ? hi : raw;
    }
    plan.next();
  }
}

/** `subQuantized` on uint8 data (TFLite's uint8 SUB), a separate loop so each stays monomorphic. */
function subQuantizedUint8(plan: BroadcastPlan, a: Uint8Array, b: Uint8Array, out: Uint8Array, p: Int32Array): void {
  const off1 = p[INPUT1_OFFSET]!;
  const off2 = p[INPUT2_OFFSET]!;
  const offOut = p[OUTPUT_OFFSET]!;
  const scaleUp = 1 << p[LEFT_SHIFT]!;
  const m1 = p[INPUT1_MULTIPLIER]!;
  const sh1 = p[INPUT1_SHIFT]!;
  const m2 = p[INPUT2_MULTIPLIER]!;
  const sh2 = p[INPUT2_SHIFT]!;
  const mo = p[OUTPUT_MULTIPLIER]!;
  const sho = p[OUTPUT_SHIFT]!;
  const lo = p[ACT_MIN]!;
  const hi = p[ACT_MAX]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x1 = multiplyByQuantizedMultiplierSmallerThanOneExp(Math.imul(off1 + a[i1]!, scaleUp), m1, sh1);
      const x2 = multiplyByQuantizedMultiplierSmallerThanOneExp(Math.imul(off2 + b[i2]!, scaleUp), m2, sh2);
      const raw = (multiplyByQuantizedMultiplierSmallerThanOneExp((x1 - x2) | 0, mo, sho) + offOut) | 0;
      out[o] = raw < lo ? lo : raw > hi ? hi : raw;
    }
    plan.next();
  }
}

/** SUB reference kernel: float32, int32, int8, int16, uint8 with broadcasting up to 6-D. */
export const SUB: Registration<SubOpData> = followsBroadcast<SubOpData>(
  {
    builtinCode: BuiltinOperator.SUB,
    version: 5,
    provider: PROVIDER,
    inPlace: broadcastInPlace,
    name: 'SUB',
    init: (context) => ({
      params: allocateOpData(context, TFLM_OP_DATA_BYTES.SUB).i32,
      plan: null,
      type: TensorType.FLOAT32,
      min: -FLT_MAX,
      max: FLT_MAX,
      int64Range: null,
    }),
    prepare,
    invoke,
  },
  (d) => d.plan,
);
