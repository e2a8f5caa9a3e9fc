/**
 * DIV (tflite-micro kernels/div.cc; reference_ops::Div, BroadcastDivSlow, DivElementwise).
 *
 * float32: quotient clamped to the fused activation range. int32 (unquantized only): C integer division,
 * truncating toward zero, clamped to the activation range. int8: TFLM's fixed-point quotient (reciprocal
 * of the offset divisor from GetReciprocal, then one requantization); TFLite's uint8 (kernels/div.cc)
 * and, after 2.9, int16 (any zero points) run the same DivElementwise on their data. Broadcasting up
 * to 5-D.
 *
 * Division by zero: an int32 zero divisor fails the invoke with a KernelError ("Division by 0", the
 * element named) before anything is written — TFLite 2.9's int32 DIV checks the divisor, ignores the
 * check and crashes its process with SIGFPE. float32 x/0 and 0/0 equal TFLite 2.9's bytes (the
 * quotient clamped to the activation range, NaN kept). uint8 divisors are not checked: a raw 0 byte
 * (real -zero_point·scale) divides normally and a divisor at its zero point gives the fixed-point steps on 0, both equal to TFLite
 * 2.9's bytes. int8 (TFLM, a DCHECK there) and int16 (TFLite after 2.9) with a divisor at its zero
 * point follow the same steps (documented, not relied upon).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  countLeadingSignBits32,
  getReciprocal,
  checkedQuantizeMultiplier,
  saturatingRoundingDoublingHighMul,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { broadcastInPlace } from './in-place-common.js';
import { checkDivisor } from './floor-div-mod-common.js';
import { roundingDivideByPOTWide } from './activation-common.js';
import {
  TFLM_OP_DATA_BYTES,
  requireNotQuantizedInputs,
  requireQuantizedBinary,
  typedBinaryTensors,
  followsBroadcast,
} from './elementwise-common.js';
import {
  activationRangeFloat,
  activationRangeInt32,
  activationRangeQuantized,
  allocateOpData,
  type BroadcastPlan,
  FLT_MAX,
  fusedActivation,
  opData,
  planBinary,
} from '@micrort/kernel-support';

const OP = 'DIV';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32, TensorType.INT8, TensorType.UINT8, TensorType.INT16];
/** TFLM's BroadcastDivSlow<N = 5>. */
const MAX_BROADCAST_RANK = 5;

// Word offsets in TFLM's OpDataDiv block.
const INPUT1_ZERO_POINT = 0;
const INPUT2_ZERO_POINT = 1;
const OUTPUT_ZERO_POINT = 2;
const ACT_MIN = 3;
const ACT_MAX = 4;
const OUTPUT_MULTIPLIER = 5;
const OUTPUT_SHIFT = 6;

interface DivOpData {
  /** TFLM's OpDataDiv in the arena. */
  params: Int32Array;
  plan: BroadcastPlan | null;
  type: TensorType;
  /** Activation range of float32/int32 outputs (initialised with doubles so the fields never change representation). */
  min: number;
  max: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<DivOpData>(OP, node);
  const t = typedBinaryTensors(OP, context, node, TYPES);
  const { input1, input2, output } = t;
  const plan = planBinary(OP, node, input1, input2, output, MAX_BROADCAST_RANK);
  const activation = fusedActivation(node);
  const p = data.params;
  switch (output.type) {
    case TensorType.FLOAT32:
      [data.min, data.max] = activationRangeFloat(OP, node, activation);
      break;
    case TensorType.INT32:
      requireNotQuantizedInputs(OP, node, t);
      [data.min, data.max] = activationRangeInt32(OP, node, activation);
      break;
    default: {
      requireQuantizedBinary(OP, node, t);
      const [lo, hi] = activationRangeQuantized(OP, node, activation, output);
      p[ACT_MIN] = lo;
      p[ACT_MAX] = hi;
      // TFLM: static_cast<double>(s1 / (s2 * s_out)) in float.
      const m = checkedQuantizeMultiplier(
        OP,
        node,
        Math.fround(input1.params.scale / Math.fround(input2.params.scale * output.params.scale)),
        'output multiplier',
      );
      if (m.multiplier === 0)
        throw new KernelError(OP, node.index, 'input 1 scale is too small relative to input 2 and output scales (multiplier 0)');
      p[OUTPUT_MULTIPLIER] = m.multiplier;
      p[OUTPUT_SHIFT] = m.shift;
      p[INPUT1_ZERO_POINT] = input1.params.zeroPoint;
      p[INPUT2_ZERO_POINT] = input2.params.zeroPoint;
      p[OUTPUT_ZERO_POINT] = output.params.zeroPoint;
    }
  }
  data.plan = plan;
  data.type = output.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<DivOpData>(OP, node);
  const plan = data.plan!;
  const a = context.getEvalTensor(node.inputs[0]!).data;
  const b = context.getEvalTensor(node.inputs[1]!).data;
  const out = context.getEvalTensor(node.outputs[0]!).data;
  switch (data.type) {
    case TensorType.FLOAT32:
      divFloat(plan, a as Float32Array, b as Float32Array, out as Float32Array, data);
      break;
    case TensorType.INT32:
      // TFLite 2.9 checks the divisor and then divides anyway: an int32 zero divisor kills its process
      // (SIGFPE). Here it fails the invoke before anything is written.
      checkDivisor(OP, node, context.getEvalTensor(node.inputs[1]!));
      divInt32(plan, a as Int32Array, b as Int32Array, out as Int32Array, data);
      break;
    case TensorType.UINT8:
      divUint8(plan, a as Uint8Array, b as Uint8Array, out as Uint8Array, data.params);
      break;
    case TensorType.INT16:
      divInt16(plan, a as Int16Array, b as Int16Array, out as Int16Array, data.params);
      break;
    default:
      divInt8(plan, a as Int8Array, b as Int8Array, out as Int8Array, data.params);
  }
}

/** The activation range is read from `data` here: a double passed to a call V8 did not inline is boxed. */
function divFloat(plan: BroadcastPlan, a: Float32Array, b: Float32Array, out: Float32Array, data: DivOpData): void {
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
      const v = a[i1]! / b[i2]!;
      const y = v < lo ? lo : v;
      out[o] = hi < y ? hi : y;
    }
    plan.next();
  }
}

function divInt32(plan: BroadcastPlan, a: Int32Array, b: Int32Array, out: Int32Array, data: DivOpData): void {
  const lo = data.min;
  const hi = data.max;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    // (x / y) | 0 truncates toward zero like C; zero divisors were refused before; INT32_MIN / -1 wraps to INT32_MIN.
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const v = (a[i1]! / b[i2]!) | 0;
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

function divInt8(plan: BroadcastPlan, a: Int8Array, b: Int8Array, out: Int8Array, p: Int32Array): void {
  const off1 = -p[INPUT1_ZERO_POINT]!;
  const off2 = -p[INPUT2_ZERO_POINT]!;
  const offOut = p[OUTPUT_ZERO_POINT]!;
  const m = p[OUTPUT_MULTIPLIER]!;
  const shift = p[OUTPUT_SHIFT]!;
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
      const v = divQuantizedElement(off1 + a[i1]!, off2 + b[i2]!, m, shift, offOut);
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

/** `divInt8` on uint8 data (TFLite's uint8 DIV), a separate monomorphic loop. */
function divUint8(plan: BroadcastPlan, a: Uint8Array, b: Uint8Array, out: Uint8Array, p: Int32Array): void {
  const off1 = -p[INPUT1_ZERO_POINT]!;
  const off2 = -p[INPUT2_ZERO_POINT]!;
  const offOut = p[OUTPUT_ZERO_POINT]!;
  const m = p[OUTPUT_MULTIPLIER]!;
  const shift = p[OUTPUT_SHIFT]!;
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
      const v = divQuantizedElement(off1 + a[i1]!, off2 + b[i2]!, m, shift, offOut);
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

/** `divInt8` on int16 data (TFLite's int16 DIV after 2.9), a separate monomorphic loop. */
function divInt16(plan: BroadcastPlan, a: Int16Array, b: Int16Array, out: Int16Array, p: Int32Array): void {
  const off1 = -p[INPUT1_ZERO_POINT]!;
  const off2 = -p[INPUT2_ZERO_POINT]!;
  const offOut = p[OUTPUT_ZERO_POINT]!;
  const m = p[OUTPUT_MULTIPLIER]!;
  const shift = p[OUTPUT_SHIFT]!;
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
      const v = divQuantizedElement(off1 + a[i1]!, off2 + b[i2]!, m, shift, offOut);
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

/**
 * One element of TFLM's DivElementwise before clamping: x / y requantized with the output multiplier,
 * through the fixed-point reciprocal of y (sign moved to x so the reciprocal is positive).
 */
export function divQuantizedElement(x: number, y: number, multiplier: number, shift: number, outputOffset: number): number {
  if (y < 0) {
    x = -x | 0;
    y = -y | 0;
  }
  const recip = getReciprocal(y, 31, RECIP_SHIFT);
  const recipShift = RECIP_SHIFT[0]!;
  const headroom = countLeadingSignBits32(x);
  // MultiplyByQuantizedMultiplierGreaterThanOne(x, recip, headroom).
  const unscaled = saturatingRoundingDoublingHighMul(Math.imul(x, headroomScale(headroom)), recip);
  const totalShift = shift - recipShift - headroom;
  // MultiplyByQuantizedMultiplierSmallerThanOneExp(unscaled, multiplier, totalShift).
  return (outputOffset + roundingDivideByPOTWide(saturatingRoundingDoublingHighMul(unscaled, multiplier), -totalShift)) | 0;
}

/** 1 << n as C computes it for n in [0, 31] (1 << 31 is INT32_MIN). */
function headroomScale(n: number): number {
  return 1 << n;
}

/** Scratch for getReciprocal's second result (num_bits_over_unit). */
const RECIP_SHIFT = new Int32Array(1);

/** DIV reference kernel: float32, int32, int8, uint8, int16 with broadcasting up to 5-D. */
export const DIV: Registration<DivOpData> = followsBroadcast<DivOpData>(
  {
    builtinCode: BuiltinOperator.DIV,
    version: 2,
    provider: PROVIDER,
    inPlace: broadcastInPlace,
    name: 'DIV',
    init: (context) => ({
      params: allocateOpData(context, TFLM_OP_DATA_BYTES.DIV).i32,
      plan: null,
      type: TensorType.FLOAT32,
      min: -FLT_MAX,
      max: FLT_MAX,
    }),
    prepare,
    invoke,
  },
  (d) => d.plan,
);
