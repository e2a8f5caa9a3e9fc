/**
 * In-place int8 depthwise convolution (TinyEngine's `depthwise_kernel*_inplace`, MCUNet): depth
 * multiplier 1, any stride, dilation and padding. Channel c of every output pixel is computed into a
 * one-channel buffer (`outH × outW` bytes), then stored at `p · C + c` — over channel c of the input,
 * which nothing reads any more, when the output shares the input's buffer (the output is a prefix of
 * it: never larger). Batch b's output ends before batch b+1's input begins, so batches run in turn.
 *
 * The sums are those of the other arm_depthwise_conv paths (same terms, int32 wrap-around addition),
 * requantized with the same arm_nn_requantize, so the bytes are the same. Fast mode only (no
 * instruction emulation): it is a schedule's memory trade, not a CMSIS-NN kernel.
 */
import { requantizeClamp } from './requantize-fast.js';
import type { ConvParams } from './types.js';

/** Runs the convolution channel by channel through `temp` (at least outH × outW bytes). */
export function depthwiseConvS8InPlace(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  temp: Int8Array,
): void {
  const { inH, inW, inC: depth, kH, kW, outH, outW, strideH, strideW, padH, padW, dilH, dilW } = p;
  const off = p.inputOffset;
  const pixels = outH * outW;
  const tapStep = dilW * depth;
  for (let b = 0; b < p.batches; b++) {
    const inBase = b * inH * inW * depth;
    for (let c = 0; c < depth; c++) {
      const m = p.multiplier[c]!;
      const s = p.shift[c]!;
      const acc0 = bias !== null ? bias[c]! : 0;
      let q = 0;
      for (let oy = 0; oy < outH; oy++) {
        const y0 = oy * strideH - padH;
        const kh0 = y0 >= 0 ? 0 : Math.floor((-y0 + dilH - 1) / dilH);
        const kh1 = Math.min(kH, Math.floor((inH - y0 + dilH - 1) / dilH));
        for (let ox = 0; ox < outW; ox++, q++) {
          const x0 = ox * strideW - padW;
          const kw0 = x0 >= 0 ? 0 : Math.floor((-x0 + dilW - 1) / dilW);
          const kw1 = Math.min(kW, Math.floor((inW - x0 + dilW - 1) / dilW));
          let acc = acc0;
          for (let kh = kh0; kh < kh1; kh++) {
            let i = inBase + ((y0 + kh * dilH) * inW + x0 + kw0 * dilW) * depth + c;
            let k = (kh * kW + kw0) * depth + c;
            for (let kw = kw0; kw < kw1; kw++, i += tapStep, k += depth) acc = (acc + Math.imul((input[i]! + off) | 0, kernel[k]!)) | 0;
          }
          temp[q] = requantizeClamp(acc, m, s, p.outputOffset, p.actMin, p.actMax);
        }
      }
      for (let j = 0, o = b * pixels * depth + c; j < pixels; j++, o += depth) output[o] = temp[j]!;
    }
  }
}
