import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { parseFlexMap } from '@micrort/core';
import { SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION } from './filter-bank-spectral-subtraction.js';

// Vectors from TFLM signal/micro/kernels/filter_bank_spectral_subtraction_test.cc and its flexbuffers
// (the 32- and 16-channel buffers differ only in num_channels, byte 188).
function options(numChannels: number): Uint8Array {
  const bytes = Uint8Array.of(
    0x6e,
    0x75,
    0x6d,
    0x5f,
    0x63,
    0x68,
    0x61,
    0x6e,
    0x6e,
    0x65,
    0x6c,
    0x73,
    0x00,
    0x73,
    0x6d,
    0x6f,
    0x6f,
    0x74,
    0x68,
    0x69,
    0x6e,
    0x67,
    0x00,
    0x6f,
    0x6e,
    0x65,
    0x5f,
    0x6d,
    0x69,
    0x6e,
    0x75,
    0x73,
    0x5f,
    0x73,
    0x6d,
    0x6f,
    0x6f,
    0x74,
    0x68,
    0x69,
    0x6e,
    0x67,
    0x00,
    0x61,
    0x6c,
    0x74,
    0x65,
    0x72,
    0x6e,
    0x61,
    0x74,
    0x65,
    0x5f,
    0x73,
    0x6d,
    0x6f,
    0x6f,
    0x74,
    0x68,
    0x69,
    0x6e,
    0x67,
    0x00,
    0x61,
    0x6c,
    0x74,
    0x65,
    0x72,
    0x6e,
    0x61,
    0x74,
    0x65,
    0x5f,
    0x6f,
    0x6e,
    0x65,
    0x5f,
    0x6d,
    0x69,
    0x6e,
    0x75,
    0x73,
    0x5f,
    0x73,
    0x6d,
    0x6f,
    0x6f,
    0x74,
    0x68,
    0x69,
    0x6e,
    0x67,
    0x00,
    0x73,
    0x6d,
    0x6f,
    0x6f,
    0x74,
    0x68,
    0x69,
    0x6e,
    0x67,
    0x5f,
    0x62,
    0x69,
    0x74,
    0x73,
    0x00,
    0x6d,
    0x69,
    0x6e,
    0x5f,
    0x73,
    0x69,
    0x67,
    0x6e,
    0x61,
    0x6c,
    0x5f,
    0x72,
    0x65,
    0x6d,
    0x61,
    0x69,
    0x6e,
    0x69,
    0x6e,
    0x67,
    0x00,
    0x63,
    0x6c,
    0x61,
    0x6d,
    0x70,
    0x69,
    0x6e,
    0x67,
    0x00,
    0x73,
    0x70,
    0x65,
    0x63,
    0x74,
    0x72,
    0x61,
    0x6c,
    0x5f,
    0x73,
    0x75,
    0x62,
    0x74,
    0x72,
    0x61,
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
    0x09,
    0x66,
    0x7b,
    0x26,
    0x3c,
    0xa9,
    0x93,
    0x9e,
    0x4f,
    0x23,
    0x09,
    0x00,
    0x01,
    0x00,
    0x09,
    0x00,
    0x71,
    0x3d,
    0x8f,
    0x02,
    0x00,
    0x00,
    0x33,
    0x03,
    0x20,
    0x00,
    0x71,
    0x3d,
    0x8f,
    0x02,
    0x00,
    0x00,
    0x0e,
    0x00,
    0x05,
    0x05,
    0x05,
    0x05,
    0x05,
    0x05,
    0x05,
    0x05,
    0x05,
    0x1b,
    0x25,
    0x01,
  );
  bytes[188] = numChannels;
  return bytes;
}

const INPUT_32 = [
  322, 308, 210, 212, 181, 251, 403, 259, 65, 48, 76, 48, 50, 46, 53, 52, 112, 191, 136, 59, 70, 51, 39, 64, 33, 44, 41, 49, 74, 107, 262,
  479,
];
const GOLDEN_32 = [
  310, 296, 202, 204, 174, 241, 387, 249, 63, 47, 73, 47, 49, 45, 51, 50, 108, 184, 131, 57, 68, 49, 38, 62, 32, 43, 40, 48, 72, 103, 252,
  460,
];
const NOISE_32 = [12, 12, 8, 8, 7, 10, 16, 10, 2, 1, 3, 1, 1, 1, 2, 2, 4, 7, 5, 2, 2, 2, 1, 2, 1, 1, 1, 1, 2, 4, 10, 19];

function harness(input: number[], opts: Uint8Array = options(input.length)) {
  return new KernelHarness({
    registration: SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION,
    tensors: [
      { type: TensorType.UINT32, shape: [input.length], data: input },
      { type: TensorType.UINT32, shape: [input.length] },
      { type: TensorType.UINT32, shape: [input.length] },
    ],
    inputs: [0],
    outputs: [1, 2],
    customInitialData: opts,
  });
}

describe('SignalFilterBankSpectralSubtraction', () => {
  it('32 channels (TFLM FilterBankSpectralSubtractionTest32Channel)', () => {
    const h = harness(INPUT_32).invoke();
    expect(h.outputArray(0)).toEqual(GOLDEN_32);
    expect(h.outputArray(1)).toEqual(NOISE_32);
  });

  it('16 channels (TFLM FilterBankSpectralSubtractionTest16Channel)', () => {
    const h = harness([393, 213, 408, 1, 361, 385, 386, 326, 170, 368, 368, 305, 152, 322, 213, 319]).invoke();
    expect(h.outputArray(0)).toEqual([378, 205, 392, 1, 347, 370, 371, 313, 164, 354, 354, 293, 146, 310, 205, 307]);
    expect(h.outputArray(1)).toEqual([15, 8, 16, 0, 14, 15, 15, 13, 6, 14, 14, 12, 6, 12, 8, 12]);
  });

  it('keeps the noise estimate across invokes; reset() zeroes it (TFLM ...32ChannelReset)', () => {
    const h = harness(INPUT_32).invoke();
    h.invoke();
    expect(h.outputArray(1)).not.toEqual(NOISE_32); // the estimate moved on
    expect(h.outputArray(0)).not.toEqual(GOLDEN_32);
    h.reset().invoke();
    expect(h.outputArray(0)).toEqual(GOLDEN_32);
    expect(h.outputArray(1)).toEqual(NOISE_32);
    expect(h.persistentBytes).toBeGreaterThanOrEqual(32 * 4); // the state is in the arena
  });

  it('matches the C arithmetic (uint32 wrap, uint64 products) on large inputs over several invokes', () => {
    const c = parseFlexMap(options(32));
    const cfg = {
      smoothing: BigInt(c.int32('smoothing') >>> 0),
      oneMinus: BigInt(c.int32('one_minus_smoothing') >>> 0),
      altSmoothing: BigInt(c.int32('alternate_smoothing') >>> 0),
      altOneMinus: BigInt(c.int32('alternate_one_minus_smoothing') >>> 0),
      minSignal: BigInt(c.int32('min_signal_remaining') >>> 0),
      bits: BigInt(c.int32('smoothing_bits')),
      ssBits: BigInt(c.int32('spectral_subtraction_bits')),
      clamping: c.bool('clamping'),
    };
    const U32 = 0xffffffffn;
    const noise = new Array<bigint>(32).fill(0n);
    const reference = (input: number[]) =>
      input.map((v, i) => {
        const x = BigInt(v);
        const [sm, om] = i % 2 === 0 ? [cfg.smoothing, cfg.oneMinus] : [cfg.altSmoothing, cfg.altOneMinus];
        const up = (x << cfg.bits) & U32;
        noise[i] = (((up * sm + noise[i]! * om) & ((1n << 64n) - 1n)) >> cfg.ssBits) & U32;
        let est = noise[i]!;
        if (est > up) {
          est = up;
          if (cfg.clamping) noise[i] = est;
        }
        const floor = ((x * cfg.minSignal) >> cfg.ssBits) & U32;
        const sub = (up - est) >> cfg.bits;
        return Number(sub > floor ? sub : floor);
      });
    const h = harness(new Array<number>(32).fill(0));
    let s = 1;
    for (let round = 0; round < 3; round++) {
      const input = Array.from({ length: 32 }, () => {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        return s;
      });
      h.setInput(0, input).invoke();
      expect(h.outputArray(0)).toEqual(reference(input));
      expect(h.outputArray(1)).toEqual(noise.map(Number));
    }
  });

  it('rejects tensors that do not have num_channels elements', () => {
    expect(() => harness(INPUT_32, options(16)).prepare()).toThrow(/input \(tensor 0\) has 32 elements, expected 16/);
  });
});
