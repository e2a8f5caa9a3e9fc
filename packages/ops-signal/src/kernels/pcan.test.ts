import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_PCAN } from './pcan.js';

// Vectors from TFLM signal/micro/kernels/pcan_test.cc (Mix1Ref1Case) and its flexbuffers.
const SNR_SHIFT_6 = Uint8Array.of(
  0x73,
  0x6e,
  0x72,
  0x5f,
  0x73,
  0x68,
  0x69,
  0x66,
  0x74,
  0x00,
  0x01,
  0x0b,
  0x01,
  0x01,
  0x01,
  0x06,
  0x04,
  0x02,
  0x24,
  0x01,
);
const INPUT = [
  286, 298, 305, 291, 290, 279, 273, 257, 250, 240, 240, 233, 234, 230, 221, 205, 183, 159, 156, 188, 239, 298, 345, 374, 380, 369, 359,
  364, 372, 354, 302, 243, 194, 135, 64, 72, 171, 245, 277, 304,
];
const NOISE = [
  7310, 18308, 7796, 17878, 7413, 17141, 6978, 15789, 6390, 14745, 6135, 14314, 5981, 14130, 5649, 12594, 4677, 9768, 3987, 11550, 6109,
  18308, 8819, 22977, 9713, 22670, 9176, 22363, 9509, 21748, 7719, 14929, 4959, 8294, 1636, 4423, 4371, 15052, 7080, 18677,
];
const GAIN_LUT = [
  32636, 32633, 32630, -6, 0, -21589, 32624, -12, 0, -21589, 32612, -23, -2, -21589, 32587, -48, 0, -21589, 32539, -96, 0, -21589, 32443,
  -190, 0, -21589, 32253, -378, 4, -21589, 31879, -739, 18, -21589, 31158, -1409, 62, -21589, 29811, -2567, 202, -21589, 27446, -4301, 562,
  -21589, 23707, -6265, 1230, -21589, 18672, -7458, 1952, -21589, 13166, -7030, 2212, -21589, 8348, -5342, 1868, -21589, 4874, -3459, 1282,
  -21589, 2697, -2025, 774, -21589, 1446, -1120, 436, -21589, 762, -596, 232, -21589, 398, -313, 122, -21589, 207, -164, 64, -21589, 107,
  -85, 34, -21589, 56, -45, 18, -21589, 29, -22, 8, -21589, 15, -13, 6, -21589, 8, -8, 4, -21589, 4, -2, 0, -21589, 2, -3, 2, -21589, 1, 0,
  0, -21589, 1, -3, 2, -21589, 0, 0, 0,
];
const GOLDEN = [
  1301, 836, 1354, 827, 1312, 811, 1263, 779, 1192, 753, 1160, 743, 1140, 738, 1096, 698, 956, 607, 845, 667, 1157, 836, 1461, 912, 1546,
  908, 1496, 904, 1527, 895, 1346, 758, 999, 548, 378, 344, 908, 761, 1274, 843,
];

function harness(lut: number[] = GAIN_LUT, input: number[] = INPUT, noise: number[] = NOISE) {
  return new KernelHarness({
    registration: SIGNAL_PCAN,
    tensors: [
      { type: TensorType.UINT32, shape: [input.length], data: input },
      { type: TensorType.UINT32, shape: [noise.length], data: noise },
      { type: TensorType.INT16, shape: [lut.length], data: lut, constant: true },
      { type: TensorType.UINT32, shape: [input.length] },
    ],
    inputs: [0, 1, 2],
    outputs: [3],
    customInitialData: SNR_SHIFT_6,
  });
}

describe('SignalPCAN', () => {
  it('40 channels, snr_shift 6 (TFLM Mix1Ref1Case)', () => {
    expect(harness().invoke().outputArray()).toEqual(GOLDEN);
  });

  it('rejects a short gain LUT and mismatched lengths', () => {
    expect(() => harness(GAIN_LUT.slice(0, 100)).prepare()).toThrow(/gain LUT \(tensor 2\) has 100 entries, needs 125/);
    expect(() => harness(GAIN_LUT, INPUT, NOISE.slice(1)).prepare()).toThrow(/noise estimate \(tensor 1\) has 39 elements, expected 40/);
  });
});
