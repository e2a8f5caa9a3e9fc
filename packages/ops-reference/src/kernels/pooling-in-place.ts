/**
 * The in-place variant of MAX_POOL_2D and AVERAGE_POOL_2D (schedules `inplace`, `patch+inplace`):
 * pooling is channel-separable, so channel c of every output pixel is computed into a one-channel
 * scratch buffer (`outHeight × outWidth` elements) and then stored at `p · C + c`, where only channel
 * c's input — no longer needed — can lie when the output (never larger than the input) is a prefix of
 * the input's buffer. Batches run one after the other. Each window's terms, their order and the
 * rounding are those of max-pool-2d.ts / average-pool-2d.ts, so the bytes are the same.
 */
import { TensorType, elementSize, type InPlaceVariant, type Node, type TfLiteContext } from '@micrort/core';
import { type PoolingOpData } from './pooling-common.js';
import type { NumberArray } from './transpose-common.js';
import { FLT_MAX, opData } from '@micrort/kernel-support';

/** Pooling of one channel into `temp`. */
type ChannelPool = (d: PoolingOpData, input: NumberArray, temp: NumberArray, b: number, c: number) => void;

/** Runs `pool` channel by channel and stores each channel over its input's positions. */
export function poolInPlace(d: PoolingOpData, input: NumberArray, output: NumberArray, temp: NumberArray, pool: ChannelPool): void {
  const { batches, depth, outHeight, outWidth } = d;
  const pixels = outHeight * outWidth;
  for (let b = 0; b < batches; b++) {
    for (let c = 0; c < depth; c++) {
      pool(d, input, temp, b, c);
      for (let q = 0, o = b * pixels * depth + c; q < pixels; q++, o += depth) output[o] = temp[q]!;
    }
  }
}

/** The type's lowest value: MAX_POOL_2D's starting maximum. */
function lowestOf(type: TensorType): number {
  return type === TensorType.FLOAT32 ? -FLT_MAX : type === TensorType.INT8 ? -128 : type === TensorType.UINT8 ? 0 : -32768;
}

/** Max of channel c, starting from the type's lowest value, clamped to the activation range. */
export const maxPoolChannel: ChannelPool = (d, input, temp, b, c) => {
  const { inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterHeight, filterWidth } = d;
  const initial = lowestOf(d.type);
  const float = d.type === TensorType.FLOAT32;
  const lo = float ? d.actMinF : d.actMin;
  const hi = float ? d.actMaxF : d.actMax;
  let q = 0;
  for (let oy = 0; oy < outHeight; oy++) {
    const inY0 = oy * strideHeight - d.padding.height;
    const fyStart = inY0 < 0 ? -inY0 : 0;
    const fyEnd = Math.min(filterHeight, inHeight - inY0);
    for (let ox = 0; ox < outWidth; ox++) {
      const inX0 = ox * strideWidth - d.padding.width;
      const fxStart = inX0 < 0 ? -inX0 : 0;
      const fxEnd = Math.min(filterWidth, inWidth - inX0);
      let max = initial;
      for (let fy = fyStart; fy < fyEnd; fy++) {
        let p = ((b * inHeight + inY0 + fy) * inWidth + inX0 + fxStart) * depth + c;
        for (let fx = fxStart; fx < fxEnd; fx++, p += depth) {
          const v = input[p]!;
          if (v > max) max = v;
        }
      }
      temp[q++] = max < lo ? lo : max > hi ? hi : max;
    }
  }
};

/** Float32 average of channel c. */
export const averagePoolChannelFloat: ChannelPool = (d, input, temp, b, c) => {
  const { inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterHeight, filterWidth } = d;
  const lo = d.actMinF;
  const hi = d.actMaxF;
  let q = 0;
  for (let oy = 0; oy < outHeight; oy++) {
    const inY0 = oy * strideHeight - d.padding.height;
    const fyStart = inY0 < 0 ? -inY0 : 0;
    const fyEnd = Math.min(filterHeight, inHeight - inY0);
    for (let ox = 0; ox < outWidth; ox++) {
      const inX0 = ox * strideWidth - d.padding.width;
      const fxStart = inX0 < 0 ? -inX0 : 0;
      const fxEnd = Math.min(filterWidth, inWidth - inX0);
      const count = (fyEnd - fyStart) * (fxEnd - fxStart);
      let total = 0;
      for (let fy = fyStart; fy < fyEnd; fy++) {
        let p = ((b * inHeight + inY0 + fy) * inWidth + inX0 + fxStart) * depth + c;
        for (let fx = fxStart; fx < fxEnd; fx++, p += depth) total = Math.fround(total + input[p]!);
      }
      const average = Math.fround(total / count);
      temp[q++] = average < lo ? lo : average > hi ? hi : average;
    }
  }
};

/** Integer average of channel c (round half away from zero, C truncating division). */
export const averagePoolChannelInt: ChannelPool = (d, input, temp, b, c) => {
  const { inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterHeight, filterWidth } = d;
  const lo = d.actMin;
  const hi = d.actMax;
  let q = 0;
  for (let oy = 0; oy < outHeight; oy++) {
    const inY0 = oy * strideHeight - d.padding.height;
    const fyStart = inY0 < 0 ? -inY0 : 0;
    const fyEnd = Math.min(filterHeight, inHeight - inY0);
    for (let ox = 0; ox < outWidth; ox++) {
      const inX0 = ox * strideWidth - d.padding.width;
      const fxStart = inX0 < 0 ? -inX0 : 0;
      const fxEnd = Math.min(filterWidth, inWidth - inX0);
      const count = (fyEnd - fyStart) * (fxEnd - fxStart);
      const half = count >> 1;
      let acc = 0;
      for (let fy = fyStart; fy < fyEnd; fy++) {
        let p = ((b * inHeight + inY0 + fy) * inWidth + inX0 + fxStart) * depth + c;
        for (let fx = fxStart; fx < fxEnd; fx++, p += depth) acc = (acc + input[p]!) | 0;
      }
      acc = acc > 0 ? ((acc + half) / count) | 0 : ((acc - half) / count) | 0;
      temp[q++] = acc < lo ? lo : acc > hi ? hi : acc;
    }
  }
};

const IN_PLACE_TYPES = new Set<TensorType>([TensorType.FLOAT32, TensorType.INT8, TensorType.INT16, TensorType.UINT8]);

/** The pooling kernels' in-place variant: same type and channels, output no larger; one output channel of scratch. */
export function poolInPlaceVariant(context: TfLiteContext, node: Node): InPlaceVariant | null {
  if (node.inputs.length !== 1 || node.outputs.length !== 1 || node.inputs[0]! < 0 || node.outputs[0]! < 0) return null;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== output.type || !IN_PLACE_TYPES.has(input.type) || input.dims.length !== 4 || output.dims.length !== 4) return null;
  if (input.dims[3] !== output.dims[3] || output.byteLength > input.byteLength) return null;
  return { input: 0, scratchBytes: output.dims[1]! * output.dims[2]! * (elementSize(output.type) ?? 1) };
}

/** Requests the variant's scratch buffer (after prepare). */
export function usePoolInPlaceVariant(context: TfLiteContext, node: Node): void {
  const v = poolInPlaceVariant(context, node);
  if (!v) throw new Error('the pooling in-place variant was granted to a node that does not declare it');
  opData<PoolingOpData>('POOL_2D', node).inPlaceScratch = context.requestScratchBufferInArena(v.scratchBytes);
}

/** The scratch buffer as a typed array of the pooling's element type. */
export function poolScratch(context: TfLiteContext, d: PoolingOpData): NumberArray {
  const s = context.getScratchBuffer(d.inPlaceScratch);
  switch (d.type) {
    case TensorType.FLOAT32:
      return s.f32 as unknown as NumberArray;
    case TensorType.INT8:
      return s.i8 as unknown as NumberArray;
    case TensorType.INT16:
      return s.i16 as unknown as NumberArray;
    default:
      return s.u8 as unknown as NumberArray;
  }
}
