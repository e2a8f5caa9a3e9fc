/**
 * Per-channel amplitude normalization (PCAN) auto gain control of TFLM's signal library
 * (signal/src/pcan_argc_fixed.cc), fixed point: a piecewise quadratic gain looked up from the noise
 * estimate, applied to the filterbank energy, then the "shrink" non-linearity.
 */
import { msb32 } from './bits-common.js';
import type { U64 } from './uint64-common.js';

/** Fractional bits of the SNR (kPcanSnrBits). */
export const PCAN_SNR_BITS = 12;
/** Fractional bits of the output (kPcanOutputBits). */
export const PCAN_OUTPUT_BITS = 6;
/** Entries of the gain LUT read for the largest uint32 noise estimate: 4 * 32 - 6 + 3. */
export const PCAN_GAIN_LUT_MIN_LENGTH = 125;

/**
 * WideDynamicFunction(x, lut): the gain for noise estimate `x` (uint32) as int16. `lut` holds, per
 * octave, three polynomial coefficients (and a pad), starting at `lutOffset`.
 */
export function wideDynamicFunction(x: number, lut: Int16Array, lutOffset = 0): number {
  if (x <= 2) return lut[lutOffset + x]!;
  const interval = msb32(x);
  const base = lutOffset + 4 * interval - 6;
  const frac = (interval < 11 ? x << (11 - interval) : x >>> (interval - 11)) & 0x3ff;
  let result = (lut[base + 2]! * frac) >> 5;
  // (int32)((uint32)lut[1] << 5): the same as lut[1] * 32 for an int16
  result = (result + lut[base + 1]! * 32) | 0;
  result = Math.imul(result, frac);
  result = (result + (1 << 14)) >> 15;
  result = (result + lut[base]!) | 0;
  return (result << 16) >> 16;
}

/**
 * PcanShrink(x): x^2 / 4 below 2 (x has PCAN_SNR_BITS fractional bits), x - 1 above, with
 * PCAN_OUTPUT_BITS fractional bits in the result (uint32).
 */
export function pcanShrink(x: number): number {
  if (x < 2 << PCAN_SNR_BITS) return Math.imul(x, x) >>> (2 + 2 * PCAN_SNR_BITS - PCAN_OUTPUT_BITS);
  return ((x >>> (PCAN_SNR_BITS - PCAN_OUTPUT_BITS)) - (1 << PCAN_OUTPUT_BITS)) >>> 0;
}

/**
 * ApplyPcanAutoGainControlFixed on channels [0, numChannels): `output` holds the filterbank energy on
 * entry and the normalized value on return. `acc` is a scratch 64-bit accumulator.
 */
export function applyPcanAutoGainControl(
  gainLut: Int16Array,
  snrShift: number,
  noiseEstimate: Uint32Array,
  output: Uint32Array,
  numChannels: number,
  acc: U64,
): void {
  for (let i = 0; i < numChannels; i++) {
    // the int16 gain converted to uint32 (sign-extended)
    const gain = wideDynamicFunction(noiseEstimate[i]!, gainLut) >>> 0;
    const snr = acc.setMul(output[i]!, gain).shiftRightLow32(snrShift);
    output[i] = pcanShrink(snr);
  }
}
