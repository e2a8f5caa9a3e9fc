import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIN } from './sin.js';

describe('SIN', () => {
  it('computes sin of float32 values', () => {
    const x = [0, Math.PI / 6, -Math.PI / 2, 3, 100];
    const h = new KernelHarness({
      registration: SIN,
      tensors: [
        { type: TensorType.FLOAT32, shape: [5], data: x },
        { type: TensorType.FLOAT32, shape: [5] },
      ],
      inputs: [0],
      outputs: [1],
    }).invoke();
    h.outputArray().forEach((v, i) => {
      const want = Math.sin(Math.fround(x[i]!));
      expect(Math.abs(v - want)).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want));
    });
    expect(h.outputArray()[1]).toBeCloseTo(0.5, 6);
  });

  it('accepts only float32', () => {
    const h = new KernelHarness({
      registration: SIN,
      tensors: [
        { type: TensorType.INT8, shape: [1], data: [0], scale: 1, zeroPoint: 0 },
        { type: TensorType.INT8, shape: [1], scale: 1, zeroPoint: 0 },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => h.prepare()).toThrow(/SIN \(node 0\): unsupported input type int8 \(tensor 0\); supported: float32/);
  });
});
