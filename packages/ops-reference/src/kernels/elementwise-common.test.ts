import { describe, expect, it } from 'vitest';
import { BroadcastPlan, extendShape } from '@micrort/kernel-support';

/** Walks a plan and lists [index in input 1, index in input 2] for every output element in order. */
function walk(plan: BroadcastPlan): [number, number][] {
  const pairs: [number, number][] = [];
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    expect(plan.offOut).toBe(r * plan.inner);
    for (let k = 0; k < plan.inner; k++, i1 += plan.innerStride1, i2 += plan.innerStride2) pairs.push([i1, i2]);
    plan.next();
  }
  return pairs;
}

/** The same mapping computed naively from N-D subscripts. */
function naive(d1: number[], d2: number[]): [number, number][] {
  const rank = Math.max(d1.length, d2.length);
  const e1 = Array.from(extendShape(d1, rank));
  const e2 = Array.from(extendShape(d2, rank));
  const out = e1.map((a, i) => Math.max(a, e2[i]!));
  const total = out.reduce((a, b) => a * b, 1);
  const pairs: [number, number][] = [];
  for (let flat = 0; flat < total; flat++) {
    let rem = flat;
    let i1 = 0;
    let i2 = 0;
    let s1 = 1;
    let s2 = 1;
    for (let d = rank - 1; d >= 0; d--) {
      const idx = rem % out[d]!;
      rem = Math.floor(rem / out[d]!);
      if (e1[d]! > 1) i1 += idx * s1;
      if (e2[d]! > 1) i2 += idx * s2;
      s1 *= e1[d]!;
      s2 *= e2[d]!;
    }
    pairs.push([i1, i2]);
  }
  return pairs;
}

describe('BroadcastPlan', () => {
  const cases: [number[], number[]][] = [
    [
      [2, 3],
      [2, 3],
    ],
    [[2, 3], [3]],
    [
      [2, 1, 3],
      [1, 2, 1],
    ],
    [
      [4, 1],
      [1, 5],
    ],
    [
      [1, 2, 1, 2],
      [2, 1, 2, 1],
    ],
    [
      [3, 1, 1, 2, 1, 2],
      [1, 2, 3, 1, 1, 2],
    ],
    [[], [5]],
    [[1], [1]],
    [[40], []],
  ];
  for (const [a, b] of cases) {
    it(`maps [${a}] x [${b}] like N-D subscripts`, () => {
      const plan = BroadcastPlan.create(a, b);
      if (typeof plan === 'string') throw new Error(plan);
      expect(walk(plan)).toEqual(naive(a, b));
      // A second walk after reset() gives the same result.
      expect(walk(plan)).toEqual(naive(a, b));
    });
  }

  it('merges contiguous dimensions into one run when nothing is broadcast', () => {
    const plan = BroadcastPlan.create([2, 3, 4], [2, 3, 4]) as BroadcastPlan;
    expect(plan.requiresBroadcast).toBe(false);
    expect([plan.rows, plan.inner, plan.innerStride1, plan.innerStride2]).toEqual([1, 24, 1, 1]);
    const scalar = BroadcastPlan.create([2, 3], [1, 1]) as BroadcastPlan;
    expect(scalar.requiresBroadcast).toBe(true);
    expect([scalar.rows, scalar.inner, scalar.innerStride1, scalar.innerStride2]).toEqual([1, 6, 1, 0]);
  });

  it('handles empty outputs', () => {
    const plan = BroadcastPlan.create([0, 3], [3]) as BroadcastPlan;
    expect(plan.outputSize).toBe(0);
    expect(plan.rows).toBe(0);
  });

  it('reports shapes that cannot be broadcast', () => {
    expect(BroadcastPlan.create([2, 3], [3, 2])).toMatch(/cannot be broadcast \(dimension 0 of the right-aligned shapes: 2 vs 3\)/);
  });
});
