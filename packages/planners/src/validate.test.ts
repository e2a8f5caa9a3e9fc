import { PlannerError, type MemoryPlan } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { buf } from './__tests__/fixtures.js';
import { PlanOffsetError, PlanOverlapError, PlanShapeError } from './errors.js';
import { findOverlap, validatePlan } from './validate.js';

const plan = (offsets: number[], headBytes: number): MemoryPlan => ({ offsets: Int32Array.from(offsets), headBytes });

describe('validatePlan', () => {
  const buffers = [buf(0, 32, 0, 1), buf(1, 32, 1, 2), buf(2, 32, 2, 3, { kind: 'scratch', label: 'scratch #0 (node 2)' })];

  it('accepts a valid plan, including reuse across disjoint lifetimes', () => {
    expect(() => validatePlan(buffers, plan([0, 32, 0], 64))).not.toThrow();
  });

  it('reports overlapping buffers with both offsets, sizes and lifetimes', () => {
    let error: unknown;
    try {
      validatePlan(buffers, plan([0, 32, 48], 80));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PlanOverlapError);
    const e = error as PlanOverlapError;
    expect([e.a.index, e.a.offset, e.a.size, e.a.firstUsed, e.a.lastUsed]).toEqual([1, 32, 32, 1, 2]);
    expect([e.b.index, e.b.offset, e.b.size, e.b.firstUsed, e.b.lastUsed]).toEqual([2, 48, 32, 2, 3]);
    expect(e.b.kind).toBe('scratch');
    expect(e.message).toMatch(/buffer #1 \(tensor 1\) size 32 at offset 32, steps 1\.\.2/);
    expect(e.message).toMatch(/"scratch #0 \(node 2\)"/);
    expect(e.message).toMatch(/share bytes \[48, 64\) while both alive at steps 2\.\.2/);
  });

  it('rejects misaligned, negative and fractional offsets', () => {
    expect(() => validatePlan(buffers, plan([0, 40, 0], 72))).toThrow(PlanOffsetError);
    expect(() => validatePlan(buffers, plan([0, 40, 0], 72))).toThrow(/offset 40 is not a multiple of the alignment 16/);
    expect(() => validatePlan(buffers, plan([0, 40, 0], 72), { alignment: 8 })).not.toThrow();
    expect(() => validatePlan(buffers, plan([-16, 32, 0], 64))).toThrow(/negative/);
    expect(() => validatePlan(buffers, { offsets: [0, 32.5, 0] as unknown as Int32Array, headBytes: 80 }, { alignment: 1 })).toThrow(
      /not an integer/,
    );
  });

  it('rejects a wrong offset count and a head below the last byte', () => {
    expect(() => validatePlan(buffers, plan([0, 32], 64))).toThrow(PlanShapeError);
    expect(() => validatePlan(buffers, plan([0, 32, 0], 63))).toThrow(/expected 64, got 63/);
    expect(() => validatePlan(buffers, plan([0, 32, 0], 63))).toThrow(PlannerError);
  });

  it('never counts empty buffers as overlapping', () => {
    const withEmpty = [buf(0, 64, 0, 3), buf(1, 0, 0, 3)];
    expect(findOverlap(withEmpty, [0, 16])).toBeUndefined();
    expect(findOverlap([buf(0, 64, 0, 3), buf(1, 16, 0, 3)], [0, 16])).toEqual([0, 1]);
  });
});
