/**
 * TFLite's uint8 RELU family (activations.cc ReluPrepare + QuantizedReluX, optimized_ops::ReluX): the
 * input is requantized to the output with one multiplier and clamped to the activation's bounds in the
 * output's quantization. TFLM has no uint8 activations; its int8 RELU6 does not requantize at all.
 */
import { KernelError, checkedQuantizeMultiplier, multiplyByQuantizedMultiplier, type Node, type Tensor } from '@micrort/core';
import { requireQuantizedPair } from './unary-common.js';

// Word offsets used in the op-data block (the layout of TFLM's ReluOpData / ReluParams).
const ACT_MIN = 1;
const ACT_MAX = 2;
const INPUT_OFFSET = 3;
const OUTPUT_OFFSET = 4;
const OUTPUT_MULTIPLIER = 5;
const OUTPUT_SHIFT = 6;
/** Words a uint8 RELU block needs (TFLM's ReluOpData is 28 bytes). */
export const RELU_X_UINT8_WORDS = 7;

/** roundf(value / scale) with float32 operands, as TFLite's QuantizedReluX computes the bounds. */
function quantizedBound(value: number, scale: number): number {
  const q = Math.fround(value / scale);
  return q < 0 ? -Math.round(-q) : Math.round(q);
}

/**
 * Fills `p` (at least RELU_X_UINT8_WORDS int32) for a uint8 RELU with float bounds [actMin, actMax]:
 * multiplier = QuantizeMultiplier((float)(input_scale / output_scale)); quantized bounds
 * max(0, zp + roundf(actMin / scale)) and (actMax infinite ? 255 : min(255, zp + roundf(actMax / scale))).
 */
export function prepareReluXUint8(
  op: string,
  node: Node,
  input: Tensor,
  output: Tensor,
  actMin: number,
  actMax: number,
  p: Int32Array,
): void {
  requireQuantizedPair(op, node, input, output);
  if (p.length < RELU_X_UINT8_WORDS) throw new KernelError(op, node.index, `op data has ${p.length} words, ${RELU_X_UINT8_WORDS} needed`);
  const m = checkedQuantizeMultiplier(op, node, Math.fround(input.params.scale / output.params.scale), 'input/output rescale');
  const zp = output.params.zeroPoint;
  const scale = output.params.scale;
  p[OUTPUT_MULTIPLIER] = m.multiplier;
  p[OUTPUT_SHIFT] = m.shift;
  p[ACT_MIN] = Math.max(0, zp + quantizedBound(actMin, scale));
  p[ACT_MAX] = actMax === Number.POSITIVE_INFINITY ? 255 : Math.min(255, zp + quantizedBound(actMax, scale));
  p[INPUT_OFFSET] = input.params.zeroPoint;
  p[OUTPUT_OFFSET] = zp;
}

/** optimized_ops::ReluX on uint8: zp_out + MultiplyByQuantizedMultiplier(x - zp_in, m, shift), clamped. */
export function reluXUint8(p: Int32Array, x: Uint8Array, y: Uint8Array, n: number): void {
  const lo = p[ACT_MIN]!;
  const hi = p[ACT_MAX]!;
  const inOff = p[INPUT_OFFSET]!;
  const outOff = p[OUTPUT_OFFSET]!;
  const m = p[OUTPUT_MULTIPLIER]!;
  const shift = p[OUTPUT_SHIFT]!;
  for (let i = 0; i < n; i++) {
    const v = (outOff + multiplyByQuantizedMultiplier(x[i]! - inOff, m, shift)) | 0;
    y[i] = v < lo ? lo : v > hi ? hi : v;
  }
}
