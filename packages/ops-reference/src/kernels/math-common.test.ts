import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { expectFloatClose, f32, harness, kernelError, q, run } from './__fixtures__/math-testing.js';
import { CEIL } from './ceil.js';
import { EXP } from './exp.js';
import { FLOOR } from './floor.js';
import { LOG } from './log.js';
import { NEG } from './neg.js';
import { ROUND, roundHalfToEven } from './round.js';
import { SQRT } from './sqrt.js';
import { SQUARE } from './square.js';
import { intArrayBytes } from './math-common.js';
import { supportsInputTypes } from '@micrort/kernel-support';
import { preparedShape } from './__fixtures__/conv-testing.js';

const unary = (reg: Parameters<typeof run>[0], data: number[]) => run(reg, [f32([data.length], data), f32([data.length])], [0], [1]);

describe('float32 unary kernels', () => {
  it('CEIL and FLOOR round toward +/- infinity, keeping -0', () => {
    expect(unary(CEIL, [-1.5, -0.5, 0, 0.2, 2, 3.0000002])).toEqual([-1, -0, 0, 1, 2, 4]);
    expect(unary(FLOOR, [-1.5, -0.5, 0, 0.2, 2, -3.0000002])).toEqual([-2, -1, 0, 0, 2, -4]);
  });

  it('ROUND rounds half to even (tf.round); floor(x) + 1 makes -0.5 round to +0, as in C', () => {
    expect(unary(ROUND, [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.49999997, -0.49999997, 8388607.5, 1e10])).toEqual([
      -2, -2, 0, 0, 2, 2, 4, 0, 0, 8388608, 1e10,
    ]);
    expect(roundHalfToEven(Number.NaN)).toBeNaN();
  });

  it('EXP, LOG, SQRT, SQUARE and NEG follow their C counterparts in float32', () => {
    expectFloatClose(unary(EXP, [-5, 0, 1, 5]), [Math.exp(-5), 1, Math.E, Math.exp(5)]);
    const log = unary(LOG, [0.01, 1, 10, 0, -1]);
    expectFloatClose(log.slice(0, 3), [Math.log(0.01), 0, Math.log(10)]);
    expect(log[3]).toBe(-Infinity);
    expect(log[4]).toBeNaN();
    // The double square root rounded to float32 is the correctly rounded sqrtf.
    expect(unary(SQRT, [0, 1, 2, 4])).toEqual([0, 1, Math.fround(Math.SQRT2), 2]);
    expect(unary(SQUARE, [-3, 0.5, 3e20])).toEqual([9, 0.25, Infinity]);
    expect(unary(NEG, [1.5, 0, -2])).toEqual([-1.5, -0, 2]);
  });

  it('refuse other types in supports() and prepare, naming the type and what is handled (TFLite has no uint8 EXP)', () => {
    const h = harness(EXP, [q(TensorType.UINT8, [4], 0.1, 0, [1, 2, 3, 4]), q(TensorType.UINT8, [4], 0.1, 0)], [0], [1]);
    expect(h.supportsAnswer()).toBe('uint8 input (handles float32, int8, int16)');
    expect(kernelError(() => h.prepare()).message).toMatch(
      /EXP \(node 0\): unsupported input type uint8 \(tensor 0\); supported: float32, int8, int16/,
    );
    for (const reg of [NEG, FLOOR, LOG, SQRT, SQUARE, CEIL, ROUND])
      expect(() =>
        harness(
          reg,
          [
            { type: TensorType.UINT32, shape: [1], data: [1] },
            { type: TensorType.UINT32, shape: [1] },
          ],
          [0],
          [1],
        ).prepare(),
      ).toThrow(/unsupported input type uint32/);
  });

  it("every unary op gives its output the input's shape, whatever the file stored", () => {
    for (const reg of [EXP, CEIL, ROUND, FLOOR])
      expect(preparedShape(harness(reg, [f32([2, 3], [0, 0, 0, 0, 0, 0]), f32([3, 2])], [0], [1]))).toEqual([2, 3]);
    expect(run(FLOOR, [f32([2, 3], [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]), f32([3, 2])], [0], [1])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(preparedShape(harness(FLOOR, [f32([2, 3], [0, 0, 0, 0, 0, 0]), f32([5])], [0], [1]))).toEqual([2, 3]);
  });
});

describe('math-common helpers', () => {
  it('supportsInputTypes accepts malformed nodes so that prepare reports them', () => {
    const h = harness(EXP, [f32([1]), f32([1])], [], [1]);
    expect(supportsInputTypes(h.context, h.node, [TensorType.FLOAT32])).toBe(true);
  });

  it('intArrayBytes is TfLiteIntArrayGetSizeInBytes', () => {
    expect(intArrayBytes(0)).toBe(4);
    expect(intArrayBytes(4)).toBe(20);
  });
});
