/**
 * TFLM_DECODE's invoke() allocates nothing, for each decoder and output kind (LUT int8 / float32 per
 * channel / int64, prune per-channel int8 and float32, Huffman with 16- and 32-bit tables): prepared with
 * KernelHarness, then invoked thousands of times through a bare invoke-phase context while the heap is
 * watched. In a file of its own, as the other allocation tests.
 */
import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { TFLM_DECODE } from './decode.js';

const dcm = (type: number, ...rest: number[]) => {
  const b = new Uint8Array(16);
  b[0] = type;
  b[1] = 1;
  b.set(rest, 4);
  return b;
};
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));
const bytesOf = (a: { buffer: ArrayBufferLike }) => new Uint8Array(a.buffer);
const pattern = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 73 + 11) & 0xff);

const HUFFMAN16 = [
  0x986d, 0x9861, 0x986a, 0x0005, 0x0806, 0x0809, 0x000e, 0x000f, 0x886f, 0x8868, 0x8864, 0x8864, 0x9069, 0x9066, 0x8863, 0x8863, 0x0002,
  0x906b, 0x8867, 0x886c, 0x8865, 0x8862, 0x8870, 0x886e,
];
const HUFFMAN32 = HUFFMAN16.map((v) => (((v & 0x8000) << 16) | ((v & 0x7800) << 16) | (v & 0x07ff)) >>> 0);
const ENCODED_HUFFMAN = Uint8Array.of(
  0xf0,
  0x0d,
  0x79,
  0xfc,
  0x9c,
  0x1a,
  0x6e,
  0x4c,
  0x32,
  0xaf,
  0x29,
  0xb3,
  0x5d,
  0xf6,
  0x36,
  0x02,
  0x50,
  0x15,
  0x8c,
  0xa7,
  0x95,
  0xdb,
  0x29,
  0x68,
  0x3f,
  0xba,
  0xb7,
  0xed,
  0xb1,
  0x19,
  0xe2,
  0xe0,
);

const one = (encoded: Uint8Array, ancillary: Uint8Array, output: HarnessTensorSpec) => ({
  registration: TFLM_DECODE,
  tensors: [
    { type: TensorType.UINT8, shape: [encoded.length], data: encoded, constant: true },
    { type: TensorType.UINT8, shape: [ancillary.length], data: ancillary, constant: true },
    output,
  ],
  inputs: [0, 1],
  outputs: [2],
});
const perChannel = (n: number, axis: number) => ({
  scale: new Array<number>(n).fill(0.1),
  zeroPoint: Array.from({ length: n }, (_, c) => c - 2),
  quantizedDimension: axis,
});

const configs: [string, ReturnType<typeof one>][] = [
  [
    'LUT int8, 3-bit indices',
    one(pattern(Math.ceil((256 * 3) / 8)), cat(dcm(0, 1, 3, 8), pattern(8)), { type: TensorType.INT8, shape: [16, 16] }),
  ],
  [
    'LUT float32, 4 channels on the last axis',
    one(pattern(128), cat(dcm(0, 1, 4, 16), bytesOf(Float32Array.from({ length: 64 }, (_, i) => i / 7))), {
      type: TensorType.FLOAT32,
      shape: [64, 4],
      ...perChannel(4, 1),
    }),
  ],
  [
    'LUT int64',
    one(pattern(32), cat(dcm(0, 1, 2, 4), bytesOf(BigInt64Array.of(1n, -1n, 1n << 50n, 7n))), { type: TensorType.INT64, shape: [128] }),
  ],
  [
    'prune int8, 4 channels on axis 0',
    one(pattern(16), cat(dcm(2, 1), pattern(128)), { type: TensorType.INT8, shape: [4, 32], ...perChannel(4, 0) }),
  ],
  [
    'prune float32',
    one(pattern(16), cat(dcm(2, 1), bytesOf(Float32Array.from({ length: 128 }, (_, i) => i - 64))), {
      type: TensorType.FLOAT32,
      shape: [128],
    }),
  ],
  [
    'Huffman, 16-bit table, int8',
    one(ENCODED_HUFFMAN, cat(dcm(1, 1, 2 << 4), bytesOf(Uint16Array.from(HUFFMAN16))), { type: TensorType.INT8, shape: [64] }),
  ],
  [
    'Huffman, 32-bit table, int16',
    one(ENCODED_HUFFMAN, cat(dcm(1, 1, (2 << 4) | 1), bytesOf(Uint32Array.from(HUFFMAN32))), { type: TensorType.INT16, shape: [64] }),
  ],
];

describe('TFLM_DECODE: invoke() allocates nothing', () => {
  for (const [name, options] of configs) {
    it(name, () => {
      const h = new KernelHarness(options).prepare();
      h.invoke();
      const context = invokeOnlyContext(h);
      const node = h.node;
      const m = measureAllocation(() => TFLM_DECODE.invoke(context, node), { warmup: 5000, trials: 5, iterations: 1000 });
      expect(m.medianTrialBytes, `heap deltas per 1000 invokes: ${m.deltas.join(', ')}`).toBeLessThan(2048);
    });
  }
});
