import { describe, expect, it } from 'vitest';
import { diffValues, isClassifierShaped, realValues, storedValues, toBase64, topK, type TensorValue } from './outputs.js';

const int8 = (v: number[], scale?: number, zeroPoint?: number): TensorValue => ({
  name: 't',
  type: 'int8',
  shape: [1, v.length],
  bytes: new Uint8Array(Int8Array.from(v).buffer),
  ...(scale ? { scale, zeroPoint: zeroPoint ?? 0 } : {}),
});
const f32 = (v: number[]): TensorValue => ({
  name: 't',
  type: 'float32',
  shape: [1, v.length],
  bytes: new Uint8Array(Float32Array.from(v).buffer),
});

describe('outputs', () => {
  it('reads stored and real values', () => {
    const t = int8([-128, 0, 127], 0.5, -128);
    expect(storedValues(t)).toEqual([-128, 0, 127]);
    expect(realValues(t)).toEqual([0, 64, 127.5]);
  });

  it('top-k by real score, ties by class index', () => {
    expect(topK(int8([3, 9, 9, -1], 0.1, 0), 3).map((r) => r.index)).toEqual([1, 2, 0]);
    expect(isClassifierShaped({ shape: [1, 1001], type: 'int8' })).toBe(true);
    expect(isClassifierShaped({ shape: [1, 8, 8, 3], type: 'int8' })).toBe(false);
    expect(isClassifierShaped({ shape: [1, 1], type: 'float32' })).toBe(false);
  });

  it('differences: identical, within float tolerance, and not', () => {
    expect(diffValues(int8([1, 2]), int8([1, 2]))).toMatchObject({ identical: true, maxAbs: 0, differing: 0, withinTolerance: true });
    expect(diffValues(int8([1, 4]), int8([1, 2]))).toMatchObject({ identical: false, maxAbs: 2, differing: 1, withinTolerance: false });
    expect(diffValues(f32([1.00001]), f32([1]))).toMatchObject({ identical: false, withinTolerance: true });
    expect(diffValues(f32([1.01]), f32([1])).withinTolerance).toBe(false);
    expect(diffValues(f32([NaN]), f32([1])).withinTolerance).toBe(false);
  });

  it('base64 of bytes', () => {
    expect(toBase64(Uint8Array.of(0, 255, 1))).toBe(Buffer.from([0, 255, 1]).toString('base64'));
  });
});
