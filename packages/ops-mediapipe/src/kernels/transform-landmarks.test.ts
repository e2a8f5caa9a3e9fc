import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { TRANSFORM_LANDMARKS_V1, TRANSFORM_LANDMARKS_V2 } from './transform-landmarks.js';

const F = TensorType.FLOAT32;
/** x' = 2x + 10, y' = 3y + 20 */
const SCALE_SHIFT = [2, 0, 0, 10, 0, 3, 0, 20, 0, 0, 1, 0, 0, 0, 0, 1];
/** 90°: x' = -y, y' = x */
const ROTATE_90 = [0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function harness(v: 1 | 2, landmarks: number[], shape: number[], m: number[], options: Uint8Array | null = null) {
  return new KernelHarness({
    registration: v === 1 ? TRANSFORM_LANDMARKS_V1 : TRANSFORM_LANDMARKS_V2,
    tensors: [
      { type: F, shape, data: landmarks },
      { type: F, shape: [1, 4, 4], data: m },
      { type: F, shape },
    ],
    inputs: [0, 1],
    outputs: [2],
    customInitialData: options,
  });
}

describe('TransformLandmarks', () => {
  it('v2 transforms x and y of 3-D landmarks and copies z (hand-computed)', () => {
    const h = harness(2, [1, 2, 3, 4, 5, 6], [1, 2, 3], SCALE_SHIFT).invoke();
    expect(h.outputArray()).toEqual([12, 26, 3, 18, 35, 6]);
  });

  it('v2 with 2-D landmarks', () => {
    const h = harness(2, [1, 2, -3, 4], [1, 2, 2], ROTATE_90).invoke();
    expect(h.outputArray()).toEqual([-2, 1, -4, -3]);
  });

  it('v1 walks [1, H, W, C] landmarks; scale multiplies the translation; dimensions 2 or 3', () => {
    // 1x1x2x6: four 3-D landmarks (default dimensions 3)
    const lm = [1, 1, 7, 2, 2, 8, 3, 3, 9, 4, 4, 10];
    expect(harness(1, lm, [1, 1, 2, 6], SCALE_SHIFT).invoke().outputArray()).toEqual([12, 23, 7, 14, 26, 8, 16, 29, 9, 18, 32, 10]);
    // scale 0.5 halves the translation (10 → 5, 20 → 10)
    expect(
      harness(1, lm, [1, 1, 2, 6], SCALE_SHIFT, flexEncode({ scale: 0.5 }))
        .invoke()
        .outputArray(),
    ).toEqual([7, 13, 7, 9, 16, 8, 11, 19, 9, 13, 22, 10]);
    // dimensions 2: six 2-D landmarks over the same 12 values
    expect(
      harness(1, lm, [1, 1, 2, 6], ROTATE_90, flexEncode({ dimensions: 2 }))
        .invoke()
        .outputArray(),
    ).toEqual([-1, 1, -2, 7, -8, 2, -3, 3, -4, 9, -10, 4]);
  });

  it('prepare rejects what MediaPipe rejects or leaves undefined', () => {
    expect(() => harness(2, [1, 2, 3, 4], [1, 1, 4], SCALE_SHIFT).prepare()).toThrow(/landmarks have 4 values each .* must be 2 or 3/);
    expect(() => harness(1, [1, 2, 3, 4], [1, 1, 1, 4], SCALE_SHIFT).prepare()).toThrow(/4 channels, not a multiple of dimensions 3/);
    expect(() => harness(1, [1, 2, 3], [1, 1, 1, 3], SCALE_SHIFT, flexEncode({ dimensions: 4 })).prepare()).toThrow(
      /option dimensions is 4, must be 2 or 3/,
    );
    expect(() => harness(1, [1, 2, 3], [1, 1, 1, 3], SCALE_SHIFT, flexEncode({ scale: 0 })).prepare()).toThrow(/option scale is 0/);
    expect(() => harness(1, [1, 2, 3], [1, 1, 1, 3], SCALE_SHIFT, flexEncode({ scale: 'big' })).prepare()).toThrow(
      /"scale" must be a number, found STRING/,
    );
    expect(() => harness(2, [1, 2, 3, 4, 5, 6], [2, 1, 3], SCALE_SHIFT).prepare()).toThrow(/must have batch 1/);
    const wrongOut = new KernelHarness({
      registration: TRANSFORM_LANDMARKS_V2,
      tensors: [
        { type: F, shape: [1, 2, 3] },
        { type: F, shape: [1, 4, 4] },
        { type: F, shape: [1, 3, 2] },
      ],
      inputs: [0, 1],
      outputs: [2],
    });
    expect(() => wrongOut.prepare()).toThrow(/output \(tensor 2\) has shape \[1, 3, 2\], expected \[1, 2, 3\]/);
  });
});
