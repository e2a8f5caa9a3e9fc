import { describe, expect, it } from 'vitest';
import { Tensor, TensorType, makeTypedView, numElements } from '@micrort/core';
import { imageLayout, writeImage } from './inputs.js';

function tensor(type: TensorType, shape: number[], scale = 0, zeroPoint = 0): Tensor {
  const t = new Tensor(
    0,
    'in',
    type,
    Int32Array.from(shape),
    scale ? { scale: Float32Array.of(scale), zeroPoint: Int32Array.of(zeroPoint), quantizedDimension: 0 } : null,
    false,
  );
  const size = { [TensorType.FLOAT32]: 4, [TensorType.INT8]: 1, [TensorType.UINT8]: 1, [TensorType.INT16]: 2 }[type as number] ?? 1;
  const buf = new ArrayBuffer(numElements(t.dims) * size);
  t.data = makeTypedView(type, buf, 0, numElements(t.dims));
  t.bytes = new Uint8Array(buf);
  return t;
}

/** A 2x2 RGBA picture: red, green, blue, white. */
const PIXELS = { width: 2, height: 2, rgba: Uint8Array.of(255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255) };

describe('image inputs', () => {
  it('recognises NHWC and NCHW image tensors, and nothing else', () => {
    expect(imageLayout(TensorType.INT8, [1, 96, 96, 1])).toEqual({ layout: 'nhwc', height: 96, width: 96, channels: 1 });
    expect(imageLayout(TensorType.INT8, [1, 3, 224, 224])).toEqual({ layout: 'nchw', height: 224, width: 224, channels: 3 });
    expect(imageLayout(TensorType.FLOAT32, [1, 16])).toBeNull();
    expect(imageLayout(TensorType.FLOAT32, [2, 8, 8, 3])).toBeNull();
    expect(imageLayout(TensorType.INT32, [1, 8, 8, 3])).toBeNull();
    expect(imageLayout(TensorType.FLOAT32, [1, 8, 8, 4])).toBeNull();
  });

  it("int8 with the tensor's range gets pixel − 128, uint8 the pixel (NHWC)", () => {
    const t = tensor(TensorType.INT8, [1, 2, 2, 3], 1 / 255, -128);
    writeImage(t, PIXELS, 'tensor');
    expect(Array.from(t.data as Int8Array)).toEqual([127, -128, -128, -128, 127, -128, -128, -128, 127, 127, 127, 127]);
    const u = tensor(TensorType.UINT8, [1, 2, 2, 3], 1 / 255, 0);
    writeImage(u, PIXELS, 'tensor');
    expect(Array.from(u.data as Uint8Array)).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]);
  });

  it('a real range is quantized with the scale and zero point, clamped (NCHW)', () => {
    const t = tensor(TensorType.INT8, [1, 3, 2, 2], 1 / 128, 0); // real -1..1
    writeImage(t, PIXELS, '-1..1');
    // channel-major: R plane, G plane, B plane; 255 → 1.0 → 128 → clamped 127, 0 → -1 → -128
    expect(Array.from(t.data as Int8Array)).toEqual([127, -128, -128, 127, -128, 127, -128, 127, -128, -128, 127, 127]);
  });

  it('float32 inputs take the real value; grayscale takes the luma', () => {
    const f = tensor(TensorType.FLOAT32, [1, 2, 2, 1]);
    writeImage(f, PIXELS, '0..1');
    const luma = [0.299 * 255, 0.587 * 255, 0.114 * 255, 255].map((v) => Math.fround(v / 255));
    expect(Array.from(f.data as Float32Array)).toEqual(luma);
  });

  it('refuses an image of the wrong size', () => {
    const t = tensor(TensorType.INT8, [1, 4, 4, 3], 1, 0);
    expect(() => writeImage(t, PIXELS, 'tensor')).toThrow(/2x2.*4x4/);
  });
});

describe("the metadata's normalization", () => {
  it('(p − mean) / std per channel, written to a float input as is', () => {
    const f = tensor(TensorType.FLOAT32, [1, 2, 2, 3]);
    writeImage(f, PIXELS, 'metadata', { mean: [0, 127.5, 255], std: [255, 127.5, 1] });
    const want = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255].map((p, i) =>
      Math.fround([(x: number) => x / 255, (x: number) => x / 127.5 - 1, (x: number) => x - 255][i % 3]!(p)),
    );
    expect(Array.from(f.data as Float32Array)).toEqual(want);
  });

  it('one mean and std for every channel, then quantized (uint8, scale 1/128, zero point 128)', () => {
    const u = tensor(TensorType.UINT8, [1, 2, 2, 3], 1 / 128, 128);
    writeImage(u, PIXELS, 'metadata', { mean: [127.5], std: [127.5] });
    // 255 → 1.0 → 128 + 128 = 256 → clamped 255; 0 → -1 → 0
    expect(Array.from(u.data as Uint8Array)).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]);
    expect(() => writeImage(u, PIXELS, 'metadata', null)).toThrow(/gives no normalization/);
  });
});
