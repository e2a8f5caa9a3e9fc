import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { f32, harness, i32, kernelError, run } from './__fixtures__/math-testing.js';
import { FLOOR_DIV } from './floor-div.js';
import { FLOOR_MOD } from './floor-mod.js';

describe('FLOOR_DIV / FLOOR_MOD', () => {
  it('FLOOR_DIV floors the quotient (TFLM floor_div_test FloorDivModelSimple and broadcast)', () => {
    expect(run(FLOOR_DIV, [f32([1, 2, 2, 1], [10, 9, 11, 3]), f32([1, 2, 2, 1], [2, 2, 3, 4]), f32([1, 2, 2, 1])], [0, 1], [2])).toEqual([
      5, 4, 3, 0,
    ]);
    expect(run(FLOOR_DIV, [f32([1, 2, 2, 1], [10, -9, -11, 7]), f32([1], [-3]), f32([1, 2, 2, 1])], [0, 1], [2])).toEqual([-4, 3, 3, -3]);
  });

  it('FLOOR_DIV fails the invoke on a zero divisor (TFLM "Division by 0") and stays usable', () => {
    const h = harness(FLOOR_DIV, [f32([2], [1, 2]), f32([2], [1, 0]), f32([2])], [0, 1], [2]).prepare();
    expect(kernelError(() => h.invoke()).message).toMatch(/FLOOR_DIV \(node 0\): Division by 0 \(divisor element 1\)/);
    h.setInput(1, [1, 2]);
    expect(h.invoke().outputArray()).toEqual([1, 1]);
  });

  it('FLOOR_MOD takes the sign of the divisor (TFLM floor_mod_test values), exact in float32', () => {
    expect(run(FLOOR_MOD, [f32([1, 2, 2, 1], [10, 9, 11, 3]), f32([1, 2, 2, 1], [2, 2, 3, 4]), f32([1, 2, 2, 1])], [0, 1], [2])).toEqual([
      0, 1, 2, 3,
    ]);
    expect(run(FLOOR_MOD, [f32([1, 2, 2, 1], [10, -9, -11, 7]), f32([1], [-3]), f32([1, 2, 2, 1])], [0, 1], [2])).toEqual([-2, -0, -2, -2]); // fmodf(-9, -3) is -0
    const f = Math.fround;
    expect(run(FLOOR_MOD, [f32([2], [-0.5, 5.25]), f32([2], [0.75, -2.5]), f32([2])], [0, 1], [2])).toEqual([f(0.25), f(-2.25)]);
    expect(run(FLOOR_MOD, [f32([1], [1]), f32([1], [0]), f32([1])], [0, 1], [2])[0]).toBeNaN();
  });

  it("take TFLite's int32 (floor semantics), refuse uint8 and broadcasting beyond 4-D", () => {
    expect(
      harness(FLOOR_DIV, [i32([2], [7, -7]), i32([2], [2, 2]), i32([2])], [0, 1], [2])
        .prepare()
        .invoke()
        .outputArray(),
    ).toEqual([3, -4]);
    expect(
      harness(FLOOR_MOD, [i32([2], [7, -7]), i32([2], [-2, 2]), i32([2])], [0, 1], [2])
        .prepare()
        .invoke()
        .outputArray(),
    ).toEqual([-1, 1]);
    for (const reg of [FLOOR_DIV, FLOOR_MOD]) {
      const u8 = { type: TensorType.UINT8, shape: [1], data: [4] };
      const h = harness(reg, [u8, u8, { type: TensorType.UINT8, shape: [1] }], [0, 1], [2]);
      expect(h.supportsAnswer()).toMatch(/^uint8 input \(handles float32, int32/);
      expect(kernelError(() => h.prepare()).message).toMatch(/type uint8 \(tensor \d+\); supported:/);
      expect(
        kernelError(() => harness(reg, [f32([2, 1, 1, 1, 1], [1, 2]), f32([2], [1, 2]), f32([2, 1, 1, 1, 2])], [0, 1], [2]).prepare())
          .message,
      ).toMatch(/at most 4 dimensions/);
    }
  });
});
