/**
 * Test-only, straightforward transcriptions of TFLM's reference int8 kernels
 * (tensorflow/lite/kernels/internal/reference/integer_ops/*.h, reference/softmax.h, gemmlowp fixedpoint),
 * written scalar and independent from the CMSIS-NN ports they check.
 */
import { multiplyByQuantizedMultiplier, quantizeMultiplier, saturatingRoundingDoublingHighMul, roundingDivideByPOT } from '@micrort/core';

/** Deterministic int32 stream (xorshift32). */
export function rng(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s | 0;
  };
}

/** `n` random int8 values. */
export function randomInt8(r: () => number, n: number): Int8Array {
  const a = new Int8Array(n);
  for (let i = 0; i < n; i++) a[i] = r() >> 24;
  return a;
}

/** `n` random int32 values in [-range, range]. */
export function randomInt32(r: () => number, n: number, range: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = ((r() >>> 0) % (2 * range + 1)) - range;
  return a;
}

/** Per-channel multipliers as PopulateConvolutionQuantizationParams computes them. */
export function channelMultipliers(
  inScale: number,
  filterScales: number[],
  outScale: number,
  channels: number,
): { mult: number[]; shift: number[] } {
  const mult: number[] = [];
  const shift: number[] = [];
  for (let c = 0; c < channels; c++) {
    const fs = Math.fround(filterScales.length > 1 ? filterScales[c]! : filterScales[0]!);
    const q = quantizeMultiplier((Math.fround(inScale) * fs) / Math.fround(outScale));
    mult.push(q.multiplier);
    shift.push(q.shift);
  }
  return { mult, shift };
}

/** Geometry of a reference convolution. */
export interface RefConv {
  batches: number;
  inH: number;
  inW: number;
  inC: number;
  outH: number;
  outW: number;
  outC: number;
  kH: number;
  kW: number;
  strideH: number;
  strideW: number;
  dilH: number;
  dilW: number;
  padH: number;
  padW: number;
  inputOffset: number;
  outputOffset: number;
  actMin: number;
  actMax: number;
  mult: number[];
  shift: number[];
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** reference_integer_ops::ConvPerChannel (with groups: filter depth = kC). */
export function refConv(g: RefConv, kC: number, input: Int8Array, filter: Int8Array, bias: Int32Array | null): Int8Array {
  const out = new Int8Array(g.batches * g.outH * g.outW * g.outC);
  const groups = g.inC / kC;
  const perGroup = g.outC / groups;
  for (let b = 0; b < g.batches; b++)
    for (let oy = 0; oy < g.outH; oy++)
      for (let ox = 0; ox < g.outW; ox++)
        for (let oc = 0; oc < g.outC; oc++) {
          const grp = Math.floor(oc / perGroup);
          let acc = 0;
          for (let fy = 0; fy < g.kH; fy++)
            for (let fx = 0; fx < g.kW; fx++) {
              const iy = oy * g.strideH - g.padH + g.dilH * fy;
              const ix = ox * g.strideW - g.padW + g.dilW * fx;
              if (iy < 0 || iy >= g.inH || ix < 0 || ix >= g.inW) continue;
              for (let ic = 0; ic < kC; ic++) {
                const iv = input[((b * g.inH + iy) * g.inW + ix) * g.inC + grp * kC + ic]!;
                const fv = filter[((oc * g.kH + fy) * g.kW + fx) * kC + ic]!;
                acc += fv * (iv + g.inputOffset);
              }
            }
          if (bias) acc += bias[oc]!;
          acc = multiplyByQuantizedMultiplier(acc | 0, g.mult[oc]!, g.shift[oc]!) + g.outputOffset;
          out[((b * g.outH + oy) * g.outW + ox) * g.outC + oc] = clamp(acc, g.actMin, g.actMax);
        }
  return out;
}

/** reference_integer_ops::DepthwiseConvPerChannel. */
export function refDepthwise(g: RefConv, chMult: number, input: Int8Array, filter: Int8Array, bias: Int32Array | null): Int8Array {
  const out = new Int8Array(g.batches * g.outH * g.outW * g.outC);
  for (let b = 0; b < g.batches; b++)
    for (let oy = 0; oy < g.outH; oy++)
      for (let ox = 0; ox < g.outW; ox++)
        for (let ic = 0; ic < g.inC; ic++)
          for (let m = 0; m < chMult; m++) {
            const oc = m + ic * chMult;
            let acc = 0;
            for (let fy = 0; fy < g.kH; fy++)
              for (let fx = 0; fx < g.kW; fx++) {
                const iy = oy * g.strideH - g.padH + g.dilH * fy;
                const ix = ox * g.strideW - g.padW + g.dilW * fx;
                if (iy < 0 || iy >= g.inH || ix < 0 || ix >= g.inW) continue;
                const iv = input[((b * g.inH + iy) * g.inW + ix) * g.inC + ic]!;
                const fv = filter[(fy * g.kW + fx) * g.outC + oc]!;
                acc += fv * (iv + g.inputOffset);
              }
            if (bias) acc += bias[oc]!;
            acc = multiplyByQuantizedMultiplier(acc | 0, g.mult[oc]!, g.shift[oc]!) + g.outputOffset;
            out[((b * g.outH + oy) * g.outW + ox) * g.outC + oc] = clamp(acc, g.actMin, g.actMax);
          }
  return out;
}

/** reference_integer_ops::FullyConnected (per-tensor). */
export function refFullyConnected(
  batches: number,
  depth: number,
  outDepth: number,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  inputOffset: number,
  outputOffset: number,
  mult: number,
  shift: number,
  actMin: number,
  actMax: number,
): Int8Array {
  const out = new Int8Array(batches * outDepth);
  for (let b = 0; b < batches; b++)
    for (let o = 0; o < outDepth; o++) {
      let acc = 0;
      for (let d = 0; d < depth; d++) acc += filter[o * depth + d]! * (input[b * depth + d]! + inputOffset);
      if (bias) acc += bias[o]!;
      acc = multiplyByQuantizedMultiplier(acc | 0, mult, shift) + outputOffset;
      out[b * outDepth + o] = clamp(acc, actMin, actMax);
    }
  return out;
}

/** reference_integer_ops::AveragePool / MaxPool (int8). */
export function refPool(
  kind: 'avg' | 'max',
  batches: number,
  inH: number,
  inW: number,
  c: number,
  outH: number,
  outW: number,
  kH: number,
  kW: number,
  strideH: number,
  strideW: number,
  padH: number,
  padW: number,
  actMin: number,
  actMax: number,
  input: Int8Array,
): Int8Array {
  const out = new Int8Array(batches * outH * outW * c);
  for (let b = 0; b < batches; b++)
    for (let oy = 0; oy < outH; oy++)
      for (let ox = 0; ox < outW; ox++)
        for (let ch = 0; ch < c; ch++) {
          const y0 = oy * strideH - padH;
          const x0 = ox * strideW - padW;
          const fyS = Math.max(0, -y0);
          const fyE = Math.min(kH, inH - y0);
          const fxS = Math.max(0, -x0);
          const fxE = Math.min(kW, inW - x0);
          let acc = kind === 'avg' ? 0 : -128;
          let count = 0;
          for (let fy = fyS; fy < fyE; fy++)
            for (let fx = fxS; fx < fxE; fx++) {
              const v = input[((b * inH + y0 + fy) * inW + x0 + fx) * c + ch]!;
              acc = kind === 'avg' ? acc + v : Math.max(acc, v);
              count++;
            }
          if (kind === 'avg')
            acc = acc > 0 ? Math.trunc((acc + Math.trunc(count / 2)) / count) : Math.trunc((acc - Math.trunc(count / 2)) / count);
          out[((b * outH + oy) * outW + ox) * c + ch] = clamp(acc, actMin, actMax);
        }
  return out;
}

/** reference_integer_ops::Add / Mul element-wise (int8, no broadcast). */
export function refAdd(
  a: Int8Array,
  b: Int8Array,
  p: {
    in1Off: number;
    in2Off: number;
    outOff: number;
    leftShift: number;
    m1: number;
    s1: number;
    m2: number;
    s2: number;
    mo: number;
    so: number;
    lo: number;
    hi: number;
  },
): Int8Array {
  const out = new Int8Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = Math.imul(a[i]! + p.in1Off, 1 << p.leftShift);
    const y = Math.imul(b[i]! + p.in2Off, 1 << p.leftShift);
    const sx = roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, p.m1), -p.s1);
    const sy = roundingDivideByPOT(saturatingRoundingDoublingHighMul(y, p.m2), -p.s2);
    const raw = roundingDivideByPOT(saturatingRoundingDoublingHighMul((sx + sy) | 0, p.mo), -p.so) + p.outOff;
    out[i] = clamp(raw, p.lo, p.hi);
  }
  return out;
}

/** reference_integer_ops::Mul element-wise (int8, no broadcast). */
export function refMul(
  a: Int8Array,
  b: Int8Array,
  in1Off: number,
  in2Off: number,
  outOff: number,
  m: number,
  s: number,
  lo: number,
  hi: number,
): Int8Array {
  const out = new Int8Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const raw = multiplyByQuantizedMultiplier(Math.imul(a[i]! + in1Off, b[i]! + in2Off), m, s) + outOff;
    out[i] = clamp(raw, lo, hi);
  }
  return out;
}

// ---- gemmlowp fixed point, for the softmax reference ------------------------------------------------

const MAX32 = 2147483647;
const MIN32 = -2147483648;

function srmByPotPositive(x: number, exponent: number): number {
  const threshold = (1 << (31 - exponent)) - 1;
  if (x > threshold) return MAX32;
  if (x < -threshold) return MIN32;
  return x << exponent;
}

/** gemmlowp exp_on_interval_between_negative_one_quarter_and_0_excl (Q0.31). */
function expOnQuarterInterval(a: number): number {
  const x = (a + (1 << 28)) | 0;
  const x2 = saturatingRoundingDoublingHighMul(x, x);
  const x3 = saturatingRoundingDoublingHighMul(x2, x);
  const x4 = saturatingRoundingDoublingHighMul(x2, x2);
  const x4Over4 = roundingDivideByPOT(x4, 2);
  const poly = roundingDivideByPOT((saturatingRoundingDoublingHighMul((x4Over4 + x3) | 0, 715827883) + x2) | 0, 1);
  return (1895147668 + saturatingRoundingDoublingHighMul(1895147668, (x + poly) | 0)) | 0;
}

/** gemmlowp exp_on_negative_values for FixedPoint<int32, 5> input, Q0.31 output. */
export function gemmlowpExpOnNegative(a: number): number {
  const kFractionalBits = 26;
  const quarter = 1 << 24;
  const aModQuarterMinusQuarter = ((a & (quarter - 1)) - quarter) | 0;
  let result = expOnQuarterInterval(srmByPotPositive(aModQuarterMinusQuarter, 5));
  const remainder = (aModQuarterMinusQuarter - a) | 0;
  const table: [number, number][] = [
    [-2, 1672461947],
    [-1, 1302514674],
    [0, 790015084],
    [1, 290630308],
    [2, 39332535],
    [3, 720401],
    [4, 242],
  ];
  for (const [exponent, mult] of table) {
    if (remainder & (1 << (kFractionalBits + exponent))) result = saturatingRoundingDoublingHighMul(result, mult);
  }
  return a === 0 ? MAX32 : result;
}

/** gemmlowp one_over_one_plus_x_for_x_in_0_1 (Q0.31 in, Q0.31 out). */
export function gemmlowpOneOverOnePlusX(a: number): number {
  const sum = a + MAX32;
  const halfDenominator = Math.trunc((sum + (sum >= 0 ? 1 : -1)) / 2);
  let x = (1515870810 + saturatingRoundingDoublingHighMul(halfDenominator, -1010580540)) | 0;
  for (let i = 0; i < 3; i++) {
    const hdx = saturatingRoundingDoublingHighMul(halfDenominator, x);
    const oneMinus = ((1 << 29) - hdx) | 0;
    x = (x + srmByPotPositive(saturatingRoundingDoublingHighMul(x, oneMinus), 2)) | 0;
  }
  return srmByPotPositive(x, 1);
}

/** reference_ops::Softmax (quantized, int8 input; int8 or int16 output) on rows of `depth`. */
export function refSoftmax(
  input: Int8Array,
  depth: number,
  inputMultiplier: number,
  inputLeftShift: number,
  diffMin: number,
  outBits: 8 | 16,
): Int32Array {
  const rows = input.length / depth;
  const out = new Int32Array(input.length);
  const outMin = outBits === 8 ? -128 : -32768;
  const outMax = outBits === 8 ? 127 : 32767;
  for (let r = 0; r < rows; r++) {
    let max = -128;
    for (let c = 0; c < depth; c++) max = Math.max(max, input[r * depth + c]!);
    let sum = 0;
    for (let c = 0; c < depth; c++) {
      const diff = input[r * depth + c]! - max;
      if (diff >= diffMin) {
        const rescaled = saturatingRoundingDoublingHighMul(Math.imul(diff, 1 << inputLeftShift), inputMultiplier);
        sum = (sum + roundingDivideByPOT(gemmlowpExpOnNegative(rescaled), 12)) | 0;
      }
    }
    const headroom = Math.clz32(sum);
    const numBitsOverUnit = 12 - headroom;
    const shiftedSumMinusOne = ((sum << headroom) - 2147483648) | 0;
    const shiftedScale = gemmlowpOneOverOnePlusX(shiftedSumMinusOne);
    for (let c = 0; c < depth; c++) {
      const diff = input[r * depth + c]! - max;
      if (diff >= diffMin) {
        const rescaled = saturatingRoundingDoublingHighMul(Math.imul(diff, 1 << inputLeftShift), inputMultiplier);
        const e = gemmlowpExpOnNegative(rescaled);
        const unsat = roundingDivideByPOT(saturatingRoundingDoublingHighMul(shiftedScale, e), numBitsOverUnit + 31 - outBits);
        out[r * depth + c] = clamp(unsat + outMin, outMin, outMax);
      } else {
        out[r * depth + c] = outMin;
      }
    }
  }
  return out;
}
