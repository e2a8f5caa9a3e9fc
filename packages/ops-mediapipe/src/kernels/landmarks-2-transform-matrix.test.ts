import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { builder as flexBuilder, encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { LANDMARKS_2_TRANSFORM_MATRIX_V1, LANDMARKS_2_TRANSFORM_MATRIX_V2 } from './landmarks-2-transform-matrix.js';

const F = TensorType.FLOAT32;

/** Landmarks as flat (x, y, z) triples. */
const LANDMARKS = [
  0,
  0,
  0, // 0: left rotation point
  1,
  0,
  0, // 1: right rotation point (horizontal)
  10,
  20,
  5, // 2
  30,
  60,
  5, // 3
  0,
  1,
  0, // 4: right rotation point (vertical)
  25,
  30,
  1, // 5: inside the box
];

function harness(v: 1 | 2, inputShape: number[], options: Uint8Array | null, data: number[] = LANDMARKS) {
  return new KernelHarness({
    registration: v === 1 ? LANDMARKS_2_TRANSFORM_MATRIX_V1 : LANDMARKS_2_TRANSFORM_MATRIX_V2,
    tensors: [
      { type: F, shape: inputShape, data },
      { type: F, shape: [1, 4, 4] },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: options,
  });
}

/** v2 options with typed int vectors, as MediaPipe's converter writes them (subset_idxs: a VECTOR_INT). */
function v2Options(o: {
  subset: number[];
  left: number;
  right: number;
  target?: number;
  outW: number;
  outH: number;
  scaleX?: number;
  scaleY?: number;
}): Uint8Array {
  return flexEncode({
    subset_idxs: o.subset,
    left_rotation_idx: o.left,
    right_rotation_idx: o.right,
    target_rotation_radians: o.target ?? 0,
    output_height: o.outH,
    output_width: o.outW,
    scale_x: o.scaleX ?? 1,
    scale_y: o.scaleY ?? 1,
  });
}

function expectClose(actual: number[], expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) =>
    expect(Math.abs(a - expected[i]!), `element ${i}: ${a} vs ${expected[i]}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(expected[i]!)),
  );
}

describe('Landmarks2TransformMatrix v2', () => {
  it('no rotation: shift(crop center) · scale(crop / output) · shift(-output / 2) (hand-computed)', () => {
    // subset box (10, 20)..(30, 60): center (20, 40), size 20x40; output 10x20 → scale 2, 2
    const h = harness(2, [1, 6, 3], v2Options({ subset: [2, 3, 5], left: 0, right: 1, outW: 10, outH: 20 })).invoke();
    expect(h.outputArray()).toEqual([2, 0, 0, 10, 0, 2, 0, 20, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('a vertical left→right direction rotates the crop by 90° (hand-computed within float tolerance)', () => {
    // rotation = 0 - atan2(1, 0) = -π/2; in that frame the box is 40 wide, 20 high, centered at (20, 40);
    // output 10x20 → scale (4, 1); t = shift(20, 40) · R(π/2) · S(4, 1) · shift(-5, -10)
    const h = harness(2, [1, 6, 3], v2Options({ subset: [2, 3], left: 0, right: 4, outW: 10, outH: 20 })).invoke();
    expectClose(h.outputArray(), [0, -1, 0, 30, 4, 0, 0, 20, 0, 0, 1, 0, 0, 0, 0, 1]);
    // the matrix maps the output corners onto the crop's corners in the input
    const m = h.outputArray();
    const apply = (x: number, y: number) => [m[0]! * x + m[1]! * y + m[3]!, m[4]! * x + m[5]! * y + m[7]!];
    expectClose(apply(0, 0), [30, 20]);
    expectClose(apply(10, 20), [10, 60]);
  });

  it('target_rotation_radians and scale_x/scale_y: a target of π/2 on a horizontal pair, crop enlarged 1.5x', () => {
    // rotation = π/2 - 0; frame rotation by π/2: (x, y) → (-y, x); box in that frame: x -60..-20, y 10..30
    // → size 40x20, center back in the input (20, 40); t = shift(20, 40) · R(-π/2) · S(1.5·40/8, 1.5·20/4) · shift(-4, -2)
    // (a float32 target: flatbuffers' JS encoder writes float32 values wrongly into the 8-byte slots a double would force)
    const h = harness(
      2,
      [1, 6, 3],
      v2Options({ subset: [2, 3], left: 0, right: 1, target: Math.fround(Math.PI / 2), outW: 8, outH: 4, scaleX: 1.5, scaleY: 1.5 }),
    ).invoke();
    const sx = (1.5 * 40) / 8;
    const sy = (1.5 * 20) / 4;
    // R(-π/2) = [[0, 1], [-1, 0]]; R·S = [[0, sy], [-sx, 0]]; translation = R·S·(-4, -2) + (20, 40)
    expectClose(h.outputArray(), [0, sy, 0, -2 * sy + 20, -sx, 0, 0, 4 * sx + 40, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('prepare checks the options as MediaPipe does, and every index against the input', () => {
    const ok = { subset: [2, 3], left: 0, right: 1, outW: 10, outH: 20 };
    expect(() => harness(2, [1, 6, 3], v2Options({ ...ok, subset: [2, 6] })).prepare()).toThrow(
      /option subset_idxs\[1\] is 6 but the input holds 6 landmarks \(18 values\)/,
    );
    expect(() => harness(2, [1, 6, 3], v2Options({ ...ok, right: -1 })).prepare()).toThrow(
      /option right_rotation_idx is -1, must not be negative/,
    );
    expect(() => harness(2, [1, 6, 3], v2Options({ ...ok, outW: 0 })).prepare()).toThrow(/option output_width is 0, must be positive/);
    expect(() => harness(2, [1, 6, 3], v2Options({ ...ok, scaleY: -1 })).prepare()).toThrow(/option scale_y is -1, must be positive/);
    expect(() => harness(2, [1, 6, 3], v2Options({ ...ok, subset: [] })).prepare()).toThrow(/option subset_idxs is empty/);
    expect(() => harness(2, [1, 6, 3], flexEncode({ subset_idxs: [1, 2] })).prepare()).toThrow(
      /custom options: flexbuffer: option "left_rotation_idx" is missing/,
    );
    expect(() => harness(2, [1, 6, 3], null).prepare()).toThrow(/custom options \(a FlexBuffers map\) are missing/);
    expect(() => harness(2, [1, 18], v2Options(ok)).prepare()).toThrow(/input \(tensor 0\) must have rank 3/);
    const h = harness(2, [1, 6, 3], v2Options({ ...ok, subset: [2, 3, 5] })).prepare();
    expect(h.persistentBytes).toBe(16); // the subset pairs (2, 3), (5, 5): 16 bytes
  });
});

describe('Landmarks2TransformMatrix v1', () => {
  /** v1 options; input_hw / output_hw / subset as typed int vectors (built element by element). */
  function v1Options(o: {
    subset: number[];
    inputHw: [number, number];
    outputHw: [number, number];
    range?: number;
    multiplier?: number;
    dimensions?: number;
  }): Uint8Array {
    const b = flexBuilder();
    b.startMap();
    for (const [key, vec] of [
      ['input_hw', o.inputHw],
      ['output_hw', o.outputHw],
      ['subset', o.subset],
    ] as const) {
      b.addKey(key);
      b.startVector();
      for (const v of vec) b.addInt(v);
      b.end();
    }
    b.addKey('dimensions');
    b.addInt(o.dimensions ?? 3);
    b.addKey('landmarks_range');
    b.addInt(o.range ?? 100);
    b.addKey('bbox_size_multiplier');
    b.addFloat(o.multiplier ?? 1.5);
    b.addKey('left_rotation_idx');
    b.addInt(0);
    b.addKey('right_rotation_idx');
    b.addInt(1);
    b.end();
    return b.finish();
  }

  it('inverse transform from output pixels to input pixels of the enlarged box (hand-computed within float tolerance)', () => {
    // box (10, 20)..(30, 60) × 1.5 = 30x60 of range 100; middle (20, 40); to_absolute of 101x201 (h x w),
    // to_relative of 5x9: itm = [[7.5, 0, 10], [0, 15, 10], [0, 0, 1]]
    const h = harness(1, [1, 1, 1, 18], v1Options({ subset: [2, 3], inputHw: [101, 201], outputHw: [5, 9] })).invoke();
    expectClose(h.outputArray(), [7.5, 0, 0, 10, 0, 15, 0, 10, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('prepare checks dimensions, sizes and the input shape', () => {
    const ok = { subset: [2, 3], inputHw: [101, 201] as [number, number], outputHw: [5, 9] as [number, number] };
    expect(() => harness(1, [1, 1, 1, 18], v1Options({ ...ok, dimensions: 2 })).prepare()).toThrow(/option dimensions is 2, must be 3/);
    expect(() => harness(1, [1, 1, 1, 18], v1Options({ ...ok, range: 0 })).prepare()).toThrow(
      /option landmarks_range is 0, must be positive/,
    );
    expect(() => harness(1, [1, 1, 1, 18], v1Options({ ...ok, multiplier: 0 })).prepare()).toThrow(/option bbox_size_multiplier is 0/);
    expect(() => harness(1, [1, 1, 1, 18], v1Options({ ...ok, outputHw: [5, 0] })).prepare()).toThrow(
      /option output_hw is \[5, 0\], both must be positive/,
    );
    expect(() => harness(1, [1, 1, 2, 9], v1Options(ok)).prepare()).toThrow(
      /input \(tensor 0\) must have shape \[1, 1, 1, 3N\], has \[1, 1, 2, 9\]/,
    );
    expect(() => harness(1, [1, 1, 1, 18], v1Options({ ...ok, subset: [2, 3, 9] })).prepare()).toThrow(
      /option subset\[2\] is 9 but the input holds 6 landmarks/,
    );
  });
});
