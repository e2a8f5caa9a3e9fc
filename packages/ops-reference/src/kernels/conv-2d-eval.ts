/**
 * CONV_2D inner loops, bit-exact with TFLM's reference kernels (tensorflow/lite/kernels/internal/reference/
 * conv.h and integer_ops/conv.h): the same accumulation order, with the "point inside the image" test
 * replaced by per-pixel filter tap ranges. Grouped convolution is supported as in the reference: the filter's
 * innermost dimension is the input depth of one group.
 *
 * These functions allocate nothing.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { endTap, firstTap, int64At, type ConvGeometry, type ConvOutputParams } from './conv-common.js';

const fround = Math.fround;

/**
 * Float CONV_2D (reference_ops::Conv). Products and sums are rounded to float32 at each step, as the
 * C++ `float total += input * filter` does without FMA contraction.
 */
export function convFloat(g: ConvGeometry, p: ConvOutputParams, input: Float32Array, filter: Float32Array, bias: Float32Array | null, output: Float32Array): void {
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
 * point, clamp to the activation range.
 */
export function convInt8(g: ConvGeometry, p: ConvOutputParams, input: Int8Array, filter: Int8Array, bias: Int32Array | null, output: Int8Array): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, filterDepth, outHeight, outWidth, outDepth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const filtersPerGroup = (outDepth / (inDepth / filterDepth)) | 0;
  const { multiplier, shift, inputOffset, outputOffset, actMin, actMax } = p;
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
          // Each product fits in 16 bits and the sum stays far below 2^53, so the double sum is exact;
          // `| 0` then wraps it exactly as the C int32 accumulator would.
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            const filterRow = (oc * filterHeight + fy) * filterWidth;
            for (let fx = fx0; fx < fx1; fx++) {
              const ip = (inRow + inXOrigin + dilationWidth * fx) * inDepth + groupBase;
              const fp = (filterRow + fx) * filterDepth;
              for (let ic = 0; ic < filterDepth; ic++) {
                acc += filter[fp + ic]! * (input[ip + ic]! + inputOffset);
              }
            }
          }
          acc |= 0;
          if (bias !== null) acc = (acc + bias[oc]!) | 0;
          acc = multiplyByQuantizedMultiplier(acc, multiplier[oc]!, shift[oc]!) + outputOffset;
          output[o] = acc < actMin ? actMin : acc > actMax ? actMax : acc;
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
