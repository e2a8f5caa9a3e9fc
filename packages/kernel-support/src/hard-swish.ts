/**
 * The quantized HARD_SWISH arithmetic every kernel package shares (tflite-micro hard_swish.cc,
 * hard_swish_common.cc; reference_ops::HardSwish<int8_t / uint8_t>): TFLite's 16-bit fixed-point
 * evaluation — the input difference on a "high-res" scale (x 2^7), a rounding 16-bit multiply to the
 * pre-shift output scale, a "relu-ish" factor in [0, 1] from the input rescaled so that 3.0 is 32768
 * (saturating shifts), a truncating doubling high multiply of the two, then the output exponent's rounding
 * right shift, zero point and clamp. Multipliers are computed in float32 and turned into int16 with
 * DownScaleInt32ToInt16Multiplier, as TFLM's prepare does. With every output a function of the input byte
 * alone, `hardSwishTable` tabulates the 256 of them.
 */
import { KernelError, checkedQuantizeMultiplier, saturatingRoundingDoublingHighMulInt16, type Node, type Tensor } from '@micrort/core';

/** TFLM's HardSwishParams, decoded. */
export interface HardSwishQuantParams {
  inputZeroPoint: number;
  outputZeroPoint: number;
  reluishMultiplier: number;
  reluishExponent: number;
  outputMultiplier: number;
  outputExponent: number;
}

/** TFLite DownScaleInt32ToInt16Multiplier: the rounded top 16 bits of a non-negative Q0.31 multiplier. */
export function downScaleInt32ToInt16Multiplier(multiplier: number): number {
  if (multiplier >= 2147483647 - 32768) return 32767;
  return (multiplier + 32768) >> 16;
}

/**
 * TFLM's HARD_SWISH prepare for 8-bit tensors: the relu-ish and output multipliers of `input` and
 * `output`'s scales. KernelError when the output multiplier's exponent is positive (TFLM requires the
 * input scale / 128 not to exceed the output scale) or a multiplier is out of range.
 */
export function hardSwishQuantParams(op: string, node: Node, input: Tensor, output: Tensor): HardSwishQuantParams {
  const f = Math.fround;
  const hiresInputScale = f(f(1 / 128) * input.params.scale);
  const reluishScale = f(3 / 32768);
  const out = checkedQuantizeMultiplier(op, node, f(hiresInputScale / output.params.scale), 'output multiplier');
  const reluish = checkedQuantizeMultiplier(op, node, f(hiresInputScale / reluishScale), 'relu-ish multiplier');
  if (out.shift > 0)
    throw new KernelError(
      op,
      node.index,
      `output multiplier exponent ${out.shift} > 0: input scale ${input.params.scale} / 128 must not exceed the output scale ${output.params.scale} (TFLM requires it)`,
    );
  return {
    inputZeroPoint: input.params.zeroPoint,
    outputZeroPoint: output.params.zeroPoint,
    outputMultiplier: downScaleInt32ToInt16Multiplier(out.multiplier),
    outputExponent: out.shift,
    reluishMultiplier: downScaleInt32ToInt16Multiplier(reluish.multiplier),
    reluishExponent: reluish.shift,
  };
}

/** static_cast<int16_t>: wraps to 16 bits. */
function toInt16(x: number): number {
  return (x << 16) >> 16;
}

/** TFLite SaturatingLeftShift(int16 value, amount): value * 2^amount clamped to int16. */
function saturatingLeftShiftInt16(value: number, amount: number): number {
  const r = value * 2 ** amount;
  return r > 32767 ? 32767 : r < -32768 ? -32768 : r;
}

/** TFLite SaturatingDoublingHighMul(int16, int16): (a * b) / 2^15 truncated toward zero (SQDMULH). */
function saturatingDoublingHighMulInt16(a: number, b: number): number {
  if (a === -32768 && b === -32768) return 32767;
  return toInt16(((a * b) / 32768) | 0);
}

/**
 * gemmlowp RoundingDivideByPOT<int16_t>(x, exponent): mask and threshold are int16 values (for exponents
 * of 16 and more the mask `(1ll << exponent) - 1` truncates to -1), the sum wraps to int16.
 */
function roundingDivideByPOTInt16(x: number, exponent: number): number {
  const mask = toInt16(exponent >= 31 ? -1 : 2 ** exponent - 1);
  const remainder = toInt16(x & mask);
  const threshold = toInt16((mask >> 1) + (x < 0 ? 1 : 0));
  return toInt16((x >> exponent) + (remainder > threshold ? 1 : 0));
}

/** reference_ops::HardSwish<int8_t> (and <uint8_t>: `lo`, `hi` the type's range) of one value. */
export function hardSwishQuantized(x: number, d: HardSwishQuantParams, lo = -128, hi = 127): number {
  const inputValue = toInt16(x - d.inputZeroPoint);
  const hires = toInt16(inputValue * 128);
  const preshiftOutput = saturatingRoundingDoublingHighMulInt16(hires, d.outputMultiplier);
  let reluish = hires;
  const e = d.reluishExponent;
  if (e > 0) reluish = saturatingLeftShiftInt16(reluish, e - 1);
  reluish = saturatingRoundingDoublingHighMulInt16(reluish, d.reluishMultiplier);
  if (e > 0) reluish = saturatingLeftShiftInt16(reluish, 1);
  if (e < 0) reluish = roundingDivideByPOTInt16(reluish, -e);
  reluish = toInt16((reluish + 32768) >> 1);
  const preshift = saturatingDoublingHighMulInt16(reluish, preshiftOutput);
  let out = roundingDivideByPOTInt16(preshift, -d.outputExponent);
  out = toInt16(out + d.outputZeroPoint);
  return out > hi ? hi : out < lo ? lo : out;
}

/**
 * Fills `table` (256 entries, indexed by the input's byte) with hardSwishQuantized of every input:
 * `unsigned` for uint8 (bytes 0..255 are the values), else int8 (byte b is the value b − 256 from 128 on).
 */
export function hardSwishTable(d: HardSwishQuantParams, unsigned: boolean, table: Uint8Array): void {
  for (let b = 0; b < 256; b++) {
    const x = unsigned || b < 128 ? b : b - 256;
    table[b] = hardSwishQuantized(x, d, unsigned ? 0 : -128, unsigned ? 255 : 127) & 255;
  }
}
