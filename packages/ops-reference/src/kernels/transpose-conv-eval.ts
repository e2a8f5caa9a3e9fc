/**
 * TRANSPOSE_CONV inner loops, bit-exact with TFLM's reference kernels (tensorflow/lite/kernels/internal/
 * reference/transpose_conv.h and integer_ops/transpose_conv.h). They use the reference's "scatter" order:
 * every input element adds its contribution to the outputs it influences (batch, in_y, in_x, in_channel,
 * filter_y, filter_x, out_channel), into the float output itself or into an int32 / exact-int64 scratch
 * accumulator; a second pass adds the bias and requantizes.
 *
 * The filter is [Cout, KH, KW, Cin]. These functions allocate nothing.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { endTap, firstTap, int64At, type ConvGeometry } from './conv-common.js';
import { type ConvOutputParams } from '@micrort/kernel-support';

const fround = Math.fround;

// The three scatter loops below are the same loop nest over different array types, kept separate so each
// hot loop sees one typed-array kind (monomorphic element access).

/** Float scatter: `acc` is the output itself; each product and each sum is rounded to float32. */
function scatterFloat(g: ConvGeometry, input: Float32Array, filter: Float32Array, acc: Float32Array): void {
  const {
    batches,
    inHeight,
    inWidth,
    inDepth,
    filterHeight,
    filterWidth,
    outHeight,
    outWidth,
    outDepth,
    strideHeight,
    strideWidth,
    padHeight,
    padWidth,
  } = g;
  // distance between the same tap of consecutive output channels in the [Cout, KH, KW, Cin] filter
  const fStride = filterHeight * filterWidth * inDepth;
  let i = 0;
  for (let b = 0; b < batches; b++) {
    for (let iy = 0; iy < inHeight; iy++) {
      const outYOrigin = iy * strideHeight - padHeight;
      const fy0 = firstTap(outYOrigin, 1);
      const fy1 = endTap(outYOrigin, 1, outHeight, filterHeight);
      for (let ix = 0; ix < inWidth; ix++) {
        const outXOrigin = ix * strideWidth - padWidth;
        const fx0 = firstTap(outXOrigin, 1);
        const fx1 = endTap(outXOrigin, 1, outWidth, filterWidth);
        for (let ic = 0; ic < inDepth; ic++, i++) {
          const xv = input[i]!;
          for (let fy = fy0; fy < fy1; fy++) {
            const outRow = (b * outHeight + outYOrigin + fy) * outWidth + outXOrigin;
            for (let fx = fx0; fx < fx1; fx++) {
              const o = (outRow + fx) * outDepth;
              let fp = (fy * filterWidth + fx) * inDepth + ic;
              for (let oc = 0; oc < outDepth; oc++, fp += fStride) acc[o + oc] = acc[o + oc]! + fround(xv * filter[fp]!);
            }
          }
        }
      }
    }
  }
}

/** int8 scatter into the int32 scratch (the Int32Array store wraps like the C int32 accumulator). */
/**
 * Adds (input + inputOffset) × filter of every input element into the int32 accumulators `acc` (one per
 * output element). With `batchZeroPoints` (the hybrid kernel's per-batch zero points), batch b adds
 * (input − batchZeroPoints[b]) × filter instead.
 */
export function scatterInt8(
  g: ConvGeometry,
  input: Int8Array,
  inputOffset: number,
  filter: Int8Array,
  acc: Int32Array,
  batchZeroPoints: Int32Array | null = null,
): void {
  const {
    batches,
    inHeight,
    inWidth,
    inDepth,
    filterHeight,
    filterWidth,
    outHeight,
    outWidth,
    outDepth,
    strideHeight,
    strideWidth,
    padHeight,
    padWidth,
  } = g;
  const fStride = filterHeight * filterWidth * inDepth;
  let i = 0;
  for (let b = 0; b < batches; b++) {
    const offset = batchZeroPoints === null ? inputOffset : -batchZeroPoints[b]!;
    for (let iy = 0; iy < inHeight; iy++) {
      const outYOrigin = iy * strideHeight - padHeight;
      const fy0 = firstTap(outYOrigin, 1);
      const fy1 = endTap(outYOrigin, 1, outHeight, filterHeight);
      for (let ix = 0; ix < inWidth; ix++) {
        const outXOrigin = ix * strideWidth - padWidth;
        const fx0 = firstTap(outXOrigin, 1);
        const fx1 = endTap(outXOrigin, 1, outWidth, filterWidth);
        for (let ic = 0; ic < inDepth; ic++, i++) {
          const xv = input[i]! + offset;
          for (let fy = fy0; fy < fy1; fy++) {
            const outRow = (b * outHeight + outYOrigin + fy) * outWidth + outXOrigin;
            for (let fx = fx0; fx < fx1; fx++) {
              const o = (outRow + fx) * outDepth;
              let fp = (fy * filterWidth + fx) * inDepth + ic;
              for (let oc = 0; oc < outDepth; oc++, fp += fStride) acc[o + oc] = acc[o + oc]! + xv * filter[fp]!;
            }
          }
        }
      }
    }
  }
}

/**
 * uint8 scatter into the int32 scratch: adds (input + inputOffset) × (filter + filterOffset) of every
 * input element (reference_ops::TransposeConv's uint8 loop; the Int32Array store wraps like its int32).
 */
function scatterUint8(
  g: ConvGeometry,
  input: Uint8Array,
  inputOffset: number,
  filter: Uint8Array,
  filterOffset: number,
  acc: Int32Array,
): void {
  const {
    batches,
    inHeight,
    inWidth,
    inDepth,
    filterHeight,
    filterWidth,
    outHeight,
    outWidth,
    outDepth,
    strideHeight,
    strideWidth,
    padHeight,
    padWidth,
  } = g;
  const fStride = filterHeight * filterWidth * inDepth;
  let i = 0;
  for (let b = 0; b < batches; b++) {
    for (let iy = 0; iy < inHeight; iy++) {
      const outYOrigin = iy * strideHeight - padHeight;
      const fy0 = firstTap(outYOrigin, 1);
      const fy1 = endTap(outYOrigin, 1, outHeight, filterHeight);
      for (let ix = 0; ix < inWidth; ix++) {
        const outXOrigin = ix * strideWidth - padWidth;
        const fx0 = firstTap(outXOrigin, 1);
        const fx1 = endTap(outXOrigin, 1, outWidth, filterWidth);
        for (let ic = 0; ic < inDepth; ic++, i++) {
          const xv = input[i]! + inputOffset;
          for (let fy = fy0; fy < fy1; fy++) {
            const outRow = (b * outHeight + outYOrigin + fy) * outWidth + outXOrigin;
            for (let fx = fx0; fx < fx1; fx++) {
              const o = (outRow + fx) * outDepth;
              let fp = (fy * filterWidth + fx) * inDepth + ic;
              for (let oc = 0; oc < outDepth; oc++, fp += fStride) acc[o + oc] = acc[o + oc]! + xv * (filter[fp]! + filterOffset);
            }
          }
        }
      }
    }
  }
}

/** 16x8 scatter into the exact int64 accumulator (a Float64Array: every sum is an integer below 2^53). */
function scatterInt16(g: ConvGeometry, input: Int16Array, filter: Int8Array, acc: Float64Array): void {
  const {
    batches,
    inHeight,
    inWidth,
    inDepth,
    filterHeight,
    filterWidth,
    outHeight,
    outWidth,
    outDepth,
    strideHeight,
    strideWidth,
    padHeight,
    padWidth,
  } = g;
  const fStride = filterHeight * filterWidth * inDepth;
  let i = 0;
  for (let b = 0; b < batches; b++) {
    for (let iy = 0; iy < inHeight; iy++) {
      const outYOrigin = iy * strideHeight - padHeight;
      const fy0 = firstTap(outYOrigin, 1);
      const fy1 = endTap(outYOrigin, 1, outHeight, filterHeight);
      for (let ix = 0; ix < inWidth; ix++) {
        const outXOrigin = ix * strideWidth - padWidth;
        const fx0 = firstTap(outXOrigin, 1);
        const fx1 = endTap(outXOrigin, 1, outWidth, filterWidth);
        for (let ic = 0; ic < inDepth; ic++, i++) {
          const xv = input[i]!;
          for (let fy = fy0; fy < fy1; fy++) {
            const outRow = (b * outHeight + outYOrigin + fy) * outWidth + outXOrigin;
            for (let fx = fx0; fx < fx1; fx++) {
              const o = (outRow + fx) * outDepth;
              let fp = (fy * filterWidth + fx) * inDepth + ic;
              for (let oc = 0; oc < outDepth; oc++, fp += fStride) acc[o + oc] = acc[o + oc]! + xv * filter[fp]!;
            }
          }
        }
      }
    }
  }
}

/**
 * Float TRANSPOSE_CONV (reference_ops::TransposeConv): accumulates into the output (float32 rounding per
 * add), then adds the bias and clamps to the fused activation range.
 */
export function transposeConvFloat(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Float32Array,
  filter: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const n = g.batches * g.outHeight * g.outWidth * g.outDepth;
  output.fill(0, 0, n);
  scatterFloat(g, input, filter, output);
  const { actMin, actMax } = p;
  const outDepth = g.outDepth;
  for (let o = 0; o < n; o += outDepth) {
    for (let oc = 0; oc < outDepth; oc++) {
      const v = fround(output[o + oc]! + (bias !== null ? bias[oc]! : 0));
      output[o + oc] = v < actMin ? actMin : v > actMax ? actMax : v;
    }
  }
}

/**
 * int8 per-channel TRANSPOSE_CONV (reference_integer_ops::TransposeConv): int32 scratch accumulator of
 * (input - input_zero_point) * filter, int32 bias, per-channel requantization, output zero point, clamp.
 */
export function transposeConvInt8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  scratch: Int32Array,
): void {
  const n = g.batches * g.outHeight * g.outWidth * g.outDepth;
  scratch.fill(0, 0, n);
  scatterInt8(g, input, p.inputOffset, filter, scratch);
  const { multiplier, shift, outputOffset, actMin, actMax } = p;
  const outDepth = g.outDepth;
  for (let o = 0; o < n; o += outDepth) {
    for (let oc = 0; oc < outDepth; oc++) {
      let acc = scratch[o + oc]!;
      if (bias !== null) acc = (acc + bias[oc]!) | 0;
      acc = multiplyByQuantizedMultiplier(acc, multiplier[oc]!, shift[oc]!) + outputOffset;
      output[o + oc] = acc < actMin ? actMin : acc > actMax ? actMax : acc;
    }
  }
}

/**
 * uint8 TRANSPOSE_CONV (reference_ops::TransposeConv, uint8): int32 scratch accumulator of
 * (input - input_zero_point) × (filter - filter_zero_point), int32 bias, one per-tensor requantization
 * (`p.multiplier` / `p.shift` hold it in every channel), output zero point, clamp. TFLite's optimized
 * TransposeConvV2 (gemm, col2im, then the same MultiplyByQuantizedMultiplier rounding) gives the same
 * integers: every step is exact int32 arithmetic until the one requantization.
 */
export function transposeConvUint8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Uint8Array,
  filter: Uint8Array,
  bias: Int32Array | null,
  output: Uint8Array,
  scratch: Int32Array,
): void {
  const n = g.batches * g.outHeight * g.outWidth * g.outDepth;
  scratch.fill(0, 0, n);
  scatterUint8(g, input, p.inputOffset, filter, p.filterOffset, scratch);
  const { outputOffset, actMin, actMax } = p;
  const multiplier = p.multiplier[0]!;
  const shift = p.shift[0]!;
  const outDepth = g.outDepth;
  for (let o = 0; o < n; o += outDepth) {
    for (let oc = 0; oc < outDepth; oc++) {
      let acc = scratch[o + oc]!;
      if (bias !== null) acc = (acc + bias[oc]!) | 0;
      acc = multiplyByQuantizedMultiplier(acc, multiplier, shift) + outputOffset;
      output[o + oc] = acc < actMin ? actMin : acc > actMax ? actMax : acc;
    }
  }
}

/**
 * 16x8 TRANSPOSE_CONV: exact int64 accumulation in a Float64Array scratch (sums of int16 x int8 products
 * stay far below 2^53), bias from INT64 words or from an int16 bias already widened into `biasWide`,
 * 64-bit requantization, no zero points.
 */
export function transposeConvInt16(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int16Array,
  filter: Int8Array,
  bias64: Int32Array | null,
  biasWide: Float64Array | null,
  output: Int16Array,
  scratch: Float64Array,
): void {
  const n = g.batches * g.outHeight * g.outWidth * g.outDepth;
  scratch.fill(0, 0, n);
  scatterInt16(g, input, filter, scratch);
  const { multiplier, shift, actMin, actMax } = p;
  const outDepth = g.outDepth;
  for (let o = 0; o < n; o += outDepth) {
    for (let oc = 0; oc < outDepth; oc++) {
      let acc = scratch[o + oc]!;
      if (bias64 !== null) acc += int64At(bias64, oc);
      else if (biasWide !== null) acc += biasWide[oc]!;
      const scaled = multiplyByQuantizedMultiplierInt64(acc, multiplier[oc]!, shift[oc]!);
      output[o + oc] = scaled < actMin ? actMin : scaled > actMax ? actMax : scaled;
    }
  }
}
