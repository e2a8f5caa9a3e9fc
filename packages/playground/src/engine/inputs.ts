/**
 * What a run is fed: seeded random inputs (the conformance suite's splitmix64 stream, as `micrort run`
 * draws them: seed 1 reproduces a conformance model's case0 inputs), or, for an image-shaped input, a
 * picture already resized to the tensor's height and width, normalized and quantized to the tensor.
 */
import { SplitMix64, fillRandom } from '@micrort/app-kit';
import { TensorType, type Tensor } from '@micrort/core';

/** Where an image input's pixels go. */
export interface ImageLayout {
  layout: 'nhwc' | 'nchw';
  height: number;
  width: number;
  /** 1 (grayscale) or 3 (RGB). */
  channels: 1 | 3;
}

/**
 * How 0..255 pixel values become the tensor's real values: the model's normalization from its TFLite
 * metadata ((p − mean) / std per channel), the quantized tensor's whole integer range, or a fixed range.
 */
export type PixelRange = 'metadata' | 'tensor' | '0..1' | '-1..1' | '0..255';

/** TFLite metadata's NormalizationOptions: (x − mean) / std per channel (one value: every channel). */
export interface Normalization {
  mean: number[];
  std: number[];
}

/** Pixels of an image already resized to the tensor's width × height, RGBA row-major (canvas ImageData). */
export interface ImagePixels {
  width: number;
  height: number;
  rgba: Uint8Array | Uint8ClampedArray;
}

const IMAGE_TYPES = new Set<number>([TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8, TensorType.INT16]);

/**
 * The image layout of a tensor shape, or null when it is not image-shaped: 4-D, batch 1, 1 or 3
 * channels last (NHWC) or, failing that, first (NCHW), of type float32, int8, uint8 or int16.
 */
export function imageLayout(type: number, shape: readonly number[]): ImageLayout | null {
  if (shape.length !== 4 || shape[0] !== 1 || !IMAGE_TYPES.has(type)) return null;
  const [, a, b, c] = shape as [number, number, number, number];
  if ((c === 1 || c === 3) && a > 1 && b > 1) return { layout: 'nhwc', height: a, width: b, channels: c };
  if ((a === 1 || a === 3) && b > 1 && c > 1) return { layout: 'nchw', height: b, width: c, channels: a };
  return null;
}

/** round half away from zero (TFLite's std::round). */
function roundAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * The default pixel range for an input: the metadata's normalization when the model gives one, else the
 * whole integer range for a quantized input and 0..1 for a float one.
 */
export function defaultPixelRange(type: string, normalization: Normalization | null): PixelRange {
  if (normalization) return 'metadata';
  return type === 'float32' ? '0..1' : 'tensor';
}

/**
 * Writes `pixels` into `tensor` (image-shaped, see {@link imageLayout}). With range `tensor` (quantized
 * tensors) pixel p maps linearly onto the integer range: q = qmin + p × (qmax − qmin) / 255, so an int8
 * input gets p − 128 (TFLM's person-detection example) and a uint8 input p. Other ranges give a real
 * value r (p/255, p/127.5 − 1, p, or (p − mean[c]) / std[c] with the metadata's normalization), written
 * as is to a float tensor and quantized as q = round(r / scale) + zeroPoint, clamped, to the others.
 * Grayscale tensors take the luma (0.299 R + 0.587 G + 0.114 B).
 */
export function writeImage(tensor: Tensor, pixels: ImagePixels, range: PixelRange, normalization?: Normalization | null): void {
  const shape = Array.from(tensor.dims);
  const lay = imageLayout(tensor.type, shape);
  if (!lay) throw new RangeError(`input ${tensor.name} (${shape.join('x')}) is not image-shaped`);
  if (pixels.width !== lay.width || pixels.height !== lay.height)
    throw new RangeError(`the image is ${pixels.width}x${pixels.height}, input ${tensor.name} needs ${lay.width}x${lay.height}`);
  const { height: H, width: W, channels: C } = lay;
  const d = tensor.data as Float32Array | Int8Array | Uint8Array | Int16Array;
  const isFloat = tensor.type === TensorType.FLOAT32;
  const [qmin, qmax] =
    tensor.type === TensorType.INT8
      ? [-128, 127]
      : tensor.type === TensorType.UINT8
        ? [0, 255]
        : tensor.type === TensorType.INT16
          ? [-32768, 32767]
          : [0, 0];
  const scale = tensor.params.scale;
  const zp = tensor.params.zeroPoint;
  if (!isFloat && range !== 'tensor' && !(scale > 0))
    throw new RangeError(`input ${tensor.name} is ${tensor.type} without a scale: use the tensor range`);
  if (range === 'metadata' && !normalization)
    throw new RangeError(`the model gives no normalization for input ${tensor.name}: pick a pixel range`);
  const per = (list: number[], c: number) => list[list.length === 1 ? 0 : c] ?? list[0] ?? 0;
  const real = (p: number, c: number) =>
    range === 'metadata'
      ? (p - per(normalization!.mean, c)) / (per(normalization!.std, c) || 1)
      : range === '-1..1'
        ? p / 127.5 - 1
        : range === '0..255'
          ? p
          : p / 255;
  const value = (p: number, c: number): number => {
    if (isFloat) return range === 'tensor' ? p / 255 : real(p, c);
    const q = range === 'tensor' ? qmin + roundAway((p * (qmax - qmin)) / 255) : roundAway(real(p, c) / scale) + zp;
    return q < qmin ? qmin : q > qmax ? qmax : q;
  };
  const px = pixels.rgba;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const s = (y * W + x) * 4;
      const rgb = C === 3 ? [px[s]!, px[s + 1]!, px[s + 2]!] : [0.299 * px[s]! + 0.587 * px[s + 1]! + 0.114 * px[s + 2]!];
      for (let c = 0; c < C; c++) {
        const at = lay.layout === 'nhwc' ? (y * W + x) * C + c : (c * H + y) * W + x;
        d[at] = value(rgb[c]!, c);
      }
    }
}

/** Fills every input of the interpreter from one splitmix64 stream seeded with `seed`, input 0 first. */
export function fillSeeded(inputs: readonly Tensor[], seed: number): void {
  const rng = new SplitMix64(seed);
  for (const t of inputs) fillRandom(t, rng);
}
