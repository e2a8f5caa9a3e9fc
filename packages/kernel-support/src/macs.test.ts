import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '@micrort/core';
import { opMacs } from './macs.js';

describe('opMacs', () => {
  it('counts each weight-carrying op by its definition', () => {
    // CONV_2D: output 1x4x4x8, filter 8x3x3x2 → 128 outputs × 3·3·2 taps
    expect(opMacs(BuiltinOperator.CONV_2D, [1, 4, 4, 8], [8, 3, 3, 2])).toBe(128 * 18);
    // DEPTHWISE_CONV_2D: one 3x3 window per output element
    expect(opMacs(BuiltinOperator.DEPTHWISE_CONV_2D, [1, 4, 4, 8], [1, 3, 3, 8])).toBe(128 * 9);
    // FULLY_CONNECTED: output 2x10, weights 10x16
    expect(opMacs(BuiltinOperator.FULLY_CONNECTED, [2, 10], [10, 16])).toBe(20 * 16);
    // TRANSPOSE_CONV: every input element meets the whole filter (out channels × kh × kw)
    expect(opMacs(BuiltinOperator.TRANSPOSE_CONV, [1, 8, 8, 4], [4, 3, 3, 2], [1, 4, 4, 2])).toBe(32 * 36);
  });

  it('is 0 for other ops, missing shapes and unexpected ranks', () => {
    expect(opMacs(BuiltinOperator.ADD, [1, 4], [1, 4])).toBe(0);
    expect(opMacs(BuiltinOperator.CONV_2D, undefined, [8, 3, 3, 2])).toBe(0);
    expect(opMacs(BuiltinOperator.FULLY_CONNECTED, [2, 10], [10, 16, 1])).toBe(0);
    expect(opMacs(BuiltinOperator.TRANSPOSE_CONV, [1, 8, 8, 4], [4, 3, 3, 2])).toBe(0);
  });
});
