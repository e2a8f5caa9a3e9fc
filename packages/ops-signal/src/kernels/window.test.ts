import { describe, expect, it } from 'vitest';
import { KernelError, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_WINDOW } from './window.js';

// Vectors from TFLM signal/micro/kernels/window_test.cc and its flexbuffers.
const SHIFT = (s: number) => Uint8Array.of(0x73, 0x68, 0x69, 0x66, 0x74, 0x00, 0x01, 0x07, 0x01, 0x01, 0x01, s, 0x04, 0x02, 0x24, 0x01);
const RAMP_UP = [0x000, 0x100, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700, 0x800, 0x900, 0xa00, 0xb00, 0xc00, 0xd00, 0xe00, 0xf00];
const RAMP_DOWN = [...RAMP_UP].reverse();
const GOLDEN_16 = [0, 224, 416, 576, 704, 800, 864, 896, 896, 864, 800, 704, 576, 416, 224, 0];

function harness(input: number[], inputShape: number[], weights: number[], options: Uint8Array) {
  return new KernelHarness({
    registration: SIGNAL_WINDOW,
    tensors: [
      { type: TensorType.INT16, shape: inputShape, data: input },
      { type: TensorType.INT16, shape: [weights.length], data: weights, constant: true },
      { type: TensorType.INT16, shape: inputShape },
    ],
    inputs: [0, 1],
    outputs: [2],
    customInitialData: options,
  });
}

describe('SignalWindow', () => {
  it('length 16, shift 12 (TFLM WindowTestLength16Shift12)', () => {
    expect(harness(RAMP_UP, [16], RAMP_DOWN, SHIFT(12)).invoke().outputArray()).toEqual(GOLDEN_16);
  });

  it('length 32, shift 8, saturating (TFLM WindowTestLength32Shift8)', () => {
    const input = [
      1221, 1920, 9531, 2795, 1826, 371, 8446, 850, 3129, 8218, 4199, 8358, 205, 5268, 3263, 2849, 8398, 1381, 6305, 668, 8867, 4651, 9121,
      6141, 1961, 3750, 8418, 8085, 3308, 1788, 1608, 4761,
    ];
    const weights = [
      1323, 764, 9100, 4220, 1745, 9311, 178, 9442, 5676, 1817, 5433, 5837, 7635, 4539, 6548, 9690, 6097, 4275, 1523, 3694, 7506, 2797,
      5153, 172, 2172, 4540, 6643, 7845, 1719, 7564, 1700, 5227,
    ];
    const golden = [
      6310, 5730, 32767, 32767, 12446, 13493, 5872, 31350, 32767, 32767, 32767, 32767, 6113, 32767, 32767, 32767, 32767, 23061, 32767, 9639,
      32767, 32767, 32767, 4125, 16637, 32767, 32767, 32767, 22212, 32767, 10678, 32767,
    ];
    expect(harness(input, [32], weights, SHIFT(8)).invoke().outputArray()).toEqual(golden);
  });

  it('applies the window to every frame of outer dimensions (TFLM WindowTestLength16Shift12OuterDims4)', () => {
    const input = [...RAMP_UP, ...RAMP_UP, ...RAMP_UP, ...RAMP_UP];
    expect(harness(input, [2, 2, 16], RAMP_DOWN, SHIFT(12)).invoke().outputArray()).toEqual([
      ...GOLDEN_16,
      ...GOLDEN_16,
      ...GOLDEN_16,
      ...GOLDEN_16,
    ]);
  });

  it('saturates negative products to -32768', () => {
    expect(harness([-32768, 32767], [2], [32767, -32768], SHIFT(0)).invoke().outputArray()).toEqual([-32768, -32768]);
  });

  it('rejects a bad shift, a partial window and missing options', () => {
    expect(() => harness(RAMP_UP, [16], RAMP_DOWN, SHIFT(40)).prepare()).toThrow(/"shift" is 40, must be in \[0, 31\]/);
    expect(() => harness(RAMP_UP.slice(0, 12), [12], RAMP_DOWN.slice(0, 8), SHIFT(12)).prepare()).toThrow(
      /12 samples is not a whole number of 8-sample windows/,
    );
    const noOptions = new KernelHarness({
      registration: SIGNAL_WINDOW,
      tensors: [
        { type: TensorType.INT16, shape: [4] },
        { type: TensorType.INT16, shape: [4] },
        { type: TensorType.INT16, shape: [4] },
      ],
      inputs: [0, 1],
      outputs: [2],
    });
    expect(() => noOptions.prepare()).toThrow(KernelError);
    expect(() => noOptions.prepare()).toThrow(/custom options .* missing/);
  });

  it('rejects other types', () => {
    const h = new KernelHarness({
      registration: SIGNAL_WINDOW,
      tensors: [
        { type: TensorType.INT8, shape: [4] },
        { type: TensorType.INT16, shape: [4] },
        { type: TensorType.INT16, shape: [4] },
      ],
      inputs: [0, 1],
      outputs: [2],
      customInitialData: SHIFT(12),
    });
    expect(() => h.prepare()).toThrow(/input \(tensor 0\) has type int8, expected int16/);
  });
});
