import { describe, expect, it } from 'vitest';
import { MirrorPadMode, TensorType } from '@micrort/core';
import { MIRROR_PAD, mirrorInputIndex } from './mirror-pad.js';
import { constI32, constI64, harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function mirror(type: TensorType, shape: number[], data: number[], pads: number[], mode: MirrorPadMode, outShape: number[]) {
  return harness(MIRROR_PAD, [spec(type, shape, data), constI32(pads, [shape.length, 2]), spec(type, outShape)], 2, { mode });
}

describe('MIRROR_PAD', () => {
  it('TFLite PadBothSides_Symmetric and PadBothSides_Reflect on [[1,2,3],[4,5,6]]', () => {
    const sym = mirror(TensorType.FLOAT32, [2, 3], iota(6, 1), [1, 1, 2, 2], MirrorPadMode.SYMMETRIC, [4, 7]).invoke();
    expect(sym.outputArray()).toEqual([2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5]);
    const ref = mirror(TensorType.INT8, [2, 3], iota(6, 1), [1, 1, 2, 2], MirrorPadMode.REFLECT, [4, 7]).invoke();
    expect(ref.outputArray()).toEqual([6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1]);
  });

  it('TFLite PadOneSide_right_Reflect, int64 paddings, uint8 elements', () => {
    const h = harness(
      MIRROR_PAD,
      [spec(TensorType.UINT8, [2, 3], iota(6, 1)), constI64([0, 1, 0, 1], [2, 2]), spec(TensorType.UINT8, [3, 4])],
      2,
      { mode: MirrorPadMode.REFLECT },
    ).invoke();
    expect(h.outputArray()).toEqual([1, 2, 3, 2, 4, 5, 6, 5, 1, 2, 3, 2]);
  });

  it("allocates TFLM's 20-byte OpData and requests its two rank-sized scratch buffers", () => {
    const h = mirror(TensorType.FLOAT32, [1, 2, 2], iota(4), [0, 0, 1, 1, 0, 0], MirrorPadMode.SYMMETRIC, [1, 4, 2]).prepare();
    expect(h.persistentBytes).toBe(32);
    expect(h.scratchSizes).toEqual([12, 12]);
  });

  it("follows TFLM's GetInputDimension (mirror index per output position)", () => {
    // REFLECT, left 2, size 3: -2 -> 2, -1 -> 1, then 0 1 2, then right 1 -> 1
    expect([0, 1, 2, 3, 4, 5].map((o) => mirrorInputIndex(o, 2, 3, 1))).toEqual([2, 1, 0, 1, 2, 1]);
    // SYMMETRIC, left 3, size 3: 2 1 0 | 0 1 2 | 2
    expect([0, 1, 2, 3, 4, 5, 6].map((o) => mirrorInputIndex(o, 3, 3, 0))).toEqual([2, 1, 0, 0, 1, 2, 2]);
  });

  it("pads TFLite's int16; refuses complex128, paddings too large for the mode, bad shapes", () => {
    expect(mirror(TensorType.INT16, [2], [1, -2], [1, 1], MirrorPadMode.SYMMETRIC, [4]).prepare().invoke().outputArray()).toEqual([
      1, 1, -2, -2,
    ]);
    expect(prepareError(mirror(TensorType.COMPLEX128, [1], [1, 2], [0, 0], MirrorPadMode.SYMMETRIC, [1])).message).toMatch(
      /type complex128 \(tensor \d+\); supported:/,
    );
    expect(prepareError(mirror(TensorType.FLOAT32, [2], [1, 2], [2, 0], MirrorPadMode.REFLECT, [4])).message).toMatch(
      /paddings \[2, 0\] of dimension 0 are too large for its size 2 in REFLECT mode/,
    );
    expect(prepareError(mirror(TensorType.FLOAT32, [2], [1, 2], [1, 1], MirrorPadMode.REFLECT, [3])).message).toMatch(
      /output dimension 0 is 3, expected 2 \+ 1 \+ 1 = 4/,
    );
    const badPads = harness(
      MIRROR_PAD,
      [spec(TensorType.FLOAT32, [2], [1, 2]), constI32([1, 1, 0, 0], [2, 2]), spec(TensorType.FLOAT32, [4])],
      2,
      { mode: MirrorPadMode.REFLECT },
    );
    expect(prepareError(badPads).message).toMatch(/paddings has shape \[2, 2\], expected \[1, 2\]/);
  });
});
