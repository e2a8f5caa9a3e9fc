/**
 * DEPTHWISE_CONV_2D inner loops, bit-exact with TFLM's reference kernels (tensorflow/lite/kernels/internal/
 * reference/depthwiseconv_float.h and integer_ops/depthwise_conv.h): output channel `ic * depthMultiplier
 * + m` reads input channel `ic`; the filter is [1, KH, KW, Cout]. Same accumulation order as the
 * reference, with per-pixel filter tap ranges instead of a per-tap bounds test.
 *
 * These functions allocate nothing.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { endTap, firstTap, int64At, type ConvGeometry } from './conv-common.js';
import { type ConvOutputParams } from '@micrort/kernel-support';

const fround = Math.fround;

/** Float DEPTHWISE_CONV_2D (reference_ops::DepthwiseConv), float32 rounding at each step. */
export function depthwiseConvFloat(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Float32Array,
  filter: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth, depthMultiplier } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const actMin = p.actMin;
  const actMax = p.actMax;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        const outBase = ((b * outHeight + oy) * outWidth + ox) * outDepth;
        for (let ic = 0; ic < inDepth; ic++) {
          for (let m = 0; m < depthMultiplier; m++) {
            const oc = ic * depthMultiplier + m;
            let total = 0;
            for (let fy = fy0; fy < fy1; fy++) {
              const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
              for (let fx = fx0; fx < fx1; fx++) {
                const xv = input[(inRow + inXOrigin + dilationWidth * fx) * inDepth + ic]!;
                const fv = filter[(fy * filterWidth + fx) * outDepth + oc]!;
                total = fround(total + fround(xv * fv));
              }
            }
            const v = fround(total + (bias !== null ? bias[oc]! : 0));
            output[outBase + oc] = v < actMin ? actMin : v > actMax ? actMax : v;
          }
        }
      }
    }
  }
}

/**
 * int8 per-channel DEPTHWISE_CONV_2D (reference_integer_ops::DepthwiseConvPerChannel): int32 accumulator of
 * filter * (input - input_zero_point), int32 bias, per-channel requantization, output zero point, clamp.
 * Output channels are computed four at a time: for each filter tap the four weights are contiguous in
 * the filter (and, with depth multiplier 1, the four inputs in the input pixel), so every tap costs four
 * loads of each instead of four strided passes over the taps. With depth multiplier 1, two horizontally
 * adjacent pixels with the same tap range share each weight load. The int32 sums are the reference's
 * exactly (same terms; int32 addition wraps associatively).
 */
export function depthwiseConvInt8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  if (g.depthMultiplier === 1) depthwiseInt8Mult1(g, p, input, filter, bias, output);
  else depthwiseInt8Multiplier(g, p, input, filter, bias, output);
}

/** Depth multiplier 1: output channel c reads input channel c. */
function depthwiseInt8Mult1(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const tapStep = dilationWidth * inDepth; // input distance between horizontally adjacent taps
  const rowStep = dilationHeight * inWidth * inDepth; // input distance between filter rows
  const pixelStep = strideWidth * inDepth; // input distance between adjacent output pixels
  const filterRowStep = filterWidth * outDepth;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const rows = endTap(inYOrigin, dilationHeight, inHeight, filterHeight) - fy0;
      const rowBase = (b * inHeight + inYOrigin + dilationHeight * fy0) * inWidth;
      let o = (b * outHeight + oy) * outWidth * outDepth;
      for (let ox = 0; ox < outWidth;) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        const ip = (rowBase + inXOrigin + dilationWidth * fx0) * inDepth;
        const fp = (fy0 * filterWidth + fx0) * outDepth;
        const taps = fx1 - fx0;
        const next = inXOrigin + strideWidth;
        const pair =
          ox + 1 < outWidth && firstTap(next, dilationWidth) === fx0 && endTap(next, dilationWidth, inWidth, filterWidth) === fx1;
        if (pair) {
          depthwisePixelPair(p, input, filter, bias, output, o, ip, pixelStep, fp, rows, taps, rowStep, tapStep, filterRowStep, outDepth);
          ox += 2;
          o += 2 * outDepth;
        } else {
          depthwisePixel(p, input, filter, bias, output, o, ip, fp, rows, taps, rowStep, tapStep, filterRowStep, outDepth);
          ox += 1;
          o += outDepth;
        }
      }
    }
  }
}

/**
 * All channels of two pixels whose first taps are at `ip` and `ip + pixelStep` (same tap ranges): `rows`
 * filter rows of `taps` taps; the filter's first tap is at `fp`.
 */
function depthwisePixelPair(
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  o: number,
  ip: number,
  pixelStep: number,
  fp: number,
  rows: number,
  taps: number,
  rowStep: number,
  tapStep: number,
  filterRowStep: number,
  depth: number,
): void {
  const inputOffset = p.inputOffset | 0;
  const o2 = o + depth;
  let c = 0;
  for (; c < depth - 3; c += 4) {
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    let b0 = 0,
      b1 = 0,
      b2 = 0,
      b3 = 0;
    for (let r = 0, ir = ip + c, fr = fp + c; r < rows; r++, ir += rowStep, fr += filterRowStep) {
      for (let t = 0, i = ir, f = fr; t < taps; t++, i += tapStep, f += depth) {
        const w0 = filter[f]!;
        const w1 = filter[f + 1]!;
        const w2 = filter[f + 2]!;
        const w3 = filter[f + 3]!;
        const j = i + pixelStep;
        a0 = (a0 + Math.imul(w0, (input[i]! + inputOffset) | 0)) | 0;
        b0 = (b0 + Math.imul(w0, (input[j]! + inputOffset) | 0)) | 0;
        a1 = (a1 + Math.imul(w1, (input[i + 1]! + inputOffset) | 0)) | 0;
        b1 = (b1 + Math.imul(w1, (input[j + 1]! + inputOffset) | 0)) | 0;
        a2 = (a2 + Math.imul(w2, (input[i + 2]! + inputOffset) | 0)) | 0;
        b2 = (b2 + Math.imul(w2, (input[j + 2]! + inputOffset) | 0)) | 0;
        a3 = (a3 + Math.imul(w3, (input[i + 3]! + inputOffset) | 0)) | 0;
        b3 = (b3 + Math.imul(w3, (input[j + 3]! + inputOffset) | 0)) | 0;
      }
    }
    BLOCK[0] = a0;
    BLOCK[1] = a1;
    BLOCK[2] = a2;
    BLOCK[3] = a3;
    writeBlock(p, bias, output, o, c, 4);
    BLOCK[0] = b0;
    BLOCK[1] = b1;
    BLOCK[2] = b2;
    BLOCK[3] = b3;
    writeBlock(p, bias, output, o2, c, 4);
  }
  for (; c < depth; c++) {
    let a = 0;
    let b = 0;
    for (let r = 0, ir = ip + c, fr = fp + c; r < rows; r++, ir += rowStep, fr += filterRowStep) {
      for (let t = 0, i = ir, f = fr; t < taps; t++, i += tapStep, f += depth) {
        const w = filter[f]!;
        a = (a + Math.imul(w, (input[i]! + inputOffset) | 0)) | 0;
        b = (b + Math.imul(w, (input[i + pixelStep]! + inputOffset) | 0)) | 0;
      }
    }
    BLOCK[0] = a;
    writeBlock(p, bias, output, o, c, 1);
    BLOCK[0] = b;
    writeBlock(p, bias, output, o2, c, 1);
  }
}

/** All channels of one pixel (see `depthwisePixelPair`). */
function depthwisePixel(
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  o: number,
  ip: number,
  fp: number,
  rows: number,
  taps: number,
  rowStep: number,
  tapStep: number,
  filterRowStep: number,
  depth: number,
): void {
  const inputOffset = p.inputOffset | 0;
  let c = 0;
  for (; c < depth - 3; c += 4) {
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    for (let r = 0, ir = ip + c, fr = fp + c; r < rows; r++, ir += rowStep, fr += filterRowStep) {
      for (let t = 0, i = ir, f = fr; t < taps; t++, i += tapStep, f += depth) {
        a0 = (a0 + Math.imul(filter[f]!, (input[i]! + inputOffset) | 0)) | 0;
        a1 = (a1 + Math.imul(filter[f + 1]!, (input[i + 1]! + inputOffset) | 0)) | 0;
        a2 = (a2 + Math.imul(filter[f + 2]!, (input[i + 2]! + inputOffset) | 0)) | 0;
        a3 = (a3 + Math.imul(filter[f + 3]!, (input[i + 3]! + inputOffset) | 0)) | 0;
      }
    }
    BLOCK[0] = a0;
    BLOCK[1] = a1;
    BLOCK[2] = a2;
    BLOCK[3] = a3;
    writeBlock(p, bias, output, o, c, 4);
  }
  for (; c < depth; c++) {
    let a = 0;
    for (let r = 0, ir = ip + c, fr = fp + c; r < rows; r++, ir += rowStep, fr += filterRowStep) {
      for (let t = 0, i = ir, f = fr; t < taps; t++, i += tapStep, f += depth)
        a = (a + Math.imul(filter[f]!, (input[i]! + inputOffset) | 0)) | 0;
    }
    BLOCK[0] = a;
    writeBlock(p, bias, output, o, c, 1);
  }
}

/** Depth multiplier > 1: output channel `oc` reads input channel `oc / multiplier`. */
function depthwiseInt8Multiplier(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth, depthMultiplier } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const inputOffset = p.inputOffset | 0;
  const dm = depthMultiplier;
  const tapStep = dilationWidth * inDepth;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++, o += outDepth) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        let oc = 0;
        for (; oc < outDepth - 3; oc += 4) {
          const c0 = (oc / dm) | 0;
          const c1 = ((oc + 1) / dm) | 0;
          const c2 = ((oc + 2) / dm) | 0;
          const c3 = ((oc + 3) / dm) | 0;
          let a0 = 0,
            a1 = 0,
            a2 = 0,
            a3 = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            let ip = ((b * inHeight + inYOrigin + dilationHeight * fy) * inWidth + inXOrigin + dilationWidth * fx0) * inDepth;
            let fp = (fy * filterWidth + fx0) * outDepth + oc;
            for (let fx = fx0; fx < fx1; fx++, ip += tapStep, fp += outDepth) {
              a0 = (a0 + Math.imul(filter[fp]!, (input[ip + c0]! + inputOffset) | 0)) | 0;
              a1 = (a1 + Math.imul(filter[fp + 1]!, (input[ip + c1]! + inputOffset) | 0)) | 0;
              a2 = (a2 + Math.imul(filter[fp + 2]!, (input[ip + c2]! + inputOffset) | 0)) | 0;
              a3 = (a3 + Math.imul(filter[fp + 3]!, (input[ip + c3]! + inputOffset) | 0)) | 0;
            }
          }
          BLOCK[0] = a0;
          BLOCK[1] = a1;
          BLOCK[2] = a2;
          BLOCK[3] = a3;
          writeBlock(p, bias, output, o, oc, 4);
        }
        for (; oc < outDepth; oc++) {
          const c = (oc / dm) | 0;
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            let ip = ((b * inHeight + inYOrigin + dilationHeight * fy) * inWidth + inXOrigin + dilationWidth * fx0) * inDepth + c;
            let fp = (fy * filterWidth + fx0) * outDepth + oc;
            for (let fx = fx0; fx < fx1; fx++, ip += tapStep, fp += outDepth) {
              acc = (acc + Math.imul(filter[fp]!, (input[ip]! + inputOffset) | 0)) | 0;
            }
          }
          BLOCK[0] = acc;
          writeBlock(p, bias, output, o, oc, 1);
        }
      }
    }
  }
}

/**
 * Accumulators handed from the blocked loops to `writeBlock` (a single requantization call site, which
 * V8 inlines).
 */
const BLOCK = new Int32Array(4);

/** Requantizes `BLOCK[0..n)`, the accumulators of channels `oc..oc+n`, into `output[o + oc ..]`. */
function writeBlock(p: ConvOutputParams, bias: Int32Array | null, output: Int8Array, o: number, oc: number, n: number): void {
  const { multiplier, shift, outputOffset, actMin, actMax } = p;
  for (let j = 0; j < n; j++) {
    const c = oc + j;
    const acc = bias !== null ? (BLOCK[j]! + bias[c]!) | 0 : BLOCK[j]!;
    const v = multiplyByQuantizedMultiplier(acc, multiplier[c]!, shift[c]!) + outputOffset;
    output[o + c] = v < actMin ? actMin : v > actMax ? actMax : v;
  }
}

/**
 * 16x8 DEPTHWISE_CONV_2D: int64 accumulator (exact in doubles), optional INT64 bias given as words (see
 * `Int64Words`), 64-bit MultiplyByQuantizedMultiplier, no zero points.
 */
export function depthwiseConvInt16(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int16Array,
  filter: Int8Array,
  bias64: Int32Array | null,
  output: Int16Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth, depthMultiplier } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const { multiplier, shift, actMin, actMax } = p;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        const outBase = ((b * outHeight + oy) * outWidth + ox) * outDepth;
        for (let ic = 0; ic < inDepth; ic++) {
          for (let m = 0; m < depthMultiplier; m++) {
            const oc = ic * depthMultiplier + m;
            let acc = 0;
            for (let fy = fy0; fy < fy1; fy++) {
              const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
              const filterRow = fy * filterWidth;
              for (let fx = fx0; fx < fx1; fx++) {
                acc += filter[(filterRow + fx) * outDepth + oc]! * input[(inRow + inXOrigin + dilationWidth * fx) * inDepth + ic]!;
              }
            }
            if (bias64 !== null) acc += int64At(bias64, oc);
            const scaled = multiplyByQuantizedMultiplierInt64(acc, multiplier[oc]!, shift[oc]!);
            output[outBase + oc] = scaled < actMin ? actMin : scaled > actMax ? actMax : scaled;
          }
        }
      }
    }
  }
}

/**
 * uint8 DEPTHWISE_CONV_2D (TFLite reference_ops::DepthwiseConv for uint8, DepthwiseConvBasicKernel with
 * kAwayFromZero output rounding, i.e. MultiplyByQuantizedMultiplier): int32 accumulation of
 * (filter - filter_zero_point) * (input - input_zero_point) over the taps inside the image, int32 bias,
 * the node's one multiplier, output zero point, clamp.
 */
export function depthwiseConvUint8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Uint8Array,
  filter: Uint8Array,
  bias: Int32Array | null,
  output: Uint8Array,
): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth, depthMultiplier } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const inputOffset = p.inputOffset | 0;
  const filterOffset = p.filterOffset | 0;
  const outputOffset = p.outputOffset | 0;
  const multiplier = p.multiplier[0]!;
  const shift = p.shift[0]!;
  const actMin = p.actMin;
  const actMax = p.actMax;
  for (let b = 0; b < batches; b++) {
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = firstTap(inYOrigin, dilationHeight);
      const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = firstTap(inXOrigin, dilationWidth);
        const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
        const outBase = ((b * outHeight + oy) * outWidth + ox) * outDepth;
        for (let ic = 0; ic < inDepth; ic++) {
          for (let m = 0; m < depthMultiplier; m++) {
            const oc = ic * depthMultiplier + m;
            let acc = 0;
            for (let fy = fy0; fy < fy1; fy++) {
              const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
              const filterRow = fy * filterWidth;
              for (let fx = fx0; fx < fx1; fx++) {
                const x = (input[(inRow + inXOrigin + dilationWidth * fx) * inDepth + ic]! + inputOffset) | 0;
                acc = (acc + Math.imul((filter[(filterRow + fx) * outDepth + oc]! + filterOffset) | 0, x)) | 0;
              }
            }
            if (bias !== null) acc = (acc + bias[oc]!) | 0;
            const v = (multiplyByQuantizedMultiplier(acc, multiplier, shift) + outputOffset) | 0;
            output[outBase + oc] = v < actMin ? actMin : v > actMax ? actMax : v;
          }
        }
      }
    }
  }
}
