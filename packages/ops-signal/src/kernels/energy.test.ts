import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_ENERGY } from './energy.js';

// Vectors from TFLM signal/micro/kernels/energy_test.cc and its flexbuffers.
const OPTIONS = (start: number, end: number) =>
  Uint8Array.of(
    0x73,
    0x74,
    0x61,
    0x72,
    0x74,
    0x5f,
    0x69,
    0x6e,
    0x64,
    0x65,
    0x78,
    0x00,
    0x65,
    0x6e,
    0x64,
    0x5f,
    0x69,
    0x6e,
    0x64,
    0x65,
    0x78,
    0x00,
    0x02,
    0x0b,
    0x18,
    0x02,
    0x01,
    0x02,
    end,
    start,
    0x04,
    0x04,
    0x04,
    0x24,
    0x01,
  );
const INPUT = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

function harness(input: number[], outputLength: number, options: Uint8Array) {
  return new KernelHarness({
    registration: SIGNAL_ENERGY,
    tensors: [
      { type: TensorType.INT16, shape: [input.length], data: input },
      { type: TensorType.UINT32, shape: [outputLength] },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: options,
  });
}

describe('SignalEnergy', () => {
  it('middle, start and end ranges (TFLM EnergyTestMiddle/Start/End)', () => {
    expect(harness(INPUT, 8, OPTIONS(2, 4)).invoke().outputArray()).toEqual([0, 0, 61, 113, 0, 0, 0, 0]);
    expect(harness(INPUT, 8, OPTIONS(0, 4)).invoke().outputArray()).toEqual([5, 25, 61, 113, 0, 0, 0, 0]);
    expect(harness(INPUT, 8, OPTIONS(4, 8)).invoke().outputArray()).toEqual([0, 0, 0, 0, 181, 265, 365, 481]);
  });

  it('writes 0 outside [start_index, end_index), whatever the output memory held (TFLM leaves it)', () => {
    const h = harness(INPUT, 8, OPTIONS(2, 4)).prepare();
    h.output<Uint32Array>().fill(0xdeadbeef);
    expect(h.invoke().outputArray()).toEqual([0, 0, 61, 113, 0, 0, 0, 0]);
  });

  it('wraps (-32768)^2 * 2 to 2^31 as uint32', () => {
    expect(harness([-32768, -32768, 32767, 0], 2, OPTIONS(0, 2)).invoke().outputArray()).toEqual([2 ** 31, 32767 * 32767]);
  });

  it('rejects a range outside the tensors', () => {
    expect(() => harness(INPUT, 8, OPTIONS(4, 9)).prepare()).toThrow(/0 <= start <= end <= 8/);
    expect(() => harness(INPUT, 8, OPTIONS(5, 4)).prepare()).toThrow(/start_index 5 and end_index 4/);
  });
});
