/**
 * ADD's reference loops (reference_ops::Add / AddElementwise / BroadcastAdd6DSlow,
 * reference_integer_ops::Add) and TFLM's OpDataAdd block they read; the parameters themselves are
 * kernel-support's `calculateOpDataAdd` (add_common.cc). The loops walk a `BroadcastPlan` (plain
 * elementwise when the shapes match).
 */
import { multiplyByQuantizedMultiplierSmallerThanOneExp } from '@micrort/core';
import { clampFloat } from './elementwise-common.js';
import { type BroadcastPlan, type OpDataAdd } from '@micrort/kernel-support';

/** Bytes of TFLM's OpDataAdd (bool + 12 int32 + 2 float). */
export const OP_DATA_ADD_BYTES = 60;

/** Word offsets of OpDataAdd's fields (TFLM's order; word 0 is `requires_broadcast`). */
export enum AddWord {
  RequiresBroadcast = 0,
  Input1Shift = 1,
  Input2Shift = 2,
  ActMin = 3,
  ActMax = 4,
  Input1Multiplier = 5,
  Input2Multiplier = 6,
  OutputMultiplier = 7,
  OutputShift = 8,
  LeftShift = 9,
  Input1Offset = 10,
  Input2Offset = 11,
  OutputOffset = 12,
  /** float words (read through the Float32Array view of the block). */
  ActMinF32 = 13,
  ActMaxF32 = 14,
}

/**
 * Writes kernel-support's `OpDataAdd` (TFLM's CalculateOpDataAdd result) into the words of TFLM's
 * OpDataAdd block `p`, activation range included.
 */
export function writeOpDataAdd(p: Int32Array, d: OpDataAdd): void {
  p[AddWord.LeftShift] = d.leftShift;
  p[AddWord.Input1Offset] = d.input1Offset;
  p[AddWord.Input2Offset] = d.input2Offset;
  p[AddWord.OutputOffset] = d.outputOffset;
  p[AddWord.Input1Multiplier] = d.input1Multiplier;
  p[AddWord.Input1Shift] = d.input1Shift;
  p[AddWord.Input2Multiplier] = d.input2Multiplier;
  p[AddWord.Input2Shift] = d.input2Shift;
  p[AddWord.OutputMultiplier] = d.outputMultiplier;
  p[AddWord.OutputShift] = d.outputShift;
  p[AddWord.ActMin] = d.actMin;
  p[AddWord.ActMax] = d.actMax;
}

/**
 * One element of TFLM's general quantized add (AddElementwise): offset, shift left, rescale each input,
 * add, rescale the sum, add the output offset, clamp to [ActMin, ActMax].
 */
export function addQuantizedElement(p: Int32Array, a: number, b: number): number {
  return addQuantizedScalar(
    a,
    b,
    1 << p[AddWord.LeftShift]!,
    p[AddWord.Input1Offset]!,
    p[AddWord.Input2Offset]!,
    p[AddWord.Input1Multiplier]!,
    p[AddWord.Input1Shift]!,
    p[AddWord.Input2Multiplier]!,
    p[AddWord.Input2Shift]!,
    p[AddWord.OutputMultiplier]!,
    p[AddWord.OutputShift]!,
    p[AddWord.OutputOffset]!,
    p[AddWord.ActMin]!,
    p[AddWord.ActMax]!,
  );
}

/**
 * The element math of {@link addQuantizedElement} on parameters already loaded into locals (`leftShift`
 * is the factor 2^left_shift): numbers only, so V8 inlines it into the loops, which load the op data
 * once per invoke instead of twelve times per element.
 */
function addQuantizedScalar(
  a: number,
  b: number,
  leftShift: number,
  off1: number,
  off2: number,
  m1: number,
  sh1: number,
  m2: number,
  sh2: number,
  mo: number,
  sho: number,
  outOff: number,
  lo: number,
  hi: number,
): number {
  const scaled1 = multiplyByQuantizedMultiplierSmallerThanOneExp(Math.imul(off1 + a, leftShift), m1, sh1);
  const scaled2 = multiplyByQuantizedMultiplierSmallerThanOneExp(Math.imul(off2 + b, leftShift), m2, sh2);
  const v = (multiplyByQuantizedMultiplierSmallerThanOneExp((scaled1 + scaled2) | 0, mo, sho) + outOff) | 0;
  return v < lo ? lo : v > hi ? hi : v;
}

/**
 * Quantized ADD over a broadcast plan. int8 and int16 get separate loops so each element access stays
 * monomorphic (a loop shared by both typed-array kinds can fall out of optimised code, and unoptimised
 * code boxes numbers, i.e. allocates, in invoke).
 */
export function addQuantized(
  plan: BroadcastPlan,
  p: Int32Array,
  a: Int8Array | Int16Array,
  b: Int8Array | Int16Array,
  out: Int8Array | Int16Array,
): void {
  if (out instanceof Int8Array) addQuantizedInt8(plan, p, a as Int8Array, b as Int8Array, out);
  else addQuantizedInt16(plan, p, a as Int16Array, b as Int16Array, out);
}

/** TFLite's uint8 ADD (reference_ops::Add / BroadcastAdd6DSlow): the int8 arithmetic, left shift 20, on uint8 data. */
export function addQuantizedUint8(plan: BroadcastPlan, p: Int32Array, a: Uint8Array, b: Uint8Array, out: Uint8Array): void {
  const leftShift = 1 << p[AddWord.LeftShift]!;
  const off1 = p[AddWord.Input1Offset]!;
  const off2 = p[AddWord.Input2Offset]!;
  const m1 = p[AddWord.Input1Multiplier]!;
  const sh1 = p[AddWord.Input1Shift]!;
  const m2 = p[AddWord.Input2Multiplier]!;
  const sh2 = p[AddWord.Input2Shift]!;
  const mo = p[AddWord.OutputMultiplier]!;
  const sho = p[AddWord.OutputShift]!;
  const outOff = p[AddWord.OutputOffset]!;
  const lo = p[AddWord.ActMin]!;
  const hi = p[AddWord.ActMax]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      out[o] = addQuantizedScalar(a[i1]!, b[i2]!, leftShift, off1, off2, m1, sh1, m2, sh2, mo, sho, outOff, lo, hi);
    }
    plan.next();
  }
}

function addQuantizedInt8(plan: BroadcastPlan, p: Int32Array, a: Int8Array, b: Int8Array, out: Int8Array): void {
  const leftShift = 1 << p[AddWord.LeftShift]!;
  const off1 = p[AddWord.Input1Offset]!;
  const off2 = p[AddWord.Input2Offset]!;
  const m1 = p[AddWord.Input1Multiplier]!;
  const sh1 = p[AddWord.Input1Shift]!;
  const m2 = p[AddWord.Input2Multiplier]!;
  const sh2 = p[AddWord.Input2Shift]!;
  const mo = p[AddWord.OutputMultiplier]!;
  const sho = p[AddWord.OutputShift]!;
  const outOff = p[AddWord.OutputOffset]!;
  const lo = p[AddWord.ActMin]!;
  const hi = p[AddWord.ActMax]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      out[o] = addQuantizedScalar(a[i1]!, b[i2]!, leftShift, off1, off2, m1, sh1, m2, sh2, mo, sho, outOff, lo, hi);
    }
    plan.next();
  }
}

function addQuantizedInt16(plan: BroadcastPlan, p: Int32Array, a: Int16Array, b: Int16Array, out: Int16Array): void {
  const leftShift = 1 << p[AddWord.LeftShift]!;
  const off1 = p[AddWord.Input1Offset]!;
  const off2 = p[AddWord.Input2Offset]!;
  const m1 = p[AddWord.Input1Multiplier]!;
  const sh1 = p[AddWord.Input1Shift]!;
  const m2 = p[AddWord.Input2Multiplier]!;
  const sh2 = p[AddWord.Input2Shift]!;
  const mo = p[AddWord.OutputMultiplier]!;
  const sho = p[AddWord.OutputShift]!;
  const outOff = p[AddWord.OutputOffset]!;
  const lo = p[AddWord.ActMin]!;
  const hi = p[AddWord.ActMax]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      out[o] = addQuantizedScalar(a[i1]!, b[i2]!, leftShift, off1, off2, m1, sh1, m2, sh2, mo, sho, outOff, lo, hi);
    }
    plan.next();
  }
}

/**
 * float32 ADD (float32 sum, then TFLM's min/max clamp) over a broadcast plan; the clamp range is read
 * from `params` (words `AddWord.ActMinF32`/`ActMaxF32`) here: a double passed to a call V8 did not
 * inline is boxed.
 */
export function addFloat(plan: BroadcastPlan, a: Float32Array, b: Float32Array, out: Float32Array, params: Float32Array): void {
  const lo = params[AddWord.ActMinF32]!;
  const hi = params[AddWord.ActMaxF32]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = clampFloat(Math.fround(a[i1]! + b[i2]!), lo, hi);
    plan.next();
  }
}

/** int32 ADD (wrap-around sum; TFLM applies no activation to int32 ADD) over a broadcast plan. */
export function addInt32(plan: BroadcastPlan, a: Int32Array, b: Int32Array, out: Int32Array): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = (a[i1]! + b[i2]!) | 0;
    plan.next();
  }
}
