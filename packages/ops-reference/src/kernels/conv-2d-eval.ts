/**
 * CONV_2D inner loops, bit-exact with TFLM's reference kernels (tensorflow/lite/kernels/internal/reference/
 * conv.h and integer_ops/conv.h): the same accumulation order, with the "point inside the image" test
 * replaced by per-pixel filter tap ranges. Grouped convolution is supported as in the reference: the filter's
 * innermost dimension is the input depth of one group.
 *
 * These functions allocate nothing.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { endTap, firstTap, int64At, type ConvGeometry } from './conv-common.js';
import { type ConvOutputParams } from '@micrort/kernel-support';

const fround = Math.fround;

/**
 * Float CONV_2D (reference_ops::Conv). Products and sums are rounded to float32 at each step, as the
 * C++ `float total += input * filter` does without FMA contraction.
 */
export function convFloat(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Float32Array,
  filter: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, filterDepth, outHeight, outWidth, outDepth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const filtersPerGroup = (outDepth / (inDepth / filterDepth)) | 0;
  const actMin = p.actMin;
  const actMax = p.actMax;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        for (let oc = 0; oc < outDepth; oc++, o++) {
          const groupBase = ((oc / filtersPerGroup) | 0) * filterDepth;
          let total = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            const filterRow = (oc * filterHeight + fy) * filterWidth;
            for (let fx = fx0; fx < fx1; fx++) {
              const ip = (inRow + inXOrigin + dilationWidth * fx) * inDepth + groupBase;
              const fp = (filterRow + fx) * filterDepth;
              for (let ic = 0; ic < filterDepth; ic++) {
                total = fround(total + fround(input[ip + ic]! * filter[fp + ic]!));
              }
            }
          }
          const biasValue = bias !== null ? bias[oc]! : 0;
          const v = fround(total + biasValue);
          output[o] = v < actMin ? actMin : v > actMax ? actMax : v;
        }
      }
    }
  }
}

/**
 * int8 per-channel CONV_2D (reference_integer_ops::ConvPerChannel): int32 accumulation of
 * filter * (input - input_zero_point), int32 bias, per-channel MultiplyByQuantizedMultiplier, output zero
 * point, clamp to the activation range. Ungrouped convolutions without horizontal dilation (nearly all)
 * take `convInt8Rows`; the rest the tap-by-tap loop. Both give the reference's int32 sums exactly (the
 * terms are the same, only their order differs, and int32 addition wraps associatively).
 */
export function convInt8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  if (g.dilationWidth === 1 && g.filterDepth === g.inDepth) convInt8Rows(g, p, input, filter, bias, output);
  else convInt8Taps(g, p, input, filter, bias, output);
}

/** Requantizes, offsets and clamps one accumulator of channel `oc`. */
function outputValue(acc: number, p: ConvOutputParams, bias: Int32Array | null, oc: number): number {
  if (bias !== null) acc = (acc + bias[oc]!) | 0;
  const v = multiplyByQuantizedMultiplier(acc, p.multiplier[oc]!, p.shift[oc]!) + p.outputOffset;
  return v < p.actMin ? p.actMin : v > p.actMax ? p.actMax : v;
}

/**
 * Accumulators handed from the blocked dot-product loops to `writeBlock`: with a single requantization
 * call site V8 inlines it, which it would not do for eight.
 */
const BLOCK = new Int32Array(4);

/** Writes `BLOCK[0..n)`, the accumulators of channels `oc..oc+n`, to `output[o + oc ..]`. */
function writeBlock(p: ConvOutputParams, bias: Int32Array | null, output: Int8Array, o: number, oc: number, n: number): void {
  for (let j = 0; j < n; j++) output[o + oc + j] = outputValue(BLOCK[j]!, p, bias, oc + j);
}

/**
 * CONV_2D for `dilation_w = 1` and one group. For an output pixel, the input taps of one filter row
 * (`fx0..fx1` x all input channels) are contiguous in NHWC, and so are the matching filter taps, so
 * each filter row is one dot product of `(fx1 - fx0) * inDepth` elements. Two horizontally adjacent
 * pixels with the same tap range (all but the image borders) are computed together with four output
 * channels: each step loads two inputs and four weights for eight multiply-adds.
 */
function convInt8Rows(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth } = g;
  const { strideHeight, strideWidth, dilationHeight, padHeight, padWidth } = g;
  const filterRowLen = filterWidth * inDepth;
  const channelStride = filterHeight * filterRowLen; // one output channel's filter
  const inRowStride = dilationHeight * inWidth * inDepth; // from one filter row's taps to the next
  const pixelStride = strideWidth * inDepth; // from one output pixel's taps to the next one's
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const rows = endTap(inYOrigin, dilationHeight, inHeight, filterHeight) - fy0;
      const rowBase = (b * inHeight + inYOrigin + dilationHeight * fy0) * inWidth;
      let o = (b * outHeight + oy) * outWidth * outDepth;
      for (let ox = 0; ox < outWidth;) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, 1);
        const fx1 = endTap(inXOrigin, 1, inWidth, filterWidth);
        // First tap (fy0, fx0) of this pixel in the input and in channel 0's filter.
        const ip = (rowBase + inXOrigin + fx0) * inDepth;
        const fp = fy0 * filterRowLen + fx0 * inDepth;
        const len = (fx1 - fx0) * inDepth;
        const next = inXOrigin + strideWidth;
        if (ox + 1 < outWidth && firstTap(next, 1) === fx0 && endTap(next, 1, inWidth, filterWidth) === fx1) {
          convPixelPair(
            p,
            input,
            filter,
            bias,
            output,
            o,
            ip,
            pixelStride,
            fp,
            len,
            rows,
            inRowStride,
            filterRowLen,
            channelStride,
            outDepth,
          );
          ox += 2;
          o += 2 * outDepth;
        } else {
          convPixel(p, input, filter, bias, output, o, ip, fp, len, rows, inRowStride, filterRowLen, channelStride, outDepth);
          ox += 1;
          o += outDepth;
        }
      }
    }
  }
}

/**
 * All output channels of two pixels whose taps start at `ip` and `ip + pixelStride` (same tap ranges):
 * `rows` filter rows of `len` contiguous elements, `inRowStride` / `filterRowLen` apart.
 */
function convPixelPair(
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  o: number,
  ip: number,
  pixelStride: number,
  fp: number,
  len: number,
  rows: number,
  inRowStride: number,
  filterRowLen: number,
  channelStride: number,
  outDepth: number,
): void {
  const inputOffset = p.inputOffset | 0;
  const cs2 = 2 * channelStride;
  const cs3 = 3 * channelStride;
  const o2 = o + outDepth;
  let oc = 0;
  for (; oc < outDepth - 3; oc += 4) {
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    let b0 = 0,
      b1 = 0,
      b2 = 0,
      b3 = 0;
    let i = ip;
    let f = oc * channelStride + fp;
    for (let r = 0; r < rows; r++) {
      const end = i + len;
      for (let k = i, w = f; k < end; k++, w++) {
        const x = (input[k]! + inputOffset) | 0;
        const y = (input[k + pixelStride]! + inputOffset) | 0;
        const w0 = filter[w]!;
        const w1 = filter[w + channelStride]!;
        const w2 = filter[w + cs2]!;
        const w3 = filter[w + cs3]!;
        a0 = (a0 + Math.imul(w0, x)) | 0;
        b0 = (b0 + Math.imul(w0, y)) | 0;
        a1 = (a1 + Math.imul(w1, x)) | 0;
        b1 = (b1 + Math.imul(w1, y)) | 0;
        a2 = (a2 + Math.imul(w2, x)) | 0;
        b2 = (b2 + Math.imul(w2, y)) | 0;
        a3 = (a3 + Math.imul(w3, x)) | 0;
        b3 = (b3 + Math.imul(w3, y)) | 0;
      }
      i += inRowStride;
      f += filterRowLen;
    }
    BLOCK[0] = a0;
    BLOCK[1] = a1;
    BLOCK[2] = a2;
    BLOCK[3] = a3;
    writeBlock(p, bias, output, o, oc, 4);
    BLOCK[0] = b0;
    BLOCK[1] = b1;
    BLOCK[2] = b2;
    BLOCK[3] = b3;
    writeBlock(p, bias, output, o2, oc, 4);
  }
  for (; oc < outDepth; oc++) {
    let a = 0;
    let b = 0;
    let i = ip;
    let f = oc * channelStride + fp;
    for (let r = 0; r < rows; r++) {
      const end = i + len;
      for (let k = i, w = f; k < end; k++, w++) {
        const wv = filter[w]!;
        a = (a + Math.imul(wv, (input[k]! + inputOffset) | 0)) | 0;
        b = (b + Math.imul(wv, (input[k + pixelStride]! + inputOffset) | 0)) | 0;
      }
      i += inRowStride;
      f += filterRowLen;
    }
    BLOCK[0] = a;
    writeBlock(p, bias, output, o, oc, 1);
    BLOCK[0] = b;
    writeBlock(p, bias, output, o2, oc, 1);
  }
}

/** All output channels of one pixel (see `convPixelPair`), four channels at a time. */
function convPixel(
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  o: number,
  ip: number,
  fp: number,
  len: number,
  rows: number,
  inRowStride: number,
  filterRowLen: number,
  channelStride: number,
  outDepth: number,
): void {
  const inputOffset = p.inputOffset | 0;
  const cs2 = 2 * channelStride;
  const cs3 = 3 * channelStride;
  let oc = 0;
  for (; oc < outDepth - 3; oc += 4) {
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    let i = ip;
    let f = oc * channelStride + fp;
    for (let r = 0; r < rows; r++) {
      const end = i + len;
      for (let k = i, w = f; k < end; k++, w++) {
        const x = (input[k]! + inputOffset) | 0;
        a0 = (a0 + Math.imul(filter[w]!, x)) | 0;
        a1 = (a1 + Math.imul(filter[w + channelStride]!, x)) | 0;
        a2 = (a2 + Math.imul(filter[w + cs2]!, x)) | 0;
        a3 = (a3 + Math.imul(filter[w + cs3]!, x)) | 0;
      }
      i += inRowStride;
      f += filterRowLen;
    }
    BLOCK[0] = a0;
    BLOCK[1] = a1;
    BLOCK[2] = a2;
    BLOCK[3] = a3;
    writeBlock(p, bias, output, o, oc, 4);
  }
  for (; oc < outDepth; oc++) {
    let a = 0;
    let i = ip;
    let f = oc * channelStride + fp;
    for (let r = 0; r < rows; r++) {
      const end = i + len;
      for (let k = i, w = f; k < end; k++, w++) a = (a + Math.imul(filter[w]!, (input[k]! + inputOffset) | 0)) | 0;
      i += inRowStride;
      f += filterRowLen;
    }
    BLOCK[0] = a;
    writeBlock(p, bias, output, o, oc, 1);
  }
}

/** CONV_2D tap by tap: any dilation and grouped convolutions (the filter depth divides the input depth). */
function convInt8Taps(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, filterDepth, outHeight, outWidth, outDepth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const filtersPerGroup = (outDepth / (inDepth / filterDepth)) | 0;
  const inputOffset = p.inputOffset | 0;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        for (let oc = 0; oc < outDepth; oc++, o++) {
          const groupBase = ((oc / filtersPerGroup) | 0) * filterDepth;
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            const filterRow = (oc * filterHeight + fy) * filterWidth;
            for (let fx = fx0; fx < fx1; fx++) {
              const ip = (inRow + inXOrigin + dilationWidth * fx) * inDepth + groupBase;
              const fp = (filterRow + fx) * filterDepth;
              for (let ic = 0; ic < filterDepth; ic++) {
                acc = (acc + Math.imul(filter[fp + ic]!, (input[ip + ic]! + inputOffset) | 0)) | 0;
              }
            }
          }
          output[o] = outputValue(acc, p, bias, oc);
        }
      }
    }
  }
}

/**
 * 16x8 CONV_2D (int16 activations, int8 weights). `bias64` holds INT64 bias words (see `Int64Words`) and
 * selects TFLM's int64 accumulator with the 64-bit MultiplyByQuantizedMultiplier; otherwise the
 * accumulator is int32 (TFLM's path for an int32 bias or no bias) with the 32-bit one. Zero points are 0,
 * so no offsets are applied.
 */
export function convInt16(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int16Array,
  filter: Int8Array,
  bias32: Int32Array | null,
  bias64: Int32Array | null,
  output: Int16Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, filterDepth, outHeight, outWidth, outDepth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const filtersPerGroup = (outDepth / (inDepth / filterDepth)) | 0;
  const { multiplier, shift, actMin, actMax } = p;
  const wide = bias64 !== null;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        for (let oc = 0; oc < outDepth; oc++, o++) {
          const groupBase = ((oc / filtersPerGroup) | 0) * filterDepth;
          // |product| <= 2^22: the double sum is the exact int64 sum.
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            const filterRow = (oc * filterHeight + fy) * filterWidth;
            for (let fx = fx0; fx < fx1; fx++) {
              const ip = (inRow + inXOrigin + dilationWidth * fx) * inDepth + groupBase;
              const fp = (filterRow + fx) * filterDepth;
              for (let ic = 0; ic < filterDepth; ic++) {
                acc += filter[fp + ic]! * input[ip + ic]!;
              }
            }
          }
          let scaled: number;
          if (wide) {
            scaled = multiplyByQuantizedMultiplierInt64(acc + int64At(bias64, oc), multiplier[oc]!, shift[oc]!);
          } else {
            acc |= 0;
            if (bias32 !== null) acc = (acc + bias32[oc]!) | 0;
            scaled = multiplyByQuantizedMultiplier(acc, multiplier[oc]!, shift[oc]!);
          }
          output[o] = scaled < actMin ? actMin : scaled > actMax ? actMax : scaled;
        }
      }
    }
  }
}

/**
 * uint8 CONV_2D (TFLite reference_ops::Conv, the legacy asymmetric uint8 kernel): int32 accumulation of
 * (filter - filter_zero_point) * (input - input_zero_point) over the taps inside the image, int32 bias,
 * MultiplyByQuantizedMultiplier with the one multiplier of the node, output zero point, clamp. Taps
 * outside the image are skipped, as in the reference (a padded input equal to its zero point adds 0).
 */
export function convUint8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Uint8Array,
  filter: Uint8Array,
  bias: Int32Array | null,
  output: Uint8Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, filterDepth, outHeight, outWidth, outDepth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const filtersPerGroup = (outDepth / (inDepth / filterDepth)) | 0;
  const inputOffset = p.inputOffset | 0;
  const filterOffset = p.filterOffset | 0;
  const outputOffset = p.outputOffset | 0;
  const multiplier = p.multiplier[0]!;
  const shift = p.shift[0]!;
  const actMin = p.actMin;
  const actMax = p.actMax;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        for (let oc = 0; oc < outDepth; oc++, o++) {
          const groupBase = ((oc / filtersPerGroup) | 0) * filterDepth;
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            const filterRow = (oc * filterHeight + fy) * filterWidth;
            for (let fx = fx0; fx < fx1; fx++) {
              const ip = (inRow + inXOrigin + dilationWidth * fx) * inDepth + groupBase;
              const fp = (filterRow + fx) * filterDepth;
              for (let ic = 0; ic < filterDepth; ic++) {
                acc = (acc + Math.imul((filter[fp + ic]! + filterOffset) | 0, (input[ip + ic]! + inputOffset) | 0)) | 0;
              }
            }
          }
          if (bias !== null) acc = (acc + bias[oc]!) | 0;
          const v = (multiplyByQuantizedMultiplier(acc, multiplier, shift) + outputOffset) | 0;
          output[o] = v < actMin ? actMin : v > actMax ? actMax : v;
        }
      }
    }
  }
}
