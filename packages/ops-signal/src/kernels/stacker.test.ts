import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_STACKER } from './stacker.js';

// Options from TFLM signal/micro/kernels/stacker_flexbuffers_generated_data.cc: {num_channels,
// stacker_left_context, stacker_right_context, stacker_step} at bytes 77..80.
function options(numChannels: number, left: number, right: number, step: number): Uint8Array {
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
    0x74,
    0x61,
    0x63,
    0x6b,
    0x65,
    0x72,
    0x5f,
    0x6c,
    0x65,
    0x66,
    0x74,
    0x5f,
    0x63,
    0x6f,
    0x6e,
    0x74,
    0x65,
    0x78,
    0x74,
    0x00,
    0x73,
    0x74,
    0x61,
    0x63,
    0x6b,
    0x65,
    0x72,
    0x5f,
    0x72,
    0x69,
    0x67,
    0x68,
    0x74,
    0x5f,
    0x63,
    0x6f,
    0x6e,
    0x74,
    0x65,
    0x78,
    0x74,
    0x00,
    0x73,
    0x74,
    0x61,
    0x63,
    0x6b,
    0x65,
    0x72,
    0x5f,
    0x73,
    0x74,
    0x65,
    0x70,
    0x00,
    0x04,
    0x46,
    0x3a,
    0x26,
    0x11,
    0x04,
    0x01,
    0x04,
    0x03,
    0x01,
    0x00,
    0x01,
    0x04,
    0x04,
    0x04,
    0x04,
    0x08,
    0x24,
    0x01,
  );
  bytes[77] = numChannels;
  bytes[78] = left;
  bytes[79] = right;
  bytes[80] = step;
  return bytes;
}

function harness(channels: number, outLen: number, opts: Uint8Array) {
  return new KernelHarness({
    registration: SIGNAL_STACKER,
    tensors: [
      { type: TensorType.INT16, shape: [channels] },
      { type: TensorType.INT16, shape: [outLen] },
      { type: TensorType.BOOL, shape: [] },
    ],
    inputs: [0],
    outputs: [1, 2],
    customInitialData: opts,
  });
}

// TFLM signal/micro/kernels/stacker_test.cc
const IN_3 = [0x1234, 0x5678, 0x4321];
const IN_10A = [252, 477, 1071, 166, 1022, 312, 1171, 1586, 1491, 145];
const IN_10B = [1060, 200, 69, 1519, 883, 1317, 182, 724, 143, 334];

describe('SignalStacker', () => {
  it('3 channels, left context 1, step 1 (TFLM StackerTest3ChannelStep1)', () => {
    const h = harness(3, 6, options(3, 1, 0, 1))
      .setInput(0, IN_3)
      .invoke();
    expect(h.outputArray(1)).toEqual([1]);
    expect(h.outputArray(0)).toEqual([...IN_3, ...IN_3]);
  });

  it('10 channels, step 2 (TFLM StackerTest10ChannelStep2_1stTest / _2ndTest)', () => {
    for (const input of [IN_10A, IN_10B]) {
      const h = harness(10, 20, options(10, 1, 0, 2))
        .setInput(0, input)
        .invoke();
      expect(h.outputArray(1)).toEqual([1]);
      expect(h.outputArray(0)).toEqual([...input, ...input]);
    }
  });

  it('reset() forgets the first frame (TFLM StackerTestReset*)', () => {
    for (const [channels, step, input] of [
      [3, 1, IN_3],
      [10, 2, IN_10A],
      [10, 2, IN_10B],
    ] as const) {
      const h = harness(channels, 2 * channels, options(channels, 1, 0, step))
        .setInput(0, input)
        .invoke();
      expect(h.outputArray(0)).toEqual([...input, ...input]);
      h.reset().invoke();
      expect(h.outputArray(1)).toEqual([1]);
      expect(h.outputArray(0)).toEqual([...input, ...input]);
    }
  });

  it('equals plain stacking of the frame stream (left padding, right context, steps); not-ready outputs are zeros', () => {
    for (const [channels, left, right, step] of [
      [3, 2, 1, 1],
      [2, 0, 3, 2],
      [4, 1, 2, 4],
      [1, 3, 0, 3],
      [5, 0, 0, 1],
    ] as const) {
      const frames = left + right + 1;
      const h = harness(channels, channels * frames, options(channels, left, right, step));
      const stream: number[][] = [];
      let next = 0; // index in `stream` of the oldest frame of the next stack
      let s = channels * 17 + left;
      for (let t = 0; t < 12; t++) {
        const input = Array.from({ length: channels }, () => {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          return ((s >>> 8) & 0xffff) - 32768;
        });
        if (t === 0) for (let k = 0; k < left; k++) stream.push(input);
        stream.push(input);
        h.setInput(0, input).invoke();
        const what = `channels ${channels} left ${left} right ${right} step ${step} t ${t}`;
        if (stream.length - next >= frames) {
          expect(h.outputArray(1), what).toEqual([1]);
          expect(h.outputArray(0), what).toEqual(stream.slice(next, next + frames).flat());
          next += step;
        } else {
          expect(h.outputArray(1), what).toEqual([0]);
          expect(h.outputArray(0), what).toEqual(new Array<number>(channels * frames).fill(0));
        }
      }
    }
  });

  it('keeps a TFLM-sized circular buffer in the arena', () => {
    const h = harness(10, 40, options(10, 2, 1, 1)).prepare();
    const align = (n: number) => Math.ceil(n / 16) * 16;
    expect(h.persistentBytes).toBe(align(5 * 4) + align(40 + 4 * 40));
  });

  it('rejects bad shapes and options', () => {
    expect(() => harness(4, 6, options(3, 1, 0, 1)).prepare()).toThrow(/input \(tensor 0\) has 4 elements, expected 3/);
    expect(() => harness(3, 9, options(3, 1, 0, 1)).prepare()).toThrow(/output \(tensor 1\) has 9 elements, expected 6/);
    expect(() => harness(3, 6, options(3, 1, 0, 3)).prepare()).toThrow(/option "stacker_step" is 3, must be in \[1, 2\]/);
    expect(() => harness(3, 6, options(0, 1, 0, 1)).prepare()).toThrow(/option "num_channels" is 0/);
  });
});
