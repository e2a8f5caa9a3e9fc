import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_OVERLAP_ADD } from './overlap-add.js';

// Options from TFLM signal/micro/kernels/overlap_add_flexbuffers_generated_data.cc: {T, frame_step};
// T at byte 19 (0 float32, 7 int16), frame_step at byte 20.
function options(type: number, frameStep: number): Uint8Array {
  const bytes = Uint8Array.of(
    0x66,
    0x72,
    0x61,
    0x6d,
    0x65,
    0x5f,
    0x73,
    0x74,
    0x65,
    0x70,
    0x00,
    0x54,
    0x00,
    0x02,
    0x03,
    0x0f,
    0x02,
    0x01,
    0x02,
    0x07,
    0x01,
    0x04,
    0x04,
    0x04,
    0x24,
    0x01,
  );
  bytes[19] = type;
  bytes[20] = frameStep;
  return bytes;
}

function harness(type: TensorType, inShape: number[], outShape: number[], opts = options(type, 1)) {
  return new KernelHarness({
    registration: SIGNAL_OVERLAP_ADD,
    tensors: [
      { type, shape: inShape },
      { type, shape: outShape },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: opts,
  });
}

/** TFLM's TestOverlapAddInvoke: every row gets the same golden frames; every row's output must equal the golden output. */
function runGolden(h: KernelHarness, inShape: number[], goldenIn: number[], goldenOut: number[], frameStep: number): void {
  const frameSize = inShape[inShape.length - 1]!;
  const nFrames = inShape[inShape.length - 2]!;
  const outer = inShape.slice(0, -2).reduce((a, b) => a * b, 1);
  const iters = goldenOut.length / (nFrames * frameStep);
  for (let i = 0; i < iters; i++) {
    const block = goldenIn.slice(i * nFrames * frameSize, (i + 1) * nFrames * frameSize);
    const out = h
      .setInput(0, Array.from({ length: outer }, () => block).flat())
      .invoke()
      .outputArray();
    const expected = goldenOut.slice(i * nFrames * frameStep, (i + 1) * nFrames * frameStep);
    for (let o = 0; o < outer; o++)
      expect(out.slice(o * nFrames * frameStep, (o + 1) * nFrames * frameStep), `iteration ${i}, row ${o}`).toEqual(expected);
  }
}

// TFLM signal/micro/kernels/overlap_add_test.cc
const IN_16 = [125, -12, -895, 1000, 65, -212, 63, 71, 52, 1, -17, 32];
const OUT_16 = [125, 988, -767, -140];
const IN_F = [12.5, -1.2, -89.5, 100.0, 6.5, -21.2, 6.3, 7.1, 5.2, 0.1, -1.7, 3.2].map(Math.fround);
const OUT_F = [12.5, 98.8, -76.7, -14.0];

describe('SignalOverlapAdd', () => {
  it('int16, one frame per invoke (TFLM OverlapAddTestInt16)', () => {
    runGolden(harness(TensorType.INT16, [1, 3], [1]), [1, 3], IN_16, OUT_16, 1);
  });

  it('float32, one frame per invoke (TFLM OverlapAddTestFloat)', () => {
    const h = harness(TensorType.FLOAT32, [1, 3], [1], options(0, 1));
    for (let i = 0; i < 4; i++) {
      const out = h
        .setInput(0, IN_F.slice(3 * i, 3 * i + 3))
        .invoke()
        .outputArray();
      expect(Math.abs(out[0]! - OUT_F[i]!)).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(OUT_F[i]!));
    }
  });

  it('int16, four frames per invoke (TFLM OverlapAddTestNframes4Int16)', () => {
    runGolden(harness(TensorType.INT16, [4, 3], [4]), [4, 3], IN_16, OUT_16, 1);
  });

  it('int16, outer dims [2, 2] (TFLM OverlapAddTestNframes4OuterDims4Int16)', () => {
    runGolden(harness(TensorType.INT16, [2, 2, 4, 3], [2, 2, 4]), [2, 2, 4, 3], IN_16, OUT_16, 1);
  });

  it('reset() zeroes the accumulators (TFLM testReset)', () => {
    const h = harness(TensorType.INT16, [2, 2, 4, 3], [2, 2, 4]);
    runGolden(h, [2, 2, 4, 3], IN_16, OUT_16, 1);
    h.reset();
    runGolden(h, [2, 2, 4, 3], IN_16, OUT_16, 1);
  });

  it('equals a plain overlap-add over many invokes; int16 saturates in the accumulator', () => {
    for (const [size, step] of [
      [6, 2],
      [5, 5],
      [7, 3],
    ] as const) {
      const h = harness(TensorType.INT16, [2, 3, size], [2, 3 * step], options(7, step));
      const acc = [new Array<number>(size).fill(0), new Array<number>(size).fill(0)];
      let s = size * 13 + step;
      for (let t = 0; t < 6; t++) {
        const input = Array.from({ length: 2 * 3 * size }, () => {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          return ((s >>> 8) & 0xffff) - 32768;
        });
        const out = h.setInput(0, input).invoke().outputArray();
        const expected: number[] = [];
        for (let r = 0; r < 2; r++)
          for (let f = 0; f < 3; f++) {
            const a = acc[r]!;
            for (let j = 0; j < size; j++) a[j] = Math.max(-32768, Math.min(32767, a[j]! + input[(r * 3 + f) * size + j]!));
            expected.push(...a.slice(0, step));
            a.splice(0, step);
            a.push(...new Array<number>(step).fill(0));
          }
        expect(out, `size ${size} step ${step} t ${t}`).toEqual(expected);
      }
    }
  });

  it('float32 matches a float32 overlap-add', () => {
    const h = harness(TensorType.FLOAT32, [2, 4], [4], options(0, 2));
    const acc = new Float32Array(4);
    for (let t = 0; t < 5; t++) {
      const input = Array.from({ length: 8 }, (_, i) => Math.fround(Math.sin(t * 8 + i) * 3));
      const out = h.setInput(0, input).invoke().outputArray();
      const expected: number[] = [];
      for (let f = 0; f < 2; f++) {
        for (let j = 0; j < 4; j++) acc[j] = acc[j]! + input[f * 4 + j]!;
        expected.push(acc[0]!, acc[1]!);
        acc.copyWithin(0, 2);
        acc.fill(0, 2);
      }
      expect(out).toEqual(expected);
    }
  });

  it('keeps frame_size accumulator elements per row in the arena', () => {
    const h = harness(TensorType.INT16, [3, 2, 8], [3, 8], options(7, 4)).prepare();
    expect(h.persistentBytes).toBe(16 + 3 * 16);
  });

  it('rejects bad types, shapes and options', () => {
    expect(harness(TensorType.INT32, [1, 3], [1], options(2, 1)).supportsAnswer()).toBe('T = int32 (handles int16, float32)');
    expect(() => harness(TensorType.INT32, [1, 3], [1], options(2, 1)).prepare()).toThrow(/T = int32 is not supported/);
    expect(() => harness(TensorType.INT16, [1, 3], [1], options(0, 1)).prepare()).toThrow(
      /input \(tensor 0\) has type int16, expected float32/,
    );
    expect(() => harness(TensorType.INT16, [3], [1]).prepare()).toThrow(/must have at least 2 dimensions/);
    expect(() => harness(TensorType.INT16, [2, 3], [3]).prepare()).toThrow(/output shape \[3\] must be \[2\]/);
    expect(() => harness(TensorType.INT16, [2, 3], [8], options(7, 4)).prepare()).toThrow(/option "frame_step" is 4, must be in \[1, 3\]/);
  });
});
