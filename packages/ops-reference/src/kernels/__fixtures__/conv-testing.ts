/**
 * Test helpers shared by the convolution kernel tests (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV and
 * their eval loops): a seeded generator for random cases, the prepare-error probe and the float32
 * tolerance check of the conformance rules.
 */
import { expect } from 'vitest';
import { KernelError } from '@micrort/core';
import { type KernelHarness } from '@micrort/core/testing';

/** A linear congruential generator of numbers in [0, 1), reproducible from `seed`. */
export function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) | 0;
    return (s >>> 8) / 16777216;
  };
}

/** The KernelError `h.prepare()` throws; fails the test when it throws something else or nothing. */
export function prepareError(h: KernelHarness): KernelError {
  try {
    h.prepare();
  } catch (e) {
    expect(e).toBeInstanceOf(KernelError);
    return e as KernelError;
  }
  throw new Error('prepare did not throw');
}

/** Expects every float32 result within |got - want| <= 1e-5 + 1e-4 * |want|. */
export function expectFloatClose(got: ArrayLike<number>, want: ArrayLike<number>): void {
  for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want[i]!));
}
