/**
 * DEPTHWISE_CONV_2D's in-place variant (TinyEngine's in-place depthwise convolution), for depth
 * multiplier 1: output channel c reads input channel c only, so the kernel computes channel c for every
 * output pixel into a one-channel temporary (`outHeight × outWidth` elements), then stores it at
 * positions `p · C + c` — where only channel c's input, no longer needed, can lie when the output
 * shares the input's buffer (the output, never larger than the input, is a prefix of it). Batches run
 * one after the other; batch b's output ends before batch b+1's input starts.
 *
 * Every channel's sum has the terms of the normal kernels (depthwise-conv-2d-eval.ts) in the same order,
 * so the bytes are the same (float32 too). These functions allocate nothing.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { endTap, firstTap, int64At, type ConvGeometry } from './conv-common.js';
import { type ConvOutputParams } from '@micrort/kernel-support';

const fround = Math.fround;

/** Stores the one-channel temporary at channel `c` of batch `b`'s output pixels. */
function storeChannel(temp: ArrayLike<number>, output: { [i: number]: number }, b: number, pixels: number, depth: number, c: number): void {
  let o = b * pixels * depth + c;
  for (let q = 0; q < pixels; q++, o += depth) output[o] = temp[q]!;
}

/** Float32, depth multiplier 1. */
export function depthwiseInPlaceFloat(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Float32Array,
  filter: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
  temp: Float32Array,
): void {
  const { batches, inHeight, inWidth, inDepth: depth, filterHeight, filterWidth, outHeight, outWidth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const actMin = p.actMin;
  const actMax = p.actMax;
  const pixels = outHeight * outWidth;
  for (let b = 0; b < batches; b++) {
    for (let c = 0; c < depth; c++) {
      let q = 0;
      for (let oy = 0; oy < outHeight; oy++) {
        const inYOrigin = oy * strideHeight - padHeight;
        const fy0 = firstTap(inYOrigin, dilationHeight);
        const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
        for (let ox = 0; ox < outWidth; ox++, q++) {
          const inXOrigin = ox * strideWidth - padWidth;
          const fx0 = firstTap(inXOrigin, dilationWidth);
          const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
          let total = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            for (let fx = fx0; fx < fx1; fx++) {
              const xv = input[(inRow + inXOrigin + dilationWidth * fx) * depth + c]!;
              const fv = filter[(fy * filterWidth + fx) * depth + c]!;
              total = fround(total + fround(xv * fv));
            }
          }
          const v = fround(total + (bias !== null ? bias[c]! : 0));
          temp[q] = v < actMin ? actMin : v > actMax ? actMax : v;
        }
      }
      storeChannel(temp, output, b, pixels, depth, c);
    }
  }
}

/** int8 per-channel, depth multiplier 1. */
export function depthwiseInPlaceInt8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  temp: Int8Array,
): void {
  const { batches, inHeight, inWidth, inDepth: depth, filterHeight, filterWidth, outHeight, outWidth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const { multiplier, shift, actMin, actMax } = p;
  const inputOffset = p.inputOffset | 0;
  const outputOffset = p.outputOffset | 0;
  const pixels = outHeight * outWidth;
  const tapStep = dilationWidth * depth;
  for (let b = 0; b < batches; b++) {
    for (let c = 0; c < depth; c++) {
      const m = multiplier[c]!;
      const s = shift[c]!;
      const bc = bias !== null ? bias[c]! : 0;
      let q = 0;
      for (let oy = 0; oy < outHeight; oy++) {
        const inYOrigin = oy * strideHeight - padHeight;
        const fy0 = firstTap(inYOrigin, dilationHeight);
        const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
        for (let ox = 0; ox < outWidth; ox++, q++) {
          const inXOrigin = ox * strideWidth - padWidth;
          const fx0 = firstTap(inXOrigin, dilationWidth);
          const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            let i = ((b * inHeight + inYOrigin + dilationHeight * fy) * inWidth + inXOrigin + dilationWidth * fx0) * depth + c;
            let f = (fy * filterWidth + fx0) * depth + c;
            for (let fx = fx0; fx < fx1; fx++, i += tapStep, f += depth)
              acc = (acc + Math.imul(filter[f]!, (input[i]! + inputOffset) | 0)) | 0;
          }
          const v = multiplyByQuantizedMultiplier((acc + bc) | 0, m, s) + outputOffset;
          temp[q] = v < actMin ? actMin : v > actMax ? actMax : v;
        }
      }
      storeChannel(temp, output, b, pixels, depth, c);
    }
  }
}

/** 16x8 (int16 activations, int8 weights, optional int64 bias as words), depth multiplier 1. */
export function depthwiseInPlaceInt16(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Int16Array,
  filter: Int8Array,
  bias64: Int32Array | null,
  output: Int16Array,
  temp: Int16Array,
): void {
  const { batches, inHeight, inWidth, inDepth: depth, filterHeight, filterWidth, outHeight, outWidth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const { multiplier, shift, actMin, actMax } = p;
  const pixels = outHeight * outWidth;
  for (let b = 0; b < batches; b++) {
    for (let c = 0; c < depth; c++) {
      let q = 0;
      for (let oy = 0; oy < outHeight; oy++) {
        const inYOrigin = oy * strideHeight - padHeight;
        const fy0 = firstTap(inYOrigin, dilationHeight);
        const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
        for (let ox = 0; ox < outWidth; ox++, q++) {
          const inXOrigin = ox * strideWidth - padWidth;
          const fx0 = firstTap(inXOrigin, dilationWidth);
          const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            const filterRow = fy * filterWidth;
            for (let fx = fx0; fx < fx1; fx++)
              acc += filter[(filterRow + fx) * depth + c]! * input[(inRow + inXOrigin + dilationWidth * fx) * depth + c]!;
          }
          if (bias64 !== null) acc += int64At(bias64, c);
          const scaled = multiplyByQuantizedMultiplierInt64(acc, multiplier[c]!, shift[c]!);
          temp[q] = scaled < actMin ? actMin : scaled > actMax ? actMax : scaled;
        }
      }
      storeChannel(temp, output, b, pixels, depth, c);
    }
  }
}

/** TFLite's legacy uint8 (one multiplier, filter zero point), depth multiplier 1. */
export function depthwiseInPlaceUint8(
  g: ConvGeometry,
  p: ConvOutputParams,
  input: Uint8Array,
  filter: Uint8Array,
  bias: Int32Array | null,
  output: Uint8Array,
  temp: Uint8Array,
): void {
  const { batches, inHeight, inWidth, inDepth: depth, filterHeight, filterWidth, outHeight, outWidth } = g;
  const { strideHeight, strideWidth, dilationHeight, dilationWidth, padHeight, padWidth } = g;
  const inputOffset = p.inputOffset | 0;
  const filterOffset = p.filterOffset | 0;
  const outputOffset = p.outputOffset | 0;
  const multiplier = p.multiplier[0]!;
  const shift = p.shift[0]!;
  const { actMin, actMax } = p;
  const pixels = outHeight * outWidth;
  for (let b = 0; b < batches; b++) {
    for (let c = 0; c < depth; c++) {
      let q = 0;
      for (let oy = 0; oy < outHeight; oy++) {
        const inYOrigin = oy * strideHeight - padHeight;
        const fy0 = firstTap(inYOrigin, dilationHeight);
        const fy1 = endTap(inYOrigin, dilationHeight, inHeight, filterHeight);
        for (let ox = 0; ox < outWidth; ox++, q++) {
          const inXOrigin = ox * strideWidth - padWidth;
          const fx0 = firstTap(inXOrigin, dilationWidth);
          const fx1 = endTap(inXOrigin, dilationWidth, inWidth, filterWidth);
          let acc = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const inRow = (b * inHeight + inYOrigin + dilationHeight * fy) * inWidth;
            const filterRow = fy * filterWidth;
            for (let fx = fx0; fx < fx1; fx++) {
              const x = (input[(inRow + inXOrigin + dilationWidth * fx) * depth + c]! + inputOffset) | 0;
              acc = (acc + Math.imul((filter[(filterRow + fx) * depth + c]! + filterOffset) | 0, x)) | 0;
            }
          }
          if (bias !== null) acc = (acc + bias[c]!) | 0;
          const v = (multiplyByQuantizedMultiplier(acc, multiplier, shift) + outputOffset) | 0;
          temp[q] = v < actMin ? actMin : v > actMax ? actMax : v;
        }
      }
      storeChannel(temp, output, b, pixels, depth, c);
    }
  }
}
