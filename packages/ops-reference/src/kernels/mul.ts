/**
 * MUL (tflite-micro kernels/mul.cc, mul_common.cc; reference_ops::Mul / BroadcastMul6DSlow,
 * reference_integer_ops::Mul / BroadcastMul4DSlow).
 *
 * float32 multiplies and clamps to the fused activation range; int32 multiplies with 32-bit wrap-around
 * and clamps to the activation range; int8 and int16 requantize the product of the offset inputs with
 * one multiplier (int16 requires zero points of 0); TFLite's uint8 (kernels/mul.cc) does the same.
 * TFLite's other types: int64 (wrap-around on int32 word pairs, int64-common.ts), uint32 (modulo 2^32)
 * and complex64 (std::complex<float> products), the last two without a fused activation.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  tensorTypeName,
  multiplyByQuantizedMultiplier,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { broadcastInPlace } from './in-place-common.js';
import { TFLM_OP_DATA_BYTES, typedBinaryTensors, followsBroadcast } from './elementwise-common.js';
import { Int64Op, binaryInt64, int64ActivationRange } from './int64-common.js';
import {
  activationRangeFloat,
  activationRangeInt32,
  type BroadcastPlan,
  calculateOpDataMul,
  fusedActivation,
  opData,
  planBinary,
} from '@micrort/kernel-support';

const OP = 'MUL';
/** TFLM's kMaxMulBroadcastDim. */
const MAX_BROADCAST_RANK = 6;

// Word offsets in TFLM's OpDataMul block.
const INPUT1_ZERO_POINT = 0;
const INPUT2_ZERO_POINT = 1;
const ACT_MIN = 2;
const ACT_MAX = 3;
const OUTPUT_ZERO_POINT = 4;
const OUTPUT_MULTIPLIER = 5;
const OUTPUT_SHIFT = 6;
const ACT_MIN_F32 = 7;
const ACT_MAX_F32 = 8;

interface MulOpData {
  /** TFLM's OpDataMul in the arena (int32 words). */
  params: Int32Array;
  /** The same block as float32 words (for the float activation range). */
  paramsF32: Float32Array;
  plan: BroadcastPlan | null;
  type: TensorType;
  /** int64: the activation range as words, or null. */
  int64Range: Int32Array | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<MulOpData>(OP, node);
  const t = typedBinaryTensors(OP, context, node, [
    TensorType.FLOAT32,
    TensorType.INT32,
    TensorType.INT8,
    TensorType.INT16,
    TensorType.UINT8,
    TensorType.INT64,
    TensorType.UINT32,
    TensorType.COMPLEX64,
  ]);
  const { input1, input2, output } = t;
  const plan = planBinary(OP, node, input1, input2, output, MAX_BROADCAST_RANK);
  const p = data.params;
  const activation = fusedActivation(node);
  switch (output.type) {
    case TensorType.FLOAT32: {
      const [lo, hi] = activationRangeFloat(OP, node, activation);
      data.paramsF32[ACT_MIN_F32] = lo;
      data.paramsF32[ACT_MAX_F32] = hi;
      break;
    }
    case TensorType.INT32: {
      const [lo, hi] = activationRangeInt32(OP, node, activation);
      p[ACT_MIN] = lo;
      p[ACT_MAX] = hi;
      break;
    }
    case TensorType.INT64:
      data.int64Range = int64ActivationRange(OP, node, activation);
      break;
    case TensorType.UINT32:
    case TensorType.COMPLEX64:
      if (activation !== ActivationFunctionType.NONE)
        throw new KernelError(OP, node.index, `a fused activation is not supported for ${tensorTypeName(output.type)}`);
      break;
    default: {
      const d = calculateOpDataMul(OP, node, input1, input2, output, activation);
      p[ACT_MIN] = d.actMin;
      p[ACT_MAX] = d.actMax;
      p[OUTPUT_MULTIPLIER] = d.outputMultiplier;
      p[OUTPUT_SHIFT] = d.outputShift;
      p[INPUT1_ZERO_POINT] = d.input1ZeroPoint;
      p[INPUT2_ZERO_POINT] = d.input2ZeroPoint;
      p[OUTPUT_ZERO_POINT] = d.outputZeroPoint;
    }
  }
  data.plan = plan;
  data.type = output.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<MulOpData>(OP, node);
  const plan = data.plan!;
  const a = context.getEvalTensor(node.inputs[0]!).data;
  const b = context.getEvalTensor(node.inputs[1]!).data;
  const out = context.getEvalTensor(node.outputs[0]!).data;
  switch (data.type) {
    case TensorType.FLOAT32:
      mulFloat(plan, a as Float32Array, b as Float32Array, out as Float32Array, data.paramsF32);
      break;
    case TensorType.INT32:
      mulInt32(plan, a as Int32Array, b as Int32Array, out as Int32Array, data.params[ACT_MIN]!, data.params[ACT_MAX]!);
      break;
    case TensorType.INT64:
      binaryInt64(
        OP,
        node,
        Int64Op.Mul,
        plan,
        context.getEvalTensor(node.inputs[0]!).words,
        context.getEvalTensor(node.inputs[1]!).words,
        context.getEvalTensor(node.outputs[0]!).words,
        data.int64Range,
      );
      break;
    case TensorType.UINT32:
      mulUint32(plan, a as Uint32Array, b as Uint32Array, out as Uint32Array);
      break;
    case TensorType.COMPLEX64:
      mulComplex(plan, a as Float32Array, b as Float32Array, out as Float32Array);
      break;
    case TensorType.UINT8:
      mulQuantizedUint8(plan, a as Uint8Array, b as Uint8Array, out as Uint8Array, data.params);
      break;
    default:
      mulQuantized(plan, a as Int8Array | Int16Array, b as Int8Array | Int16Array, out as Int8Array | Int16Array, data.params);
  }
}

/** uint32 products modulo 2^32 (TFLite's Mul<uint32_t>). */
function mulUint32(plan: BroadcastPlan, a: Uint32Array, b: Uint32Array, out: Uint32Array): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = Math.imul(a[i1]!, b[i2]!);
    plan.next();
  }
}

/**
 * complex64 products as std::complex<float>: re = a.re·b.re − a.im·b.im, im = a.re·b.im + a.im·b.re,
 * each product and sum rounded to float32 (a float32 product is exact in a double before `fround`; the
 * double sum of two float32 values rounds to float32 as float arithmetic would, see the int64 notes).
 */
function mulComplex(plan: BroadcastPlan, a: Float32Array, b: Float32Array, out: Float32Array): void {
  const n = plan.inner;
  const s1 = plan.innerStride1 * 2;
  const s2 = plan.innerStride2 * 2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1 * 2;
    let i2 = plan.off2 * 2;
    for (let k = 0, o = plan.offOut * 2; k < n; k++, o += 2, i1 += s1, i2 += s2) {
      const ar = a[i1]!,
        ai = a[i1 + 1]!,
        br = b[i2]!,
        bi = b[i2 + 1]!;
      out[o] = Math.fround(ar * br) - Math.fround(ai * bi);
      out[o + 1] = Math.fround(ar * bi) + Math.fround(ai * br);
    }
    plan.next();
  }
}

/** `params` holds the activation range (read here: a double passed to a call V8 did not inline is boxed). */
function mulFloat(plan: BroadcastPlan, a: Float32Array, b: Float32Array, out: Float32Array, params: Float32Array): void {
  const lo = params[ACT_MIN_F32]!;
  const hi = params[ACT_MAX_F32]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      // ActivationFunctionWithMinMax (a NaN stays NaN), written inline so no double crosses a call.
      const v = a[i1]! * b[i2]!;
      const y = v < lo ? lo : v;
      out[o] = hi < y ? hi : y;
    }
    plan.next();
  }
}

function mulInt32(plan: BroadcastPlan, a: Int32Array, b: Int32Array, out: Int32Array, lo: number, hi: number): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const v = Math.imul(a[i1]!, b[i2]!);
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

function mulQuantized(
  plan: BroadcastPlan,
  a: Int8Array | Int16Array,
  b: Int8Array | Int16Array,
  out: Int8Array | Int16Array,
  p: Int32Array,
): void {
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
      const prod = Math.imul(off1 + a[i1]!, off2 + b[i2]!);
      const v = (offOut + multiplyByQuantizedMultiplier(prod, m, shift)) | 0;
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

/** `mulQuantized` on uint8 data (TFLite's uint8 MUL, reference_ops::Mul), a separate monomorphic loop. */
function mulQuantizedUint8(plan: BroadcastPlan, a: Uint8Array, b: Uint8Array, out: Uint8Array, p: Int32Array): void {
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
      const prod = Math.imul(off1 + a[i1]!, off2 + b[i2]!);
      const v = (offOut + multiplyByQuantizedMultiplier(prod, m, shift)) | 0;
      out[o] = v < lo ? lo : v > hi ? hi : v;
    }
    plan.next();
  }
}

/** MUL reference kernel: float32, int32, int8, int16, uint8 with broadcasting up to 6-D. */
export const MUL: Registration<MulOpData> = followsBroadcast<MulOpData>(
  {
    builtinCode: BuiltinOperator.MUL,
    version: 7,
    provider: PROVIDER,
    inPlace: broadcastInPlace,
    name: 'MUL',
    init: (context) => {
      const region = context.allocatePersistentBuffer(TFLM_OP_DATA_BYTES.MUL);
      return { params: region.i32, paramsF32: region.f32, plan: null, type: TensorType.FLOAT32, int64Range: null };
    },
    prepare,
    invoke,
  },
  (d) => d.plan,
);
