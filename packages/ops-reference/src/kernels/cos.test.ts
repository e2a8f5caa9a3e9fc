import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { COS } from './cos.js';

describe('COS', () => {
  it('computes cos of float32 values', () => {
    const x = [0, Math.PI / 3, Math.PI, -2, 50];
    const h = new KernelHarness({
      registration: COS,
      tensors: [
        { type: TensorType.FLOAT32, shape: [5], data: x },
        { type: TensorType.FLOAT32, shape: [5] },
      ],
      inputs: [0],
      outputs: [1],
    }).invoke();
    h.outputArray().forEach((v, i) => {
      const want = Math.cos(Math.fround(x[i]!));
      expect(Math.abs(v - want)).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want));
    });
    expect(h.outputArray()[0]).toBe(1);
  });

  it('rejects an output with a different element count', () => {
    const h = new KernelHarness({
      registration: COS,
      tensors: [
        { type: TensorType.FLOAT32, shape: [2], data: [0, 1] },
        { type: TensorType.FLOAT32, shape: [3] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => h.prepare()).toThrow(/COS \(node 0\).*differ in element count: 2 vs 3/);
  });
});
