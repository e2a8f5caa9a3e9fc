/**
 * invoke() of the signal library's back-end kernels (SignalDelay, SignalFramer, SignalOverlapAdd,
 * SignalStacker, SignalIrfft) and of SignalRfft int32 allocates nothing: each kernel is prepared with
 * KernelHarness, then invoked thousands of times through a bare invoke-phase context while the heap is
 * watched. The check can fail: one small object per call adds >= 16 kB per 1000 invokes.
 */
import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessOptions } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { SIGNAL_DELAY } from './delay.js';
import { SIGNAL_FRAMER } from './framer.js';
import { SIGNAL_IRFFT } from './irfft.js';
import { SIGNAL_OVERLAP_ADD } from './overlap-add.js';
import { SIGNAL_RFFT } from './rfft.js';
import { SIGNAL_STACKER } from './stacker.js';

// TFLM's generated option buffers (see each kernel's test), with the values patched in.
const patch = (bytes: number[], at: Record<number, number>) => Uint8Array.from(bytes, (b, i) => at[i] ?? b);
const DELAY = [
  0x64, 0x65, 0x6c, 0x61, 0x79, 0x5f, 0x6c, 0x65, 0x6e, 0x67, 0x74, 0x68, 0x00, 0x01, 0x0e, 0x01, 0x01, 0x01, 0x03, 0x04, 0x02, 0x24, 0x01,
];
const FRAMER = [
  0x66, 0x72, 0x61, 0x6d, 0x65, 0x5f, 0x73, 0x69, 0x7a, 0x65, 0x00, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x5f, 0x73, 0x74, 0x65, 0x70, 0x00, 0x70,
  0x72, 0x65, 0x66, 0x69, 0x6c, 0x6c, 0x00, 0x03, 0x1f, 0x15, 0x0b, 0x03, 0x01, 0x03, 0x03, 0x01, 0x00, 0x04, 0x04, 0x68, 0x06, 0x24, 0x01,
];
const OVERLAP_ADD = [
  0x66, 0x72, 0x61, 0x6d, 0x65, 0x5f, 0x73, 0x74, 0x65, 0x70, 0x00, 0x54, 0x00, 0x02, 0x03, 0x0f, 0x02, 0x01, 0x02, 0x07, 0x01, 0x04, 0x04,
  0x04, 0x24, 0x01,
];
const STACKER = [
  0x6e, 0x75, 0x6d, 0x5f, 0x63, 0x68, 0x61, 0x6e, 0x6e, 0x65, 0x6c, 0x73, 0x00, 0x73, 0x74, 0x61, 0x63, 0x6b, 0x65, 0x72, 0x5f, 0x6c, 0x65,
  0x66, 0x74, 0x5f, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x78, 0x74, 0x00, 0x73, 0x74, 0x61, 0x63, 0x6b, 0x65, 0x72, 0x5f, 0x72, 0x69, 0x67, 0x68,
  0x74, 0x5f, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x78, 0x74, 0x00, 0x73, 0x74, 0x61, 0x63, 0x6b, 0x65, 0x72, 0x5f, 0x73, 0x74, 0x65, 0x70, 0x00,
  0x04, 0x46, 0x3a, 0x26, 0x11, 0x04, 0x01, 0x04, 0x03, 0x01, 0x00, 0x01, 0x04, 0x04, 0x04, 0x04, 0x08, 0x24, 0x01,
];
const FFT_64 = [
  0x66, 0x66, 0x74, 0x5f, 0x6c, 0x65, 0x6e, 0x67, 0x74, 0x68, 0x00, 0x54, 0x00, 0x02, 0x03, 0x0f, 0x02, 0x01, 0x02, 0x07, 0x40, 0x04, 0x04,
  0x04, 0x24, 0x01,
];

const ramp = (n: number, step = 997) => Array.from({ length: n }, (_, i) => ((i * step) % 60000) - 30000);
const io = (
  registration: HarnessOptions['registration'],
  tensors: HarnessOptions['tensors'],
  outputs: number[],
  customInitialData: Uint8Array,
): HarnessOptions => ({
  registration,
  tensors,
  inputs: [0],
  outputs,
  customInitialData,
});
const i16 = (shape: number[], data?: number[]) => ({ type: TensorType.INT16, shape, ...(data ? { data } : {}) });
const bool = { type: TensorType.BOOL, shape: [] };

const configs: [string, HarnessOptions][] = [
  ['SignalDelay [3, 40], delay 25', io(SIGNAL_DELAY, [i16([3, 40], ramp(120)), i16([3, 40])], [1], patch(DELAY, { 18: 25 }))],
  [
    'SignalFramer [2, 40] -> [2, 4, 25], prefill',
    io(SIGNAL_FRAMER, [i16([2, 40], ramp(80)), i16([2, 4, 25]), bool], [1, 2], patch(FRAMER, { 37: 25, 38: 10, 39: 1 })),
  ],
  [
    'SignalFramer without prefill (incomplete frames)',
    io(SIGNAL_FRAMER, [i16([1, 10], ramp(10)), i16([1, 1, 100]), bool], [1, 2], patch(FRAMER, { 37: 100, 38: 10, 39: 0 })),
  ],
  [
    'SignalOverlapAdd int16 [2, 3, 32] -> [2, 48]',
    io(SIGNAL_OVERLAP_ADD, [i16([2, 3, 32], ramp(192)), i16([2, 48])], [1], patch(OVERLAP_ADD, { 20: 16 })),
  ],
  [
    'SignalOverlapAdd float32',
    io(
      SIGNAL_OVERLAP_ADD,
      [
        { type: TensorType.FLOAT32, shape: [3, 32], data: ramp(96).map((v) => v / 3e4) },
        { type: TensorType.FLOAT32, shape: [48] },
      ],
      [1],
      patch(OVERLAP_ADD, { 19: 0, 20: 16 }),
    ),
  ],
  [
    'SignalStacker 8 channels, context 2 + 1, step 2',
    io(SIGNAL_STACKER, [i16([8], ramp(8)), i16([32]), bool], [1, 2], patch(STACKER, { 77: 8, 78: 2, 79: 1, 80: 2 })),
  ],
  ['SignalIrfft int16 64', io(SIGNAL_IRFFT, [i16([2, 66], ramp(132, 331)), i16([2, 64])], [1], patch(FFT_64, {}))],
  [
    'SignalIrfft int32 64',
    io(
      SIGNAL_IRFFT,
      [
        { type: TensorType.INT32, shape: [66], data: ramp(66, 331).map((v) => v * 65536) },
        { type: TensorType.INT32, shape: [64] },
      ],
      [1],
      patch(FFT_64, { 19: 2 }),
    ),
  ],
  [
    'SignalIrfft float32 60 (radix 3, 5)',
    io(
      SIGNAL_IRFFT,
      [
        { type: TensorType.FLOAT32, shape: [62], data: ramp(62).map((v) => v / 3e4) },
        { type: TensorType.FLOAT32, shape: [60] },
      ],
      [1],
      patch(FFT_64, { 19: 0, 20: 60 }),
    ),
  ],
  [
    'SignalRfft int32 64',
    io(
      SIGNAL_RFFT,
      [
        { type: TensorType.INT32, shape: [64], data: ramp(64).map((v) => v * 65536) },
        { type: TensorType.INT32, shape: [66] },
      ],
      [1],
      patch(FFT_64, { 19: 2 }),
    ),
  ],
];

describe('signal back-end kernels: invoke() allocates nothing', () => {
  for (const [name, options] of configs) {
    it(name, () => {
      const h = new KernelHarness(options).prepare();
      h.invoke(); // computable through the real harness first
      const context = invokeOnlyContext(h);
      const { registration } = options;
      const node = h.node;
      const m = measureAllocation(() => registration.invoke(context, node), { warmup: 5000, trials: 5, iterations: 1000 });
      expect(m.medianTrialBytes, `heap deltas per 1000 invokes: ${m.deltas.join(', ')}`).toBeLessThan(2048);
    });
  }
});
