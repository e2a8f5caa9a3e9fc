/**
 * DEPTHWISE_CONV_2D inner loops, bit-exact with TFLM's reference kernels (tensorflow/lite/kernels/internal/
 * reference/depthwiseconv_float.h and integer_ops/depthwise_conv.h): output channel `ic * depthMultiplier
 * + m` reads input channel `ic`; the filter is [1, KH, KW, Cout]. Same accumulation order as the
 * reference, with per-pixel filter tap ranges instead of a per-tap bounds test.
 *
 * These functions allocate nothing.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { endTap, firstTap, int64At, type ConvGeometry, type ConvOutputParams } from './conv-common.js';

const fround = Math.fround;

/** Float DEPTHWISE_CONV_2D (reference_ops::DepthwiseConv), float32 rounding at each step. */
export function depthwiseConvFloat(g: ConvGeometry, p: ConvOutputParams, input: Float32Array, filter: Float32Array, bias: Float32Array | null, output: Float32Array): void {
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
 */
export function depthwiseConvInt8(g: ConvGeometry, p: ConvOutputParams, input: Int8Array, filter: Int8Array, bias: Int32Array | null, output: Int8Array): void {
  const { batches, inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth, depthMultiplier } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const { multiplier, shift, inputOffset, outputOffset, actMin, actMax } = p;
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
            // exact in doubles; `| 0` wraps like the C int32 accumulator
            let acc = 0;
            for (let fy = fy0; fy < fy1; fy++) {
              const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
              const filterRow = fy * filterWidth;
              for (let fx = fx0; fx < fx1; fx++) {
                acc += filter[(filterRow + fx) * outDepth + oc]! * (input[(inRow + inXOrigin + dilationWidth * fx) * inDepth + ic]! + inputOffset);
              }
            }
            acc |= 0;
            if (bias !== null) acc = (acc + bias[oc]!) | 0;
            acc = multiplyByQuantizedMultiplier(acc, multiplier[oc]!, shift[oc]!) + outputOffset;
            output[outBase + oc] = acc < actMin ? actMin : acc > actMax ? actMax : acc;
          }
        }
      }
    }
  }
}

/**
 * 16x8 DEPTHWISE_CONV_2D: int64 accumulator (exact in doubles), optional INT64 bias given as words (see
 * `Int64Words`), 64-bit MultiplyByQuantizedMultiplier, no zero points.
 */
export function depthwiseConvInt16(g: ConvGeometry, p: ConvOutputParams, input: Int16Array, filter: Int8Array, bias64: Int32Array | null, output: Int16Array): void {
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
