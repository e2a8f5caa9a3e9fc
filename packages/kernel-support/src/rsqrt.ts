/**
 * RSQRT's quantized arithmetic (tflite-micro kernels/elementwise.cc: PrepareAbsRsqrt, RsqrtEvalQuantized),
 * written once: ops-reference runs it per element (int8 and int16), ops-wasm tabulates it for the 256
 * int8 inputs (`rsqrtLutPopulateBytes`).
 */
import {
  REVERSE_SHIFT,
  checkedQuantizeMultiplier,
  getInvSqrtQuantizedMultiplierExp,
  multiplyByQuantizedMultiplier,
  type Node,
  type QuantizedMultiplier,
} from '@micrort/core';

/** TFLM's kShift: keeps 1/sqrt(v) an integer before the final rescale. */
export const RSQRT_SHIFT = 20;

/**
 * PrepareAbsRsqrt's output rescale: 1 / (sqrt(input scale) * output scale) as a quantized multiplier (in
 * double; a KernelError of `op` when it is not finite or out of range).
 */
export function rsqrtMultiplier(op: string, node: Node, inputScale: number, outputScale: number): QuantizedMultiplier {
  return checkedQuantizeMultiplier(op, node, 1 / (Math.sqrt(inputScale) * outputScale), '1 / (sqrt(input scale) * output scale)');
}

/**
 * RsqrtEvalQuantized for one element, `v` = x − input zero point ≥ 0 (the caller refuses v < 0, as TFLM
 * does): the type's maximum `hi` for v = 0; otherwise 1/sqrt(v) from GetInvSqrtQuantizedMultiplierExp
 * applied to 1 with a left shift of kShift, then MultiplyByQuantizedMultiplier with `m` (rsqrtMultiplier)
 * and shift m.shift − kShift, plus the output zero point (wrapping int32), clamped to [`lo`, `hi`].
 * `scratch` (two int32) receives the inverse square root's multiplier and exponent.
 */
export function rsqrtQuantized(
  v: number,
  m: QuantizedMultiplier,
  outputZeroPoint: number,
  lo: number,
  hi: number,
  scratch: Int32Array,
): number {
  if (v === 0) return hi;
  getInvSqrtQuantizedMultiplierExp(v, REVERSE_SHIFT, scratch);
  const data = multiplyByQuantizedMultiplier(1, scratch[0]!, scratch[1]! + RSQRT_SHIFT);
  const out = (multiplyByQuantizedMultiplier(data, m.multiplier, m.shift - RSQRT_SHIFT) + outputZeroPoint) | 0;
  return out < lo ? lo : out > hi ? hi : out;
}

/**
 * int8 RSQRT as a table indexed by the input byte (entry b: the output byte for int8 input b − 256·[b ≥ 128],
 * rsqrtQuantized's value); entries of inputs below the input zero point (no value: TFLM fails the
 * invoke) are 0, and the kernel must refuse such inputs itself.
 */
export function rsqrtLutPopulateBytes(table: Uint8Array, inputZeroPoint: number, m: QuantizedMultiplier, outputZeroPoint: number): void {
  const scratch = new Int32Array(2);
  for (let x = -128; x <= 127; x++) {
    const v = x - inputZeroPoint;
    table[x & 0xff] = v < 0 ? 0 : rsqrtQuantized(v, m, outputZeroPoint, -128, 127, scratch) & 0xff;
  }
}
