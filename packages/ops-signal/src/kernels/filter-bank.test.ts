import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_FILTER_BANK } from './filter-bank.js';

// Vectors from TFLM signal/micro/kernels/filter_bank_test.cc (FilterBankTest16Channel) and its flexbuffers.
const NUM_CHANNELS = (n: number) =>
  Uint8Array.of(
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
    0x01,
    0x0e,
    0x01,
    0x01,
    0x01,
    n,
    0x04,
    0x02,
    0x24,
    0x01,
  );
const ENERGY = [
  645050, 4644, 3653, 24262, 56660, 43260, 50584, 57902, 31702, 5401, 45555, 34852, 8518, 43556, 13358, 19350, 40221, 18017, 27284, 64491,
  60099, 17863, 11001, 29076, 32666, 65268, 50947, 28694, 32377, 30014, 25607, 22547, 45086, 10654, 46797, 8622, 47348, 43085, 5747, 51544,
  50364, 6208, 20696, 59782, 14429, 60125, 37079, 32673, 63457, 60142, 34042, 11280, 1874, 33734, 62118, 13766, 54398, 47818, 50976, 46930,
  25906, 59441, 25958, 59136, 1756, 18652, 29213, 13379, 51845, 1207, 55626, 27108, 43771, 35236, 3374, 40959, 47707, 41540, 34282, 27094,
  36329, 13593, 65257, 47006, 46857, 1114, 37106, 18738, 25969, 15461, 2842, 36470, 32489, 61622, 23613, 29624, 32820, 30438, 9543, 6767,
  23037, 52896, 12059, 32264, 11575, 42400, 43344, 27511, 16712, 6877, 4910, 50047, 61569, 57237, 48558, 2310, 22192, 7874, 46141, 64056,
  61997, 7298, 31372, 25316, 683, 58940, 18755, 17898, 19196,
];
const WEIGHTS = [
  -2210, 1711, 3237, 1247, 2507, 61, 1019, 899, 206, 146, 2849, 2756, 1260, 1280, 1951, 213, 617, 2047, 211, 347, 2821, 3747, 150, 1924,
  3962, 942, 1430, 2678, 993, 308, 3364, 2491, 954, 1308, 879, 3950, 1, 3556, 3628, 2104, 78, 1298, 1080, 342, 1337, 1639, 2352, 829, 1358,
  2498, 1647, 2507, 3816, 3767, 3735, 1155, 2221, 2196, 1160,
];
const UNWEIGHTS = [
  408, 3574, 1880, 2561, 2011, 3394, 1019, 445, 3901, 343, 1874, 3846, 3566, 1830, 327, 111, 623, 1037, 2803, 1947, 1518, 661, 3239, 2351,
  1257, 269, 1574, 3431, 3972, 2487, 2181, 1458, 552, 717, 679, 1031, 1738, 1782, 128, 2242, 353, 1460, 3305, 1424, 3813, 2895, 164, 272,
  3886, 3135, 141, 747, 3233, 1478, 2612, 3837, 3271, 73, 1746,
];
const FREQ_STARTS = [5, 6, 7, 9, 11, 12, 14, 16, 18, 20, 22, 25, 27, 30, 32, 35, 33];
const WEIGHT_STARTS = [0, 1, 2, 4, 6, 7, 9, 11, 13, 15, 17, 20, 22, 25, 27, 30, 33];
const WIDTHS = [1, 1, 2, 2, 1, 2, 2, 2, 2, 2, 3, 2, 3, 2, 3, 3, 3];
const GOLDEN = [
  104199304n,
  407748384n,
  206363744n,
  200989269n,
  52144406n,
  230780884n,
  174394190n,
  379684049n,
  94840835n,
  57788823n,
  531528204n,
  318265707n,
  263149795n,
  188110467n,
  501443259n,
  200747781n,
];

function harness(options: Uint8Array, opts: { outputChannels?: number; constant?: boolean; energy?: number[]; weights?: number[] } = {}) {
  const i16 = (data: number[]) => ({ type: TensorType.INT16, shape: [data.length], data, constant: opts.constant ?? true });
  const energy = opts.energy ?? ENERGY;
  return new KernelHarness({
    registration: SIGNAL_FILTER_BANK,
    tensors: [
      { type: TensorType.UINT32, shape: [energy.length], data: energy },
      i16(opts.weights ?? WEIGHTS),
      i16(UNWEIGHTS),
      i16(FREQ_STARTS),
      i16(WEIGHT_STARTS),
      i16(WIDTHS),
      { type: TensorType.UINT64, shape: [opts.outputChannels ?? 16] },
    ],
    inputs: [0, 1, 2, 3, 4, 5],
    outputs: [6],
    customInitialData: options,
  });
}

describe('SignalFilterBank', () => {
  it('16 channels (TFLM FilterBankTest16Channel)', () => {
    expect(Array.from(harness(NUM_CHANNELS(16)).invoke().output<BigUint64Array>())).toEqual(GOLDEN);
  });

  it('gives the same result with non-constant channel tables', () => {
    expect(Array.from(harness(NUM_CHANNELS(16), { constant: false }).invoke().output<BigUint64Array>())).toEqual(GOLDEN);
  });

  it('accumulates beyond 2^53 exactly and wraps negative weights modulo 2^64', () => {
    // every bin 0xffffffff with weight 32767 / unweight 408: 64-bit sums far above 2^53
    const energy = new Array<number>(129).fill(0xffffffff);
    const weights = WEIGHTS.map((w, i) => (i === 1 ? -32768 : 32767));
    const out = Array.from(harness(NUM_CHANNELS(16), { energy, weights }).invoke().output<BigUint64Array>());
    // reference: the C loop with uint64 wrap-around
    const M = (1n << 64n) - 1n;
    let w = 0n;
    let u = 0n;
    const ref: bigint[] = [];
    for (let c = 0; c <= 16; c++) {
      for (let j = 0; j < WIDTHS[c]!; j++) {
        w = (w + BigInt(weights[WEIGHT_STARTS[c]! + j]!) * 0xffffffffn) & M;
        u = (u + BigInt(UNWEIGHTS[WEIGHT_STARTS[c]! + j]!) * 0xffffffffn) & M;
      }
      ref.push(w);
      w = u;
      u = 0n;
    }
    expect(out).toEqual(ref.slice(1));
    expect(out[0]).toBe((-32768n * 0xffffffffn + 408n * 0xffffffffn) & M); // channel 1 got the negative weight
  });

  it('rejects num_channels larger than the channel tables (TFLM FilterBankNumChannelsOverflowPoc)', () => {
    expect(() => harness(NUM_CHANNELS(32), { outputChannels: 32 }).prepare()).toThrow(/has 17 entries, num_channels 32 needs 33/);
  });

  it('rejects channel tables reading outside the energy tensor', () => {
    expect(() => harness(NUM_CHANNELS(16), { energy: ENERGY.slice(0, 36) }).prepare()).toThrow(
      /channel 15 reads energy bins \[35, 38\) outside \[0, 36\)/,
    );
  });

  it('rejects an output of another length or type', () => {
    expect(() => harness(NUM_CHANNELS(16), { outputChannels: 15 }).prepare()).toThrow(/output \(tensor 6\) has 15 elements, expected 16/);
  });
});
