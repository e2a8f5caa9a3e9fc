import { describe, expect, it } from 'vitest';
import { int16ActivationParams } from './activation-common.js';

describe('TFLM input rescaling', () => {
  it('int16: power-of-two shortcut and general multiplier', () => {
    expect(int16ActivationParams(1 / 4096, 0)).toEqual({ multiplier: 0, leftShift: 0 });
    // 2^-11 is a power-of-two shortcut only for TANH (left shift 1 allowed).
    expect(int16ActivationParams(1 / 2048, 1)).toEqual({ multiplier: 0, leftShift: 1 });
    // For LOGISTIC it is rescaled: 2^-11 * 12288 = 6, doubled 12 times to 24576.
    expect(int16ActivationParams(1 / 2048, 0)).toEqual({ multiplier: 24576, leftShift: 12 });
    // 0.001 * 12288 = 12.288, doubled 11 times to 25165.8 -> 25165
    expect(int16ActivationParams(0.001, 0)).toEqual({ multiplier: 25165, leftShift: 11 });
  });
});
