import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { SIGNAL_DELAY } from './delay.js';

// Options from TFLM signal/micro/kernels/delay_flexbuffers_generated_data.cc: {delay_length} (byte 18).
function options(delayLength: number): Uint8Array {
  const bytes = Uint8Array.of(
    0x64,
    0x65,
    0x6c,
    0x61,
    0x79,
    0x5f,
    0x6c,
    0x65,
    0x6e,
    0x67,
    0x74,
    0x68,
    0x00,
    0x01,
    0x0e,
    0x01,
    0x01,
    0x01,
    0x03,
    0x04,
    0x02,
    0x24,
    0x01,
  );
  bytes[18] = delayLength;
  return bytes;
}

function harness(shape: number[], delayLength: number, outShape = shape) {
  const n = shape.reduce((a, b) => a * b, 1);
  return new KernelHarness({
    registration: SIGNAL_DELAY,
    tensors: [
      { type: TensorType.INT16, shape, data: new Array<number>(n).fill(0) },
      { type: TensorType.INT16, shape: outShape },
    ],
    inputs: [0],
    outputs: [1],
    customInitialData: options(delayLength),
  });
}

/** Feeds `input` in chunks of the input size and returns every output, concatenated. */
function run(h: KernelHarness, input: number[], size: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < input.length; i += size)
    out.push(
      ...h
        .setInput(0, input.slice(i, i + size))
        .invoke()
        .outputArray(),
    );
  return out;
}

// TFLM signal/micro/kernels/delay_test.cc
const SINGLE_LESS_IN = [1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0];
const SINGLE_LESS_GOLDEN = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0];
const SINGLE_GREATER_IN = [1, 2, 3, 4, 0, 0, 0, 0, 0];
const SINGLE_GREATER_GOLDEN = [0, 0, 0, 0, 0, 1, 2, 3, 4];
const MULTI_IN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0];

describe('SignalDelay', () => {
  it('delay 3 < frame 8 (TFLM DelayTestSingleDimDelayLessThanFrameSize)', () => {
    expect(run(harness([1, 8], 3), SINGLE_LESS_IN, 8)).toEqual(SINGLE_LESS_GOLDEN);
  });

  it('delay 5 > frame 3 (TFLM DelayTestSingleDimDelayGreaterThanFrameSize)', () => {
    expect(run(harness([1, 3], 5), SINGLE_GREATER_IN, 3)).toEqual(SINGLE_GREATER_GOLDEN);
  });

  it('delays each row of [4, 4] separately, delay 3 (TFLM DelayTestMultiDimDelayLessThanFrameSize)', () => {
    const golden = [0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 9, 0, 0, 0, 13, 2, 3, 4, 0, 6, 7, 8, 0, 10, 11, 12, 0, 14, 15, 0, 0];
    expect(run(harness([4, 4], 3), [...MULTI_IN, ...new Array<number>(16).fill(0)], 16)).toEqual(golden);
  });

  it('delays each row of [4, 4] separately, delay 5 (TFLM DelayTestMultiDimDelayGreaterThanFrameSize)', () => {
    const golden = [
      ...new Array<number>(16).fill(0),
      0,
      1,
      2,
      3,
      0,
      5,
      6,
      7,
      0,
      9,
      10,
      11,
      0,
      13,
      14,
      15,
      4,
      0,
      0,
      0,
      8,
      0,
      0,
      0,
      12,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ];
    expect(run(harness([4, 4], 5), [...MULTI_IN, ...new Array<number>(32).fill(0)], 16)).toEqual(golden);
  });

  it('reset() restores the initial delay line (TFLM DelayTestReset*)', () => {
    const h = harness([1, 8], 3);
    expect(run(h, SINGLE_LESS_IN, 8)).toEqual(SINGLE_LESS_GOLDEN);
    h.reset();
    expect(run(h, SINGLE_LESS_IN, 8)).toEqual(SINGLE_LESS_GOLDEN);
    const g = harness([1, 3], 5);
    expect(run(g, SINGLE_GREATER_IN, 3)).toEqual(SINGLE_GREATER_GOLDEN);
    g.reset();
    expect(run(g, SINGLE_GREATER_IN, 3)).toEqual(SINGLE_GREATER_GOLDEN);
  });

  it('equals a plain delayed stream over many invokes (buffer wrap-around), delay 0 is the identity', () => {
    for (const [frame, delay] of [
      [5, 7],
      [7, 5],
      [4, 4],
      [6, 0],
      [1, 9],
    ] as const) {
      const h = harness([2, frame], delay);
      let s = frame * 31 + delay;
      const rows: number[][] = [[], []];
      const got: number[][] = [[], []];
      for (let t = 0; t < 9; t++) {
        const input = Array.from({ length: 2 * frame }, () => {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          return ((s >>> 8) & 0xffff) - 32768;
        });
        const out = h.setInput(0, input).invoke().outputArray();
        for (let r = 0; r < 2; r++) {
          rows[r]!.push(...input.slice(r * frame, (r + 1) * frame));
          got[r]!.push(...out.slice(r * frame, (r + 1) * frame));
        }
      }
      for (let r = 0; r < 2; r++)
        expect(got[r], `frame ${frame}, delay ${delay}, row ${r}`).toEqual(
          [...new Array<number>(delay).fill(0), ...rows[r]!].slice(0, rows[r]!.length),
        );
    }
  });

  it('keeps its state in the arena: one TFLM-sized circular buffer per row', () => {
    const h = harness([3, 8], 5).prepare();
    // 3 rows x (40-byte struct + 2 x 13 int16), 16-byte aligned, plus the params
    expect(h.persistentBytes).toBeGreaterThanOrEqual(3 * (40 + 4 * 13));
  });

  it('rejects bad types, shapes and options', () => {
    expect(() => harness([1, 8], 3, [1, 7]).prepare()).toThrow(/output shape \[1, 7\] differs from input shape \[1, 8\]/);
    const bad = new KernelHarness({
      registration: SIGNAL_DELAY,
      tensors: [
        { type: TensorType.INT8, shape: [4] },
        { type: TensorType.INT8, shape: [4] },
      ],
      inputs: [0],
      outputs: [1],
      customInitialData: options(3),
    });
    expect(bad.supportsAnswer()).toBe('int8 input (handles int16)');
    expect(() => bad.prepare()).toThrow(/has type int8, expected int16/);
    const noOptions = new KernelHarness({
      registration: SIGNAL_DELAY,
      tensors: [
        { type: TensorType.INT16, shape: [4] },
        { type: TensorType.INT16, shape: [4] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => noOptions.prepare()).toThrow(/custom options .* are missing/);
  });
});
