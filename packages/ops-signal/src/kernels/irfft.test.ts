import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_IRFFT } from './irfft.js';
import { SIGNAL_RFFT } from './rfft.js';
import {
  IRFFT_INT16_512_GOLDEN,
  IRFFT_INT16_512_INPUT,
  IRFFT_INT32_512_GOLDEN,
  IRFFT_INT32_512_INPUT,
} from './__fixtures__/tflm-fft-test-data.js';

// Options from TFLM signal/micro/kernels/fft_flexbuffers_generated_data.cc: {T, fft_length}; T is byte 19
// of the 64-point buffers and byte 22 of the 512-point ones (0 float32, 2 int32, 7 int16).
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

const T_FLOAT = 0;
const T_INT32 = 2;
const T_INT16 = 7;

function harness(type: TensorType, input: ArrayLike<number>, inShape: number[], outShape: number[], options: Uint8Array) {
  return new KernelHarness({
    registration: SIGNAL_IRFFT,
    tensors: [
      { type, shape: inShape, data: input },
      { type, shape: outShape },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: options,
  });
}

const flat = (bins: number) => Array.from({ length: 2 * bins }, (_, i) => (i % 2 === 0 ? 256 : 0));
const impulse = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 256 : 0));

describe('SignalIrfft', () => {
  it('flat spectrum -> impulse, 64 points, int16 / int32 / float32 (TFLM IrfftTestLength64*)', () => {
    expect(harness(TensorType.INT16, flat(33), [1, 66], [1, 64], FFT_64(T_INT16)).invoke().outputArray()).toEqual(impulse(64));
    expect(harness(TensorType.INT32, flat(33), [1, 66], [1, 64], FFT_64(T_INT32)).invoke().outputArray()).toEqual(impulse(64));
    expect(
      harness(TensorType.FLOAT32, flat(33), [1, 66], [1, 64], FFT_64(T_FLOAT))
        .invoke()
        .outputArray()
        .map((v) => v + 0),
    ).toEqual(impulse(64));
  });

  it('every frame of the outer dimensions (TFLM IrfftTestLength64Int32OuterDims4)', () => {
    const out = harness(TensorType.INT32, [...flat(33), ...flat(33), ...flat(33), ...flat(33)], [2, 2, 66], [2, 2, 64], FFT_64(T_INT32))
      .invoke()
      .outputArray();
    expect(out).toEqual([...impulse(64), ...impulse(64), ...impulse(64), ...impulse(64)]);
  });

  it('512 points, int16 and int32, bit-exact with TFLM (IrfftTestLength512Int16 / Int32)', () => {
    expect(harness(TensorType.INT16, IRFFT_INT16_512_INPUT, [1, 514], [1, 512], FFT_512(T_INT16)).invoke().outputArray()).toEqual(
      Array.from(IRFFT_INT16_512_GOLDEN),
    );
    expect(harness(TensorType.INT32, IRFFT_INT32_512_INPUT, [1, 514], [1, 512], FFT_512(T_INT32)).invoke().outputArray()).toEqual(
      Array.from(IRFFT_INT32_512_GOLDEN),
    );
  });

  it('float32 is the normalized inverse DFT: SignalRfft then SignalIrfft returns the frame', () => {
    for (const n of [64, 120, 512]) {
      const options = n === 512 ? FFT_512(T_FLOAT) : Uint8Array.from(FFT_64(T_FLOAT), (b, i) => (i === 20 ? n : b));
      let s = n;
      const frame = Array.from({ length: n }, () => {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        return Math.fround(((s >>> 8) / 2 ** 24) * 2 - 1);
      });
      const rfft = new KernelHarness({
        registration: SIGNAL_RFFT,
        tensors: [
          { type: TensorType.FLOAT32, shape: [n], data: frame },
          { type: TensorType.FLOAT32, shape: [n + 2] },
        ],
        inputs: [0],
        outputs: [1],
        customInitialData: options,
      }).invoke();
      const back = harness(TensorType.FLOAT32, rfft.outputArray(), [n + 2], [n], options)
        .invoke()
        .outputArray();
      for (let t = 0; t < n; t++)
        expect(Math.abs(back[t]! - frame[t]!), `n=${n} sample ${t}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(frame[t]!));
    }
  });

  it('keeps the kissfft state in the arena and needs no scratch', () => {
    const h = harness(TensorType.INT16, flat(33), [1, 66], [1, 64], FFT_64(T_INT16)).prepare();
    expect(h.scratchSizes).toEqual([]);
    expect(h.persistentBytes).toBeGreaterThan(256);
  });

  it('rejects unsupported types, lengths and shapes', () => {
    expect(harness(TensorType.INT8, flat(33), [1, 66], [1, 64], FFT_64(9)).supportsAnswer()).toBe(
      'T = int8 (handles int16, int32, float32)',
    );
    expect(() => harness(TensorType.INT8, flat(33), [1, 66], [1, 64], FFT_64(9)).prepare()).toThrow(/T = int8 is not supported/);
    expect(() => harness(TensorType.INT16, flat(33), [1, 66], [1, 64], FFT_64(T_INT32)).prepare()).toThrow(
      /input \(tensor 0\) has type int16, expected int32/,
    );
    expect(() => harness(TensorType.INT16, flat(32), [1, 64], [1, 64], FFT_64(T_INT16)).prepare()).toThrow(
      /last input dimension is 64, expected fft_length \+ 2 = 66/,
    );
    expect(() => harness(TensorType.INT16, flat(33), [1, 66], [1, 66], FFT_64(T_INT16)).prepare()).toThrow(
      /last output dimension is 66, expected fft_length = 64/,
    );
    expect(() => harness(TensorType.INT16, flat(33), [66], [1, 64], FFT_64(T_INT16)).prepare()).toThrow(/same rank/);
    expect(() => harness(TensorType.INT16, [...flat(33), ...flat(33)], [2, 66], [1, 64], FFT_64(T_INT16)).prepare()).toThrow(
      /input has 2 frames but output has 1/,
    );
    const odd = Uint8Array.from(FFT_64(T_INT16), (b, i) => (i === 20 ? 14 : b));
    expect(() => harness(TensorType.INT16, flat(8), [1, 16], [1, 14], odd).prepare()).toThrow(/prime factor 7/);
  });
});
