/**
 * Integer natural logarithm of TFLM's signal library (signal/src/log.cc, Log32): log2 from the most
 * significant bit plus a 128-segment linearly interpolated table for the fraction, converted to ln with
 * a fixed-point coefficient and scaled to the output scale, with uint32 arithmetic throughout.
 */
import { msb32 } from './bits-common.js';

/** kLogLut: log2(1 + x) - x correction, 129 entries plus padding, scale 2^16. */
const LOG_LUT = Uint16Array.from([
  0, 224, 442, 654, 861, 1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848,
  3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934, 5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477,
  5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439,
  5406, 5370, 5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341, 4264, 4184, 4103,
  4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659, 2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729,
  1605, 1480, 1353, 1224, 1094, 963, 830, 695, 559, 421, 282, 142, 0, 0,
]);

const LOG_SEGMENTS_LOG2 = 7;
const LOG_SCALE = 65536;
const LOG_SCALE_LOG2 = 16;
const LOG_COEFF = 45426;
const SEG_UNIT = LOG_SCALE >>> LOG_SEGMENTS_LOG2;

/** Log2FractionPart32: the fractional part of log2(x) with 16 fractional bits, given log2x = floor(log2(x)). */
function log2FractionPart32(x: number, log2x: number): number {
  // x - 2^log2x < 2^31 fits int32
  let frac = (x - 2 ** log2x) | 0;
  if (log2x < LOG_SCALE_LOG2) frac <<= LOG_SCALE_LOG2 - log2x;
  else frac >>= log2x - LOG_SCALE_LOG2;
  const baseSeg = frac >>> (LOG_SCALE_LOG2 - LOG_SEGMENTS_LOG2);
  const c0 = LOG_LUT[baseSeg]!;
  const c1 = LOG_LUT[baseSeg + 1]!;
  const segBase = SEG_UNIT * baseSeg;
  const relPos = Math.imul(c1 - c0, frac - segBase) >> LOG_SCALE_LOG2;
  return (frac + c0 + relPos) >>> 0;
}

/** Log32(x, outScale): round(ln(x) * outScale) in TFLM's fixed point, for uint32 x >= 1. */
export function log32(x: number, outScale: number): number {
  const integer = (msb32(x) - 1) >>> 0;
  const fraction = log2FractionPart32(x, integer);
  const log2 = ((integer << LOG_SCALE_LOG2) + fraction) >>> 0;
  const round = LOG_SCALE / 2;
  // (uint64)kLogCoeff * log2 < 2^37: exact as a double; the shifted result fits uint32
  const loge = Math.floor((LOG_COEFF * log2 + round) / LOG_SCALE) >>> 0;
  // uint32 arithmetic: the product wraps modulo 2^32
  return ((Math.imul(outScale, loge) + round) >>> 0) >>> LOG_SCALE_LOG2;
}
