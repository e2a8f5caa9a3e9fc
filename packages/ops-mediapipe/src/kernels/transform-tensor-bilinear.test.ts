import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { TRANSFORM_TENSOR_BILINEAR_V1, TRANSFORM_TENSOR_BILINEAR_V2 } from './transform-tensor-bilinear.js';

const F = TensorType.FLOAT32;
const IMAGE_2X2 = [0, 10, 20, 30];

/** A 4×4 row-major matrix whose first two rows are given. */
function matrix(row0: number[], row1: number[]): number[] {
  return [...row0, ...row1, 0, 0, 1, 0, 0, 0, 0, 1];
}

function harness(v: 1 | 2, image: number[], shape: number[], m: number[], outShape: number[], options: Uint8Array | null = null) {
  return new KernelHarness({
    registration: v === 1 ? TRANSFORM_TENSOR_BILINEAR_V1 : TRANSFORM_TENSOR_BILINEAR_V2,
    tensors: [
      { type: F, shape, data: image },
      { type: F, shape: [1, 4, 4], data: m },
      { type: F, shape: outShape },
    ],
    inputs: [0, 1],
    outputs: [2],
    customInitialData: options,
  });
}

describe('TransformTensorBilinear', () => {
  it('v1 samples output (x, y) at the matrix image of (x, y), bilinearly; the far edge reads 0 (hand-computed)', () => {
    const h = harness(
      1,
      IMAGE_2X2,
      [1, 2, 2, 1],
      matrix([0.5, 0, 0, 0], [0, 0.5, 0, 0]),
      [1, 3, 3, 1],
      flexEncode({ mode: 'bilinear', output_size: [3, 3] }),
    ).invoke();
    // (2, 1) samples (1, 0.5): upper = 1·10 + 0·0, lower = 1·30 + 0·0, blended 20; (2, 2) samples (1, 1) = 30
    expect(h.outputArray()).toEqual([0, 5, 10, 10, 15, 20, 20, 25, 30]);
  });

  it('v2 moves to pixel centers (align corners); points outside the image give 0 (hand-computed)', () => {
    // x' = 0.5x + (0.25 - 0.5) = 0.5x - 0.25: x = 0 → -0.25 (outside), 1 → 0.25, 2 → 0.75, 3 → 1.25 (outside)
    const h = harness(
      2,
      IMAGE_2X2,
      [1, 2, 2, 1],
      matrix([0.5, 0, 0, 0], [0, 0.5, 0, 0]),
      [1, 4, 4, 1],
      flexEncode({ output_height: 4, output_width: 4 }),
    ).invoke();
    expect(h.outputArray()).toEqual([0, 0, 0, 0, 0, 7.5, 12.5, 0, 0, 17.5, 22.5, 0, 0, 0, 0, 0]);
  });

  it('identity matrix copies the image in both versions; channels are kept apart', () => {
    const image = Array.from({ length: 3 * 4 * 2 }, (_, i) => i * 1.5 - 7);
    const identity = matrix([1, 0, 0, 0], [0, 1, 0, 0]);
    expect(harness(1, image, [1, 3, 4, 2], identity, [1, 3, 4, 2]).invoke().outputArray()).toEqual(image);
    expect(harness(2, image, [1, 3, 4, 2], identity, [1, 3, 4, 2]).invoke().outputArray()).toEqual(image);
  });

  it('a translated crop (v1): shifts by whole pixels and blends half pixels per channel', () => {
    // image 1x3x1x2 (a column); x ignored, y' = y + 0.5
    const image = [0, 100, 10, 200, 20, 300];
    const h = harness(1, image, [1, 3, 1, 2], matrix([1, 0, 0, 0], [0, 1, 0, 0.5]), [1, 2, 1, 2]).invoke();
    expect(h.outputArray()).toEqual([5, 150, 15, 250]);
  });

  it('prepare checks options against the output, batch, channels and the matrix size', () => {
    const m = matrix([1, 0, 0, 0], [0, 1, 0, 0]);
    expect(() => harness(1, IMAGE_2X2, [1, 2, 2, 1], m, [1, 3, 3, 1], flexEncode({ mode: 'nearest' })).prepare()).toThrow(
      /option mode is "nearest"; only "bilinear"/,
    );
    expect(() => harness(1, IMAGE_2X2, [1, 2, 2, 1], m, [1, 3, 3, 1], flexEncode({ output_size: [3, 4] })).prepare()).toThrow(
      /option output_size is 3x4 but the output is 3x3/,
    );
    expect(() => harness(2, IMAGE_2X2, [1, 2, 2, 1], m, [1, 3, 3, 1], flexEncode({ output_height: 2, output_width: 3 })).prepare()).toThrow(
      /output_height x output_width is 2x3 but the output is 3x3/,
    );
    expect(() => harness(2, IMAGE_2X2, [1, 2, 2, 1], m, [1, 3, 3, 2]).prepare()).toThrow(/expected \[1, height, width, 1\]/);
    expect(() => harness(2, [...IMAGE_2X2, ...IMAGE_2X2], [2, 2, 2, 1], m, [1, 3, 3, 1]).prepare()).toThrow(/must have batch 1/);
    const small = new KernelHarness({
      registration: TRANSFORM_TENSOR_BILINEAR_V2,
      tensors: [
        { type: F, shape: [1, 2, 2, 1] },
        { type: F, shape: [2, 4] },
        { type: F, shape: [1, 2, 2, 1] },
      ],
      inputs: [0, 1],
      outputs: [2],
    });
    expect(() => small.prepare()).toThrow(/matrix \(tensor 1\) has 8 elements \(shape \[2, 4\]\), expected 16/);
    expect(() => harness(2, IMAGE_2X2, [1, 2, 2, 1], m, [1, 3, 3, 1], Uint8Array.of(1, 2, 3)).prepare()).toThrow(
      /malformed|custom options/,
    );
  });
});
