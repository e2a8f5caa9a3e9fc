/**
 * Images into input tensors: pixels from whatever the caller has (`ImageData`, an `ImageBitmap`, an
 * `<img>`, a canvas, a video frame, or any `{ width, height, data }` of RGBA bytes), resized to the
 * tensor with a bilinear filter of its own (half-pixel centres, so the result is the same in Node and
 * every browser), normalized ((p − mean) / std per channel, the TFLite metadata's NormalizationOptions)
 * and quantized to the tensor's type. The playground feeds its image inputs through the same code.
 */
import { InputError, TensorType, type Tensor } from '@micrort/core';

/** Where an image input's pixels go. */
export interface ImageLayout {
  layout: 'nhwc' | 'nchw';
  height: number;
  width: number;
  /** 1 (grayscale) or 3 (RGB). */
  channels: 1 | 3;
}

/** RGBA pixels, row-major (what `ImageData` holds). */
export interface Pixels {
  width: number;
  height: number;
  data: ArrayLike<number>;
}

/** Anything a canvas can draw: `HTMLImageElement`, `ImageBitmap`, `HTMLCanvasElement`, `OffscreenCanvas`, `HTMLVideoElement`, `VideoFrame`. */
export type DrawableImage =
  { readonly width: number; readonly height: number } | { readonly naturalWidth: number } | { readonly videoWidth: number };

/** An image input: pixels, or something a canvas can draw. */
export type ImageSource = Pixels | DrawableImage;

/**
 * How pixel values 0..255 become the tensor's real values: (p − mean) / std per channel (one value:
 * every channel). `{ mean: [0], std: [255] }` is 0..1, `{ mean: [127.5], std: [127.5] }` −1..1.
 * `'tensor'` (quantized tensors only): the pixel spans the type's whole integer range (int8 p − 128,
 * uint8 p), as TFLM's image examples feed them.
 */
export type PixelNormalization = { mean: readonly number[]; std: readonly number[] } | 'tensor';

const IMAGE_TYPES = new Set<number>([TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8, TensorType.INT16]);

/**
 * The image layout of a tensor, or null when it is not image-shaped: 4-D, batch 1, 1 or 3 channels last
 * (NHWC) or, failing that, first (NCHW), of type float32, int8, uint8 or int16.
 */
export function imageLayout(type: number, shape: readonly number[]): ImageLayout | null {
  if (shape.length !== 4 || shape[0] !== 1 || !IMAGE_TYPES.has(type)) return null;
  const [, a, b, c] = shape as [number, number, number, number];
  if ((c === 1 || c === 3) && a > 1 && b > 1) return { layout: 'nhwc', height: a, width: b, channels: c };
  if ((a === 1 || a === 3) && b > 1 && c > 1) return { layout: 'nchw', height: b, width: c, channels: a };
  return null;
}

/** Whether `x` is an image the model can take (pixels or a drawable), not a typed array or a list of numbers. */
export function isImageSource(x: unknown): x is ImageSource {
  if (!x || typeof x !== 'object' || ArrayBuffer.isView(x) || Array.isArray(x)) return false;
  const o = x as Record<string, unknown>;
  return (typeof o['width'] === 'number' && typeof o['height'] === 'number') || 'naturalWidth' in o || 'videoWidth' in o;
}

function isPixels(x: ImageSource): x is Pixels {
  const d = (x as Partial<Pixels>).data;
  return d !== undefined && typeof (d as ArrayLike<number>).length === 'number';
}

/** The RGBA pixels of `image` at its own size: `ImageData`-like objects as they are, drawables through a canvas. */
export function readPixels(image: ImageSource): Pixels {
  if (isPixels(image)) {
    if (image.data.length !== image.width * image.height * 4)
      throw new InputError(
        `an image of ${image.width}x${image.height} needs ${image.width * image.height * 4} RGBA bytes, got ${image.data.length}`,
      );
    return image;
  }
  const o = image as unknown as Record<string, number>;
  const width = o['naturalWidth'] || o['videoWidth'] || o['displayWidth'] || o['width'] || 0;
  const height = o['naturalHeight'] || o['videoHeight'] || o['displayHeight'] || o['height'] || 0;
  if (!(width > 0 && height > 0)) throw new InputError(`the image has no pixels yet (${width}x${height}): wait until it has loaded`);
  type Canvas2D = { drawImage(i: unknown, x: number, y: number): void; getImageData(x: number, y: number, w: number, h: number): Pixels };
  let ctx: Canvas2D | null = null;
  const g = globalThis as unknown as {
    OffscreenCanvas?: new (w: number, h: number) => { getContext(k: '2d', o?: object): Canvas2D | null };
    document?: { createElement(t: 'canvas'): { width: number; height: number; getContext(k: '2d', o?: object): Canvas2D | null } };
  };
  if (g.OffscreenCanvas) ctx = new g.OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  else if (g.document) {
    const c = g.document.createElement('canvas');
    c.width = width;
    c.height = height;
    ctx = c.getContext('2d', { willReadFrequently: true });
  }
  if (!ctx)
    throw new InputError(
      'no canvas to draw the image on here (Node has none): pass its pixels as { width, height, data } (RGBA bytes, as ImageData holds them)',
    );
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, width, height);
}

/**
 * `src` resized to `width` × `height`, bilinear with half-pixel centres (edge pixels clamped), rounded
 * to bytes; the same pixels when the size already matches.
 */
export function resizePixels(src: Pixels, width: number, height: number): Pixels {
  if (src.width === width && src.height === height) return src;
  const out = new Uint8ClampedArray(width * height * 4);
  const sx = src.width / width;
  const sy = src.height / height;
  const d = src.data;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), src.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, src.height - 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), src.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, src.width - 1);
      const wx = fx - x0;
      for (let c = 0; c < 4; c++) {
        const top = d[(y0 * src.width + x0) * 4 + c]! * (1 - wx) + d[(y0 * src.width + x1) * 4 + c]! * wx;
        const bottom = d[(y1 * src.width + x0) * 4 + c]! * (1 - wx) + d[(y1 * src.width + x1) * 4 + c]! * wx;
        out[(y * width + x) * 4 + c] = top * (1 - wy) + bottom * wy; // Uint8ClampedArray rounds half to even and clamps
      }
    }
  }
  return { width, height, data: out };
}

/** Rounds half away from zero (TFLite's std::round). */
function roundAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

const INTEGER_RANGE: Partial<Record<number, [number, number]>> = {
  [TensorType.INT8]: [-128, 127],
  [TensorType.UINT8]: [0, 255],
  [TensorType.INT16]: [-32768, 32767],
};

/**
 * Writes `pixels` (already the tensor's width × height) into an image-shaped `tensor`: each pixel p of
 * channel c becomes the real value (p − mean[c]) / std[c], written as is to a float32 tensor and
 * quantized to the others, q = round(r / scale) + zeroPoint, clamped; with `'tensor'`, a quantized
 * tensor gets q = qmin + p × (qmax − qmin) / 255. Grayscale tensors take the luma
 * (0.299 R + 0.587 G + 0.114 B).
 */
export function writePixels(tensor: Tensor, pixels: Pixels, normalization: PixelNormalization): void {
  const shape = Array.from(tensor.dims);
  const lay = imageLayout(tensor.type, shape);
  if (!lay) throw new InputError(`input ${tensor.name} (${shape.join('x')}) is not an image (4-D, batch 1, 1 or 3 channels)`);
  if (pixels.width !== lay.width || pixels.height !== lay.height)
    throw new InputError(`the image is ${pixels.width}x${pixels.height}, input ${tensor.name} needs ${lay.width}x${lay.height}`);
  const { height: H, width: W, channels: C } = lay;
  const out = tensor.data as Float32Array | Int8Array | Uint8Array | Int16Array;
  const isFloat = tensor.type === TensorType.FLOAT32;
  const [qmin, qmax] = INTEGER_RANGE[tensor.type] ?? [0, 0];
  const scale = tensor.params.scale;
  const zp = tensor.params.zeroPoint;
  if (normalization === 'tensor' && isFloat) throw new InputError(`input ${tensor.name} is float32: give a mean and std, not 'tensor'`);
  if (normalization !== 'tensor' && !isFloat && !(scale > 0))
    throw new InputError(
      `input ${tensor.name} is ${tensor.type === TensorType.INT8 ? 'int8' : 'integer'} without a scale: normalize with 'tensor'`,
    );
  const per = (list: readonly number[], c: number) => list[list.length === 1 ? 0 : c] ?? list[0] ?? 0;
  const value = (p: number, c: number): number => {
    if (normalization === 'tensor') return qmin + roundAway((p * (qmax - qmin)) / 255);
    const r = (p - per(normalization.mean, c)) / (per(normalization.std, c) || 1);
    if (isFloat) return r;
    const q = roundAway(r / scale) + zp;
    return q < qmin ? qmin : q > qmax ? qmax : q;
  };
  const px = pixels.data;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const s = (y * W + x) * 4;
      for (let c = 0; c < C; c++) {
        const p = C === 3 ? px[s + c]! : 0.299 * px[s]! + 0.587 * px[s + 1]! + 0.114 * px[s + 2]!;
        out[lay.layout === 'nhwc' ? (y * W + x) * C + c : (c * H + y) * W + x] = value(p, c);
      }
    }
}
