/**
 * What a run is fed: seeded random inputs (the conformance suite's splitmix64 stream, as `micrort run`
 * draws them: seed 1 reproduces a conformance model's case0 inputs), or, for an image-shaped input, a
 * picture already resized to the tensor's height and width, normalized and quantized to the tensor.
 */
import { SplitMix64, fillRandom } from '@micrort/app-kit';
import { TensorType, type Tensor } from '@micrort/core';
import { writePixels, type PixelNormalization } from '@micrort/lite';

export { imageLayout, type ImageLayout } from '@micrort/lite';

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

/**
 * The default pixel range for an input: the metadata's normalization when the model gives one, else the
 * whole integer range for a quantized input and 0..1 for a float one.
 */
export function defaultPixelRange(type: string, normalization: Normalization | null): PixelRange {
  if (normalization) return 'metadata';
  return type === 'float32' ? '0..1' : 'tensor';
}

/** The ranges as @micrort/lite's normalizations ((p − mean) / std). */
const RANGES: Record<'0..1' | '-1..1' | '0..255', PixelNormalization> = {
  '0..1': { mean: [0], std: [255] },
  '-1..1': { mean: [127.5], std: [127.5] },
  '0..255': { mean: [0], std: [1] },
};

/**
 * Writes `pixels` into `tensor` (image-shaped, see {@link imageLayout}) with @micrort/lite's
 * `writePixels` — what a program using the high-level API gets for the same image. With range
 * `tensor` (quantized tensors) pixel p maps linearly onto the integer range: q = qmin + p × (qmax −
 * qmin) / 255, so an int8 input gets p − 128 (TFLM's person-detection example) and a uint8 input p
 * (a float tensor takes 0..1). Other ranges give a real value r ((p − mean) / std: p/255, (p − 127.5) /
 * 127.5, p, or the metadata's normalization), written as is to a float tensor and quantized as
 * q = round(r / scale) + zeroPoint, clamped, to the others. Grayscale tensors take the luma.
 */
export function writeImage(tensor: Tensor, pixels: ImagePixels, range: PixelRange, normalization?: Normalization | null): void {
  if (range === 'metadata' && !normalization)
    throw new RangeError(`the model gives no normalization for input ${tensor.name}: pick a pixel range`);
  const isFloat = tensor.type === TensorType.FLOAT32;
  const norm: PixelNormalization =
    range === 'metadata' ? normalization! : range === 'tensor' ? (isFloat ? RANGES['0..1'] : 'tensor') : RANGES[range];
  writePixels(tensor, { width: pixels.width, height: pixels.height, data: pixels.rgba }, norm);
}

/** Fills every input of the interpreter from one splitmix64 stream seeded with `seed`, input 0 first. */
export function fillSeeded(inputs: readonly Tensor[], seed: number): void {
  const rng = new SplitMix64(seed);
  for (const t of inputs) fillRandom(t, rng);
}
