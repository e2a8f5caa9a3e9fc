import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_FFT_AUTO_SCALE, maxAbs16 } from './fft-auto-scale.js';

function harness(input: number[]) {
  return new KernelHarness({
    registration: SIGNAL_FFT_AUTO_SCALE,
    tensors: [
      { type: TensorType.INT16, shape: [input.length], data: input },
      { type: TensorType.INT16, shape: [input.length] },
      { type: TensorType.INT32, shape: [] },
    ],
    inputs: [0],
    outputs: [1, 2],
  });
}

describe('SignalFftAutoScale', () => {
  it('scales by one bit (TFLM FftAutoScaleTestSmall)', () => {
    const h = harness([0x0000, 0x1111, 0x2222, 0x3333, 0x3333, 0x2222, 0x1111, 0x0000]).invoke();
    expect(h.outputArray(0)).toEqual([0x0000, 0x2222, 0x4444, 0x6666, 0x6666, 0x4444, 0x2222, 0x0000]);
    expect(h.outputArray(1)).toEqual([1]);
  });

  it('scales by seven bits (TFLM FftAutoScaleTestScaleBit)', () => {
    const h = harness([238, 113, -88, -243, -5, -130, 159, -70]).invoke();
    expect(h.outputArray(0)).toEqual([30464, 14464, -11264, -31104, -640, -16640, 20352, -8960]);
    expect(h.outputArray(1)).toEqual([7]);
  });

  it('does not scale all-zero or full-scale input', () => {
    expect(harness([0, 0, 0]).invoke().outputArray(1)).toEqual([0]);
    expect(harness([100, -20000, 3]).invoke().outputArray(1)).toEqual([0]);
  });

  it("reproduces MaxAbs16's int16 wrap of -(-32768)", () => {
    expect(maxAbs16(Int16Array.of(-32768), 1)).toBe(-32768);
    // after the wrap the running max is -32768, so the next value replaces it
    expect(maxAbs16(Int16Array.of(-32768, 5), 2)).toBe(5);
    const h = harness([-32768, 5]).invoke();
    expect(h.outputArray(1)).toEqual([12]);
    expect(h.outputArray(0)).toEqual([0, 5 << 12]); // -32768 << 12 truncated to int16
  });

  it('requires a scalar int32 scale output', () => {
    const h = new KernelHarness({
      registration: SIGNAL_FFT_AUTO_SCALE,
      tensors: [
        { type: TensorType.INT16, shape: [4] },
        { type: TensorType.INT16, shape: [4] },
        { type: TensorType.INT32, shape: [1] },
      ],
      inputs: [0],
      outputs: [1, 2],
    });
    expect(() => h.prepare()).toThrow(/scale_bits output \(tensor 2\) must have 0 dimension/);
  });
});
