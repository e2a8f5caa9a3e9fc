import { describe, expect, it } from 'vitest';
import { ArenaRegion, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { KissFftrInt16, kissFftrInt16StateBytes } from './kiss-fft-int16-common.js';
import { SIGNAL_RFFT } from './rfft.js';
import { RFFT_INT32_512_GOLDEN, RFFT_INT32_512_INPUT } from './__fixtures__/tflm-fft-test-data.js';

// Options from TFLM signal/micro/kernels/fft_flexbuffers_generated_data.cc: {T, fft_length}.
const FFT_64 = (type: number) =>
  Uint8Array.of(
    0x66,
    0x66,
    0x74,
    0x5f,
    0x6c,
    0x65,
    0x6e,
    0x67,
    0x74,
    0x68,
    0x00,
    0x54,
    0x00,
    0x02,
    0x03,
    0x0f,
    0x02,
    0x01,
    0x02,
    type,
    0x40,
    0x04,
    0x04,
    0x04,
    0x24,
    0x01,
  );
const FFT_512 = (type: number) =>
  Uint8Array.of(
    0x66,
    0x66,
    0x74,
    0x5f,
    0x6c,
    0x65,
    0x6e,
    0x67,
    0x74,
    0x68,
    0x00,
    0x54,
    0x00,
    0x02,
    0x03,
    0x0f,
    0x02,
    0x00,
    0x01,
    0x00,
    0x02,
    0x00,
    type,
    0x00,
    0x00,
    0x02,
    0x05,
    0x05,
    0x06,
    0x25,
    0x01,
  );
const FFT_512_INT16 = FFT_512(7);

function harness(input: number[], inputShape: number[], outputShape: number[], options: Uint8Array) {
  return new KernelHarness({
    registration: SIGNAL_RFFT,
    tensors: [
      { type: TensorType.INT16, shape: inputShape, data: input },
      { type: TensorType.INT16, shape: outputShape },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: options,
  });
}

const impulse = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 16384 : 0));
const flat = (bins: number) => Array.from({ length: 2 * bins }, (_, i) => (i % 2 === 0 ? 256 : 0));

describe('SignalRfft', () => {
  it('impulse of 64 samples (TFLM RfftTestSize64Int16)', () => {
    expect(harness(impulse(64), [64], [66], FFT_64(7)).invoke().outputArray()).toEqual(flat(33));
  });

  it('runs every frame of the outer dimensions (as TFLM RfftTestSize64Int32OuterDims4, for int16)', () => {
    const input = [...impulse(64), ...impulse(64), ...impulse(64), ...impulse(64)];
    expect(harness(input, [2, 2, 64], [2, 2, 66], FFT_64(7)).invoke().outputArray()).toEqual([
      ...flat(33),
      ...flat(33),
      ...flat(33),
      ...flat(33),
    ]);
  });

  it('zero-pads frames shorter than fft_length (480 samples into a 512-point FFT)', () => {
    let s = 7;
    const frame = Array.from({ length: 480 }, () => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return ((s >>> 12) & 0xffff) - 32768;
    });
    const got = harness(frame, [480], [514], FFT_512_INT16).invoke().outputArray();
    const bytes = kissFftrInt16StateBytes(512);
    const fft = new KissFftrInt16(512, new ArenaRegion(new ArrayBuffer(bytes), 0, bytes));
    const expected = new Int16Array(514);
    fft.forward(Int16Array.from([...frame, ...new Array<number>(32).fill(0)]), expected, 0);
    expect(got).toEqual(Array.from(expected));
  });

  it('float32: impulse of 64 samples, unscaled (TFLM RfftTestSize64Float)', () => {
    const h = new KernelHarness({
      registration: SIGNAL_RFFT,
      tensors: [
        { type: TensorType.FLOAT32, shape: [1, 64], data: impulse(64) },
        { type: TensorType.FLOAT32, shape: [1, 66] },
      ],
      inputs: [0],
      outputs: [1],
      customInitialData: FFT_64(0),
    }).invoke();
    expect(h.outputArray().map((v) => v + 0)).toEqual(Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 16384 : 0)));
    expect(h.scratchSizes).toEqual([256]);
  });

  it('int32: impulse of 64 samples and 512 samples bit-exact with TFLM (RfftTestSize64Int32, RfftTestSize512Int32)', () => {
    const run = (input: ArrayLike<number>, inShape: number[], outShape: number[], options: Uint8Array) =>
      new KernelHarness({
        registration: SIGNAL_RFFT,
        tensors: [
          { type: TensorType.INT32, shape: inShape, data: input },
          { type: TensorType.INT32, shape: outShape },
        ],
        inputs: [0],
        outputs: [1],
        customInitialData: options,
      }).invoke();
    expect(run(impulse(64), [1, 64], [1, 66], FFT_64(2)).outputArray()).toEqual(flat(33));
    const four = [...impulse(64), ...impulse(64), ...impulse(64), ...impulse(64)];
    const h = run(four, [2, 2, 64], [2, 2, 66], FFT_64(2));
    expect(h.outputArray()).toEqual([...flat(33), ...flat(33), ...flat(33), ...flat(33)]); // RfftTestSize64Int32OuterDims4
    expect(h.scratchSizes).toEqual([256]);
    expect(run(RFFT_INT32_512_INPUT, [1, 512], [1, 514], FFT_512(2)).outputArray()).toEqual(Array.from(RFFT_INT32_512_GOLDEN));
  });

  it('keeps its state in the arena and its padded frame in scratch', () => {
    const h = harness(impulse(64), [64], [66], FFT_64(7)).prepare();
    expect(h.scratchSizes).toEqual([128]);
    expect(h.persistentBytes).toBeGreaterThanOrEqual(kissFftrInt16StateBytes(64));
  });

  it('rejects unsupported types, lengths and shapes', () => {
    expect(harness(impulse(64), [64], [66], FFT_64(9)).supportsAnswer()).toBe('T = int8 (handles int16, int32, float32)');
    expect(() => harness(impulse(64), [64], [66], FFT_64(9)).prepare()).toThrow(/T = int8 is not supported/);
    expect(() => harness(impulse(64), [64], [66], FFT_64(0)).prepare()).toThrow(/input \(tensor 0\) has type int16, expected float32/);
    expect(() => harness(impulse(64), [64], [64], FFT_64(7)).prepare()).toThrow(
      /last output dimension is 64, expected fft_length \+ 2 = 66/,
    );
    expect(() => harness(impulse(80), [80], [66], FFT_64(7)).prepare()).toThrow(/frame length 80 .* must be in \[1, fft_length = 64\]/);
    expect(() => harness(impulse(64), [2, 32], [66], FFT_64(7)).prepare()).toThrow(/same rank/);
  });
});
