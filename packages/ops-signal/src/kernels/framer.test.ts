import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_FRAMER } from './framer.js';

// Options from TFLM signal/micro/kernels/framer_flexbuffers_generated_data.cc: {frame_size, frame_step,
// prefill} at bytes 37, 38, 39 (3_1_0 and 5_2_1 are TFLM's two buffers).
function options(frameSize: number, frameStep: number, prefill: boolean): Uint8Array {
  const bytes = Uint8Array.of(
    0x66,
    0x72,
    0x61,
    0x6d,
    0x65,
    0x5f,
    0x73,
    0x69,
    0x7a,
    0x65,
    0x00,
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
    0x70,
    0x72,
    0x65,
    0x66,
    0x69,
    0x6c,
    0x6c,
    0x00,
    0x03,
    0x1f,
    0x15,
    0x0b,
    0x03,
    0x01,
    0x03,
    0x03,
    0x01,
    0x00,
    0x04,
    0x04,
    0x68,
    0x06,
    0x24,
    0x01,
  );
  bytes[37] = frameSize;
  bytes[38] = frameStep;
  bytes[39] = prefill ? 1 : 0;
  return bytes;
}

function harness(inShape: number[], outShape: number[], opts: Uint8Array, validShape: number[] = []) {
  return new KernelHarness({
    registration: SIGNAL_FRAMER,
    tensors: [
      { type: TensorType.INT16, shape: inShape },
      { type: TensorType.INT16, shape: outShape },
      { type: TensorType.BOOL, shape: validShape },
    ],
    inputs: [0],
    outputs: [1, 2],
    customInitialData: opts,
  });
}

/**
 * TFLM's TestFramerInvoke: feeds the golden stream (after the latency) to every row, checks the valid
 * flag and, when valid, every frame of every row against the golden stream.
 */
function checkAgainstGolden(
  h: KernelHarness,
  inShape: number[],
  outShape: number[],
  golden: number[],
  frameSize: number,
  frameStep: number,
  prefill: boolean,
): void {
  const latency = frameSize - frameStep;
  const inputSize = inShape[inShape.length - 1]!;
  const outer = inShape.slice(0, -1).reduce((a, b) => a * b, 1);
  const nFrames = outShape[outShape.length - 2]!;
  for (let i = 0; i < golden.length - latency; i += inputSize) {
    const row = golden.slice(latency + i, latency + i + inputSize);
    h.setInput(0, Array.from({ length: outer }, () => row).flat()).invoke();
    const ready = h.outputArray(1)[0] === 1;
    expect(ready, `step ${i}`).toBe(i >= latency || prefill);
    if (!ready) continue;
    const out = h.outputArray(0);
    for (let o = 0; o < outer; o++)
      for (let f = 0; f < nFrames; f++) {
        const at = o * frameSize * nFrames + f * frameSize;
        expect(out.slice(at, at + frameSize), `step ${i}, row ${o}, frame ${f}`).toEqual(
          golden.slice(i + f * frameStep, i + f * frameStep + frameSize),
        );
      }
  }
}

const GOLDEN_3_1_0 = [0x0, 0x0, 0x1234, 0x5678, 0x4321, 0x7777];
const GOLDEN_5_2_1 = [0x0, 0x0, 0x0, 0x1010, 0x0202, 0x7070, 0x0606];

describe('SignalFramer', () => {
  it('frame 3, step 1, no prefill (TFLM FramerTest_3_1_0)', () => {
    checkAgainstGolden(harness([1], [1, 3], options(3, 1, false)), [1], [1, 3], GOLDEN_3_1_0, 3, 1, false);
  });

  it('frame 5, step 2, prefill (TFLM FramerTest_5_2_1)', () => {
    checkAgainstGolden(harness([2], [1, 5], options(5, 2, true)), [2], [1, 5], GOLDEN_5_2_1, 5, 2, true);
  });

  it('two frames per invoke (TFLM FramerTest_5_2_1_NFrames2)', () => {
    checkAgainstGolden(harness([4], [2, 5], options(5, 2, true)), [4], [2, 5], GOLDEN_5_2_1, 5, 2, true);
  });

  it('outer dims [2, 2] (TFLM FramerTest_5_2_1_NFrames2OuterDims4)', () => {
    checkAgainstGolden(harness([2, 2, 4], [2, 2, 2, 5], options(5, 2, true)), [2, 2, 4], [2, 2, 2, 5], GOLDEN_5_2_1, 5, 2, true);
  });

  it('reset() empties the buffers (TFLM TestReset)', () => {
    const h = harness([1], [1, 3], options(3, 1, false));
    checkAgainstGolden(h, [1], [1, 3], GOLDEN_3_1_0, 3, 1, false);
    h.reset();
    checkAgainstGolden(h, [1], [1, 3], GOLDEN_3_1_0, 3, 1, false);
  });

  it('equals plain framing of the stream, over many invokes and several shapes; incomplete frames are zeros', () => {
    for (const [size, step, prefill, perInvoke] of [
      [5, 2, false, 2],
      [5, 2, true, 4],
      [7, 3, true, 6],
      [4, 4, false, 4],
      [3, 5, false, 5],
      [6, 1, true, 1],
    ] as const) {
      const h = harness([2, perInvoke], [2, perInvoke / step, size], options(size, step, prefill));
      const stream: number[][] = [
        prefill ? new Array<number>(size - step).fill(0) : [],
        prefill ? new Array<number>(size - step).fill(0) : [],
      ];
      const consumed = [0, 0];
      let s = size * 7 + step;
      for (let t = 0; t < 8; t++) {
        const input = Array.from({ length: 2 * perInvoke }, () => {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          return ((s >>> 8) & 0xffff) - 32768;
        });
        h.setInput(0, input).invoke();
        const out = h.outputArray(0);
        let allValid = true;
        for (let r = 0; r < 2; r++) {
          for (let f = 0; f < perInvoke / step; f++) {
            stream[r]!.push(...input.slice(r * perInvoke + f * step, r * perInvoke + (f + 1) * step));
            const at = (r * (perInvoke / step) + f) * size;
            const got = out.slice(at, at + size);
            if (stream[r]!.length - consumed[r]! >= size) {
              expect(got, `size ${size} step ${step} t ${t} row ${r} frame ${f}`).toEqual(
                stream[r]!.slice(consumed[r]!, consumed[r]! + size),
              );
              consumed[r]! += step;
            } else {
              allValid = false;
              expect(got).toEqual(new Array<number>(size).fill(0));
            }
          }
        }
        expect(h.outputArray(1)).toEqual([allValid ? 1 : 0]);
      }
    }
  });

  it('rounds the buffer capacity up to a multiple of the step, as TFLM (100 / 40 -> 120, not 140)', () => {
    const h = harness([40], [1, 100], options(100, 40, false)).prepare();
    const align = (n: number) => Math.ceil(n / 16) * 16;
    expect(h.persistentBytes).toBe(align(5 * 4) + align(40 + 4 * 120));
  });

  it('rejects bad shapes and options', () => {
    expect(() => harness([3], [1, 5], options(5, 2, true)).prepare()).toThrow(
      /last input dimension 3 must be a positive multiple of frame_step 2/,
    );
    expect(() => harness([4], [2, 4], options(5, 2, true)).prepare()).toThrow(/output shape \[2, 4\] must be \[2, 5\]/);
    expect(() => harness([4], [2, 5], options(5, 2, true), [1]).prepare()).toThrow(/valid output .* must have 0 dimension/);
    expect(() => harness([6], [2, 2], options(2, 3, true)).prepare()).toThrow(/prefill needs frame_step \(3\) <= frame_size \(2\)/);
    expect(() => harness([4], [2, 5], options(5, 0, true)).prepare()).toThrow(/option "frame_step" is 0/);
  });
});
