import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_FILTER_BANK_LOG } from './filter-bank-log.js';
import { log32 } from './log-common.js';

// Vectors from TFLM signal/micro/kernels/filter_bank_log_test.cc and its flexbuffers.
const SCALE_1600_BITS_3 = Uint8Array.of(
  0x6f,
  0x75,
  0x74,
  0x70,
  0x75,
  0x74,
  0x5f,
  0x73,
  0x63,
  0x61,
  0x6c,
  0x65,
  0x00,
  0x69,
  0x6e,
  0x70,
  0x75,
  0x74,
  0x5f,
  0x63,
  0x6f,
  0x72,
  0x72,
  0x65,
  0x63,
  0x74,
  0x69,
  0x6f,
  0x6e,
  0x5f,
  0x62,
  0x69,
  0x74,
  0x73,
  0x00,
  0x02,
  0x17,
  0x25,
  0x02,
  0x00,
  0x01,
  0x00,
  0x02,
  0x00,
  0x03,
  0x00,
  0x40,
  0x06,
  0x05,
  0x05,
  0x06,
  0x25,
  0x01,
);
const SCALE_32768_BITS_5 = Uint8Array.of(
  0x6f,
  0x75,
  0x74,
  0x70,
  0x75,
  0x74,
  0x5f,
  0x73,
  0x63,
  0x61,
  0x6c,
  0x65,
  0x00,
  0x69,
  0x6e,
  0x70,
  0x75,
  0x74,
  0x5f,
  0x63,
  0x6f,
  0x72,
  0x72,
  0x65,
  0x63,
  0x74,
  0x69,
  0x6f,
  0x6e,
  0x5f,
  0x62,
  0x69,
  0x74,
  0x73,
  0x00,
  0x02,
  0x17,
  0x25,
  0x00,
  0x00,
  0x04,
  0x00,
  0x00,
  0x00,
  0x01,
  0x00,
  0x00,
  0x00,
  0x02,
  0x00,
  0x00,
  0x00,
  0x05,
  0x00,
  0x00,
  0x00,
  0x00,
  0x80,
  0x00,
  0x00,
  0x06,
  0x06,
  0x0a,
  0x26,
  0x01,
);

function harness(input: number[], options: Uint8Array) {
  return new KernelHarness({
    registration: SIGNAL_FILTER_BANK_LOG,
    tensors: [
      { type: TensorType.UINT32, shape: [input.length], data: input },
      { type: TensorType.INT16, shape: [input.length] },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: options,
  });
}

describe('SignalFilterBankLog', () => {
  it('32 channels, scale 1600, correction bits 3 (TFLM FilterBankLogTest32Channel)', () => {
    const input = [
      29, 21, 29, 40, 19, 11, 13, 23, 13, 11, 25, 17, 5, 4, 46, 14, 17, 14, 20, 14, 10, 10, 15, 11, 17, 12, 15, 16, 19, 18, 6, 2,
    ];
    const golden = [
      8715, 8198, 8715, 9229, 8038, 7164, 7431, 8344, 7431, 7164, 8477, 7860, 5902, 5545, 9453, 7550, 7860, 7550, 8120, 7550, 7011, 7011,
      7660, 7164, 7860, 7303, 7660, 7763, 8038, 7952, 6194, 4436,
    ];
    expect(harness(input, SCALE_1600_BITS_3).invoke().outputArray()).toEqual(golden);
  });

  it('16 channels, scale 32768, correction bits 5, saturating at 32767 (TFLM FilterBankLogTest16Channel)', () => {
    const input = [48, 20, 19, 24, 35, 47, 23, 30, 31, 10, 48, 21, 46, 14, 18, 27];
    const golden = [32767, 15121, 13440, 21095, 32767, 32767, 19701, 28407, 29482, 32767, 32767, 16720, 32767, 3434, 11669, 24955];
    expect(harness(input, SCALE_32768_BITS_5).invoke().outputArray()).toEqual(golden);
  });

  it('outputs 0 where the scaled value is 0 or 1', () => {
    // correction bits 3: 0 stays 0, 2^29 << 3 wraps to 0 in uint32, 1 becomes 8 -> ln(8) * 1600 = 3327
    expect(harness([0, 0x20000000, 1], SCALE_1600_BITS_3).invoke().outputArray()).toEqual([0, 0, log32(8, 1600)]);
    expect(log32(8, 1600)).toBe(3327);
  });
});
