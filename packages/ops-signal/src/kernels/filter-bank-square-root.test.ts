import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_FILTER_BANK_SQUARE_ROOT } from './filter-bank-square-root.js';

function harness(input: bigint[], scaleBits: number) {
  return new KernelHarness({
    registration: SIGNAL_FILTER_BANK_SQUARE_ROOT,
    tensors: [
      { type: TensorType.UINT64, shape: [input.length], data: input },
      { type: TensorType.INT32, shape: [], data: [scaleBits] },
      { type: TensorType.UINT32, shape: [input.length] },
    ],
    inputs: [0, 1],
    outputs: [2],
  });
}

describe('SignalFilterBankSquareRoot', () => {
  it('32 channels, scale bits 7 (TFLM FilterBankSquareRoot32Channel)', () => {
    const input = [
      10528000193n,
      28362909357n,
      47577133750n,
      8466055850n,
      5842710800n,
      2350911449n,
      2989811430n,
      2646718839n,
      515262774n,
      276394561n,
      469831522n,
      55815334n,
      28232446n,
      11591835n,
      40329249n,
      67658028n,
      183446654n,
      323189165n,
      117473797n,
      41339272n,
      25846050n,
      12428673n,
      18670978n,
      22521722n,
      78477733n,
      54207503n,
      25150296n,
      43098592n,
      28211625n,
      15736687n,
      20990296n,
      17907031n,
    ];
    const golden = [
      801, 1315, 1704, 718, 597, 378, 427, 401, 177, 129, 169, 58, 41, 26, 49, 64, 105, 140, 84, 50, 39, 27, 33, 37, 69, 57, 39, 51, 41, 30,
      35, 33,
    ];
    expect(harness(input, 7).invoke().outputArray()).toEqual(golden);
  });

  it('16 channels, scale bits 5 (TFLM FilterBankSquareRoot16Channel)', () => {
    const input = [
      13051415151n,
      14932650877n,
      18954728418n,
      8730126017n,
      6529665275n,
      12952546517n,
      10314975609n,
      8919697835n,
      8053663348n,
      17231208421n,
      7366899760n,
      1372112200n,
      19953434807n,
      17012385332n,
      4710443222n,
      17765594053n,
    ];
    const golden = [3570, 3818, 4302, 2919, 2525, 3556, 3173, 2951, 2804, 4102, 2682, 1157, 4414, 4076, 2144, 4165];
    expect(harness(input, 5).invoke().outputArray()).toEqual(golden);
  });

  it('handles the full uint64 range and the 32-bit shortcut cap', () => {
    // sqrt(2^64 - 1) rounds to 2^32 but is capped at 0xffffffff; 2^32 - 1 takes the Sqrt32 path (cap 0xffff)
    expect(
      harness([(1n << 64n) - 1n, (1n << 32n) - 1n, 1n << 32n, 0n], 0)
        .invoke()
        .outputArray(),
    ).toEqual([0xffffffff, 0xffff, 65536, 0]);
  });

  it('rejects a non-scalar scale_bits and a wrong output length', () => {
    const bad = new KernelHarness({
      registration: SIGNAL_FILTER_BANK_SQUARE_ROOT,
      tensors: [
        { type: TensorType.UINT64, shape: [4] },
        { type: TensorType.INT32, shape: [1] },
        { type: TensorType.UINT32, shape: [4] },
      ],
      inputs: [0, 1],
      outputs: [2],
    });
    expect(() => bad.prepare()).toThrow(/scale_bits \(tensor 1\) must have 0 dimension/);
  });
});
