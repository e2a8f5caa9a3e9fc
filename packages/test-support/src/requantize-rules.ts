/**
 * The two ways TFLite requantizes an int32 accumulator, as independent models for tests that compare
 * TFLite's bytes with micrort's, and a naive quantized convolution / fully-connected layer that applies
 * either one (accumulators computed here, not by any kernel package).
 *
 * - {@link referenceRequantize}: gemmlowp's double rounding, as TFLite's reference kernels
 *   (`kernels/internal/reference/*`, common.h MultiplyByQuantizedMultiplier without
 *   TFLITE_SINGLE_ROUNDING) and TFLM: SaturatingRoundingDoublingHighMul (x·M / 2^31, ties up), then
 *   RoundingDivideByPOT by the right shift, ties away from zero.
 * - {@link ruyRequantize}: the same high multiply, then a rounding right shift whose ties go up (toward
 *   +∞), as ruy's optimized x86 kernels in the ruy TFLite 2.9 pins (ruy's apply_multiplier.h of that
 *   time: optimized paths "may use whatever tie-breaking behavior is more friendly to the target
 *   instruction set, typically breaking ties upward" under RUY_OPT(NATIVE_ROUNDING)). TFLite 2.9's
 *   optimized uint8 CONV_2D and FULLY_CONNECTED (and int8 CONV_2D) reach ruy through cpu_backend_gemm.
 *
 * The two differ exactly where the high multiply leaves an exact tie for the right shift and the value is
 * negative: the reference rule then gives one less.
 */
import { saturatingRoundingDoublingHighMul, multiplyByQuantizedMultiplier, Padding, quantizeMultiplier } from '@micrort/core';

/** A requantization rule: int32 accumulator, quantized multiplier, TFLite shift (> 0: left) → int32. */
export type RequantizeRule = (acc: number, multiplier: number, shift: number) => number;

/** gemmlowp double rounding (TFLite's reference kernels, TFLM): the right shift's ties away from zero. */
export const referenceRequantize: RequantizeRule = multiplyByQuantizedMultiplier;

/** ruy's x86 kernels in TFLite 2.9: the same high multiply, then a rounding right shift with ties up. */
export const ruyRequantize: RequantizeRule = (acc, multiplier, shift) => {
  const left = shift > 0 ? shift : 0;
  const right = shift > 0 ? 0 : -shift;
  const high = saturatingRoundingDoublingHighMul(Math.imul(acc, 1 << left), multiplier);
  return right === 0 ? high : Math.floor((high + 2 ** (right - 1)) / 2 ** right);
};

/**
 * TFLite's uint8 (per-tensor) convolution multiplier (GetQuantizedConvolutionMultipler): the float32
 * product of the input and filter scales, in double, divided by the output scale, then QuantizeMultiplier.
 */
export function uint8ConvMultiplier(inputScale: number, filterScale: number, outputScale: number): { multiplier: number; shift: number } {
  return quantizeMultiplier(Math.fround(Math.fround(inputScale) * Math.fround(filterScale)) / Math.fround(outputScale));
}

/** Output size and leading padding as TFLite computes them (dilation 1). */
export function convGeometry(size: number, kernel: number, stride: number, padding: Padding): { out: number; pad: number } {
  const out = padding === Padding.SAME ? Math.ceil(size / stride) : Math.floor((size - kernel) / stride) + 1;
  return { out, pad: Math.max(0, Math.floor(((out - 1) * stride + kernel - size) / 2)) };
}

/** A quantized CONV_2D or DEPTHWISE_CONV_2D layer (NHWC input, dilation 1) for {@link quantizedConv}. */
export interface QuantizedConvLayer {
  depthwise: boolean;
  /** [batches, height, width, channels]. */
  inputShape: readonly [number, number, number, number];
  /** Raw input values (uint8 or int8). */
  input: ArrayLike<number>;
  inputZeroPoint: number;
  /** [outChannels, kh, kw, inChannels] (CONV_2D) or [1, kh, kw, outChannels] (DEPTHWISE_CONV_2D), raw values. */
  filter: ArrayLike<number>;
  kernel: readonly [number, number];
  outChannels: number;
  /** One zero point for the whole filter (uint8) or 0 (int8, symmetric). */
  filterZeroPoint: number;
  bias: ArrayLike<number> | null;
  stride: readonly [number, number];
  padding: Padding;
  /** Per output channel, or one entry for all. */
  multipliers: readonly { multiplier: number; shift: number }[];
  outputZeroPoint: number;
  /** Quantized activation bounds (the output type's range when there is no activation). */
  actMin: number;
  actMax: number;
}

/** The layer's output under `rule`, NHWC, clamped to [actMin, actMax]. */
export function quantizedConv(l: QuantizedConvLayer, rule: RequantizeRule): Int32Array {
  const [n, h, w, cin] = l.inputShape;
  const [kh, kw] = l.kernel;
  const cout = l.outChannels;
  const gy = convGeometry(h, kh, l.stride[0], l.padding);
  const gx = convGeometry(w, kw, l.stride[1], l.padding);
  const perChannelDepth = l.depthwise ? cout / cin : 0;
  const out = new Int32Array(n * gy.out * gx.out * cout);
  let o = 0;
  for (let b = 0; b < n; b++)
    for (let oy = 0; oy < gy.out; oy++)
      for (let ox = 0; ox < gx.out; ox++)
        for (let oc = 0; oc < cout; oc++, o++) {
          let acc = l.bias ? l.bias[oc]! : 0;
          for (let ky = 0; ky < kh; ky++) {
            const iy = oy * l.stride[0] - gy.pad + ky;
            if (iy < 0 || iy >= h) continue;
            for (let kx = 0; kx < kw; kx++) {
              const ix = ox * l.stride[1] - gx.pad + kx;
              if (ix < 0 || ix >= w) continue;
              const pixel = ((b * h + iy) * w + ix) * cin;
              if (l.depthwise) {
                const ic = Math.floor(oc / perChannelDepth);
                acc += (l.filter[(ky * kw + kx) * cout + oc]! - l.filterZeroPoint) * (l.input[pixel + ic]! - l.inputZeroPoint);
              } else {
                const tap = ((oc * kh + ky) * kw + kx) * cin;
                for (let ic = 0; ic < cin; ic++)
                  acc += (l.filter[tap + ic]! - l.filterZeroPoint) * (l.input[pixel + ic]! - l.inputZeroPoint);
              }
            }
          }
          const { multiplier, shift } = l.multipliers[l.multipliers.length === 1 ? 0 : oc]!;
          out[o] = Math.min(l.actMax, Math.max(l.actMin, rule(acc, multiplier, shift) + l.outputZeroPoint));
        }
  return out;
}

/** A quantized FULLY_CONNECTED layer: input [batches, depth], weights [units, depth], one multiplier. */
export interface QuantizedFullyConnectedLayer {
  batches: number;
  depth: number;
  units: number;
  input: ArrayLike<number>;
  inputZeroPoint: number;
  weights: ArrayLike<number>;
  weightsZeroPoint: number;
  bias: ArrayLike<number> | null;
  multiplier: { multiplier: number; shift: number };
  outputZeroPoint: number;
  actMin: number;
  actMax: number;
}

/** The layer's output under `rule`, [batches, units], clamped to [actMin, actMax]. */
export function quantizedFullyConnected(l: QuantizedFullyConnectedLayer, rule: RequantizeRule): Int32Array {
  const out = new Int32Array(l.batches * l.units);
  for (let b = 0; b < l.batches; b++)
    for (let u = 0; u < l.units; u++) {
      let acc = l.bias ? l.bias[u]! : 0;
      for (let d = 0; d < l.depth; d++)
        acc += (l.weights[u * l.depth + d]! - l.weightsZeroPoint) * (l.input[b * l.depth + d]! - l.inputZeroPoint);
      out[b * l.units + u] = Math.min(
        l.actMax,
        Math.max(l.actMin, rule(acc, l.multiplier.multiplier, l.multiplier.shift) + l.outputZeroPoint),
      );
    }
  return out;
}
