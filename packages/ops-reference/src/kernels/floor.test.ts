import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import {
  bfloat16FromFloat32Bits,
  bfloat16ToFloat32Bits,
  float32Bits,
  float32FromBits,
  halfFromFloat32Bits,
  halfToFloat32Bits,
} from '@micrort/kernel-support';
import { harness } from './__fixtures__/math-testing.js';
import { FLOOR, floorBits } from './floor.js';

/** floor through float32, as Eigen's floor(half) / floor(bfloat16) compute it; NaN keeps its sign. */
function viaFloat(bits: number, toF32: (b: number) => number, fromF32: (w: number) => number, nan: number): number {
  const w = toF32(bits);
  const v = float32FromBits(w);
  if (v !== v) return (bits & 0x8000) | nan;
  return fromF32(float32Bits(Math.floor(v)));
}

describe('FLOOR float16 / bfloat16', () => {
  it('floorBits equals widen → floorf → narrow for every half and every bfloat16 bit pattern', () => {
    for (let b = 0; b < 0x10000; b++) {
      expect(floorBits(b, 5, 10, 0x7e00)).toBe(viaFloat(b, halfToFloat32Bits, halfFromFloat32Bits, 0x7e00));
      expect(floorBits(b, 8, 7, 0x7fc0)).toBe(viaFloat(b, bfloat16ToFloat32Bits, bfloat16FromFloat32Bits, 0x7fc0));
    }
  });

  it('runs on float16 and bfloat16 tensors (raw bits): -1.5 → -2, 2.75 → 2, -0 stays, -0.25 → -1', () => {
    // half: -1.5 0xBE00, 2.75 0x4180, -0 0x8000, -0.25 0xB400
    const h = harness(
      FLOOR,
      [
        { type: TensorType.FLOAT16, shape: [4], data: [0xbe00, 0x4180, 0x8000, 0xb400] },
        { type: TensorType.FLOAT16, shape: [4] },
      ],
      [0],
      [1],
    );
    expect(Array.from(h.invoke().outputArray())).toEqual([0xc000, 0x4000, 0x8000, 0xbc00]);
    // bfloat16: -1.5 0xBFC0, 2.75 0x4030 → -2 0xC000, 2 0x4000
    const b = harness(
      FLOOR,
      [
        { type: TensorType.BFLOAT16, shape: [2], data: [0xbfc0, 0x4030] },
        { type: TensorType.BFLOAT16, shape: [2] },
      ],
      [0],
      [1],
    );
    expect(Array.from(b.invoke().outputArray())).toEqual([0xc000, 0x4000]);
  });
});
