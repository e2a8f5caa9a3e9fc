import { describe, expect, it } from 'vitest';
import { SIGMOID_TABLE_UINT16 } from '@micrort/core';
import { hiddenTanhParams, logisticInt16, runLstmSteps, tanhInt16, type LstmSizeInfo } from './lstm-common.js';

const sigmoid = (values: number[]) => {
  const a = Int16Array.from(values);
  logisticInt16(a, 0, a.length, 0, 0);
  return Array.from(a);
};
const tanh = (values: number[], multiplier = 0, shift = 0) => {
  const a = Int16Array.from(values);
  const out = new Int16Array(a.length);
  tanhInt16(a, 0, out, 0, a.length, multiplier, shift);
  return Array.from(out);
};

describe('int16 sigmoid (reference_integer_ops::Logistic, Q3.12 -> Q0.15)', () => {
  it('sigmoid(0) = 0.5', () => {
    // x*3 = 0: table[0] << 9 = 32768 * 512, + 512, >> 10 = 16384
    expect(sigmoid([0])).toEqual([16384]);
  });
  it('sigmoid(1.0): 4096*3 = 12288 = 24 * 512 exactly, so table[24] interpolates nothing', () => {
    // (47911 << 9) + 512 = 24531456, >> 10 = 23956 (sigmoid(1) * 32768 = 23955.2)
    expect(sigmoid([4096])).toEqual([23956]);
  });
  it('sigmoid(-1.0) mirrors: (2^25 - 47911*512 + 511) >> 10', () => {
    expect(sigmoid([-4096])).toEqual([(33554432 - 47911 * 512 + 511) >>> 10]);
    expect(sigmoid([-4096])[0]! + sigmoid([4096])[0]!).toBe(32768 - 1 + 1);
  });
  it('interpolates between table entries', () => {
    // x = 100: 300 = 0 * 512 + 300 -> (32768 << 9) + 300 * (33451 - 32768) + 512, >> 10
    expect(sigmoid([100])).toEqual([((32768 << 9) + 300 * 683 + 512) >>> 10]);
  });
  it('at the ends of int16 (+-8.0)', () => {
    // 32767*3 = 98301 = 191 * 512 + 509: (65513 << 9) + 509 * (65514 - 65513) + 512, >> 10 = 32757
    // -32768*3: |x| = 192 * 512: 2^25 - (65514 << 9) + 511, >> 10 = 11
    expect(sigmoid([32767, -32768])).toEqual([32757, 11]);
  });
  it('handles an offset slice in place', () => {
    const a = Int16Array.from([7, 0, 4096, 7]);
    logisticInt16(a, 1, 2, 0, 0);
    expect(Array.from(a)).toEqual([7, 16384, 23956, 7]);
  });
});

describe('int16 tanh (reference_integer_ops::Tanh)', () => {
  it('tanh(0) = 0', () => {
    // (32768 << 8) - 2^23 + 128 = 128, >> 8 = 0
    expect(tanh([0])).toEqual([0]);
  });
  it('tanh(1.0) in Q3.12: 12288 = 48 * 256 exactly', () => {
    // (57724 << 8) - 2^23 + 128 = 6388864, >> 8 = 24956 (tanh(1) * 32768 = 24956.0)
    expect(tanh([4096])).toEqual([24956]);
  });
  it('tanh(-1.0): (-(57724 << 8) + 2^23 + 127) >> 8', () => {
    expect(tanh([-4096])).toEqual([(-(57724 << 8) + 8388608 + 127) >> 8]);
  });
  it('saturates beyond the table: 0xFFFF << 8 -> 32767 and -32767', () => {
    // |x| * 3 >> 8 >= 255; negative: (-(0xFFFF << 8) + 2^23 + 127) >> 8 = -32767 (floor of -32766.5)
    expect(tanh([32767, -32768])).toEqual([32767, -32767]);
  });
  it('cell state at 2^-11 (Q4.11): multiplier 3 << 1, so 2048 (1.0) gives tanh(1.0)', () => {
    expect(hiddenTanhParams(-11)).toEqual([0, 1]);
    expect(tanh([2048], 0, 1)).toEqual([24956]);
  });
  it('cell state at 2^-16: multiplier 3 with a rounding right shift of 4', () => {
    expect(hiddenTanhParams(-16)).toEqual([3, 4]);
    // 65536 * 2^-16 = 1.0 is not representable; 16384 (0.25): (16384*3 + 8) >> 4 = 3072 = 12 * 256
    // (table[12] << 8) - 2^23 + 128 = 40794 * 256 - 8388520 = 2054744, >> 8 = 8026
    expect(tanh([16384], 3, 4)).toEqual([8026]);
  });
});

describe('sigmoid table', () => {
  it('is sigmoid(i / 24) in Q0.16 within 1.5 units (the TFLM table is not exactly rounded)', () => {
    expect(SIGMOID_TABLE_UINT16.length).toBe(256);
    for (let i = 0; i < 256; i++) expect(Math.abs(SIGMOID_TABLE_UINT16[i]! - 65536 / (1 + Math.exp(-i / 24)))).toBeLessThanOrEqual(1.5);
  });
});

describe('runLstmSteps (LstmStepManager)', () => {
  const record = (size: LstmSizeInfo) => {
    const steps: number[][] = [];
    runLstmSteps(size, { step: (rows, i, o, s) => void steps.push([rows, i, o, s]) });
    return steps;
  };
  it('batch-major: one row per step, state slice per batch, offsets continue across batches', () => {
    expect(record({ timeMajor: false, batchSize: 2, timeSteps: 2, inputDimension: 3, stateDimension: 5 })).toEqual([
      [1, 0, 0, 0],
      [1, 3, 5, 0],
      [1, 6, 10, 5],
      [1, 9, 15, 5],
    ]);
  });
  it('time-major: all batches of a step at once', () => {
    expect(record({ timeMajor: true, batchSize: 2, timeSteps: 2, inputDimension: 3, stateDimension: 5 })).toEqual([
      [2, 0, 0, 0],
      [2, 6, 10, 0],
    ]);
  });
});
