import { describe, expect, it } from 'vitest';
import { buf, bufs, PERSON_DETECTION } from './__tests__/fixtures.js';
import { lowerBound } from './lower-bound.js';

describe('lowerBound', () => {
  it('is the largest sum of live sizes at one step', () => {
    // step 0: 10 + 50; step 1: 10 + 20 + 50; step 2: 20 + 30; step 3: 30 + 40; step 4: 40.
    expect(
      lowerBound(
        bufs([
          [10, 0, 1],
          [20, 1, 2],
          [30, 2, 3],
          [40, 3, 4],
          [50, 0, 1],
        ]),
      ),
    ).toBe(80);
  });

  it('counts lifetimes inclusively and handles sparse steps', () => {
    expect(lowerBound([buf(0, 16, 0, 100), buf(1, 32, 100, 200), buf(2, 64, 201, 300)])).toBe(64);
    expect(lowerBound([buf(0, 16, 0, 100), buf(1, 32, 100, 200)])).toBe(48);
  });

  it('is 0 for no buffers or only empty ones', () => {
    expect(lowerBound([])).toBe(0);
    expect(lowerBound([buf(0, 0, 0, 5)])).toBe(0);
  });

  it('person detection: the largest neighbouring pair', () => {
    expect(lowerBound(bufs(PERSON_DETECTION))).toBe(9216 + 36864 + 18432);
  });
});
