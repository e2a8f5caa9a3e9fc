import { describe, expect, it } from 'vitest';
import { Tensor, TensorType, type Node } from '@micrort/core';
import { BroadcastPlan, broadcastGroups, broadcastsTo, extendShape, planBinary } from './broadcast.js';

/** Walks `plan` and returns, for each output element in order, the flat indices read from both inputs. */
function walk(plan: BroadcastPlan): [number, number][] {
  const out: [number, number][] = [];
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0; k < plan.inner; k++, i1 += plan.innerStride1, i2 += plan.innerStride2) out.push([i1, i2]);
    plan.next();
  }
  return out;
}

/** numpy's broadcast, index by index. */
function naive(a: number[], b: number[]): [number, number][] {
  const rank = Math.max(a.length, b.length);
  const ea = Array.from(extendShape(a, rank));
  const eb = Array.from(extendShape(b, rank));
  const shape = ea.map((d, i) => Math.max(d, eb[i]!));
  const total = shape.reduce((x, y) => x * y, 1);
  const out: [number, number][] = [];
  for (let flat = 0; flat < total; flat++) {
    let rem = flat;
    let ia = 0;
    let ib = 0;
    let sa = 1;
    let sb = 1;
    for (let d = rank - 1; d >= 0; d--) {
      const c = rem % shape[d]!;
      rem = Math.floor(rem / shape[d]!);
      if (ea[d] !== 1) ia += c * sa;
      if (eb[d] !== 1) ib += c * sb;
      sa *= ea[d]!;
      sb *= eb[d]!;
    }
    out.push([ia, ib]);
  }
  return out;
}

describe('broadcast plans', () => {
  it('walk the output in order reading the elements numpy broadcasting reads', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let trial = 0; trial < 300; trial++) {
      const rank = 1 + rnd(5);
      const full = Array.from({ length: rank }, () => 1 + rnd(4));
      const a = full.map((d) => (rnd(3) === 0 ? 1 : d)).slice(rnd(2));
      const b = full.map((d) => (rnd(3) === 0 ? 1 : d)).slice(rnd(2));
      const plan = BroadcastPlan.create(a, b);
      if (typeof plan === 'string') throw new Error(plan);
      expect(walk(plan), `${JSON.stringify(a)} x ${JSON.stringify(b)}`).toEqual(naive(a, b));
    }
  });

  it('merge neighbouring dimensions both inputs treat alike', () => {
    const g = broadcastGroups([1, 4, 5, 8], [8]);
    expect(typeof g === 'string' ? g : g.groups).toEqual([
      { size: 8, has1: true, has2: true },
      { size: 20, has1: true, has2: false },
    ]);
    const same = broadcastGroups([2, 3, 4], [2, 3, 4]);
    expect(typeof same === 'string' ? same : [same.requiresBroadcast, same.groups]).toEqual([
      false,
      [{ size: 24, has1: true, has2: true }],
    ]);
    expect(broadcastGroups([2, 3], [4, 3])).toMatch(/dimension 0 of the right-aligned shapes: 2 vs 4/);
    const s = broadcastGroups([3, 1], [1, 4]);
    expect(typeof s !== 'string' && broadcastsTo(s, [1, 3, 4]) && !broadcastsTo(s, [3, 3])).toBe(true);
  });

  it("planBinary checks the output's shape and the op's broadcast rank", () => {
    const t = (i: number, shape: number[]) => new Tensor(i, `t${i}`, TensorType.FLOAT32, Int32Array.from(shape), null, false);
    const node = { index: 1 } as Node;
    expect(planBinary('ADD', node, t(0, [2, 1]), t(1, [3]), t(2, [2, 3]), 6).outputSize).toBe(6);
    expect(() => planBinary('ADD', node, t(0, [2, 1]), t(1, [3]), t(2, [3, 2]), 6)).toThrow(
      /output \(tensor 2\) has shape \[3,2\], expected the broadcast shape \[2,3\]/,
    );
    expect(() => planBinary('ADD', node, t(0, [1, 1, 1, 1, 2]), t(1, [2, 1]), t(2, [1, 1, 1, 2, 2]), 4)).toThrow(/at most 4 dimensions/);
  });

  it('replan recomputes a plan in place for other dims of the same rank (the actual dims of data-dependent inputs)', () => {
    let seed = 11;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let trial = 0; trial < 200; trial++) {
      const rank = 1 + rnd(4);
      const bound = Array.from({ length: rank }, () => 1 + rnd(4));
      const other = bound.map((d) => (rnd(3) === 0 ? 1 : d));
      const plan = BroadcastPlan.create(bound, other);
      if (typeof plan === 'string') throw new Error(plan);
      const shape = plan.shape;
      // actual dims within the bound: each dimension 0..bound, or 1
      const actual = bound.map((d) => (rnd(4) === 0 ? 1 : rnd(d + 1)));
      const actualOther = other.map((d, i) => (d === 1 ? 1 : actual[i] === 1 ? d : actual[i]!));
      expect(plan.replan(actual, actualOther), `${JSON.stringify(actual)} x ${JSON.stringify(actualOther)}`).toBeNull();
      expect(plan.shape).toBe(shape);
      // (naive's max() broadcast does not know empty dimensions: an empty output walks nothing)
      const empty = actual.includes(0);
      expect(walk(plan), `${JSON.stringify(actual)} x ${JSON.stringify(actualOther)}`).toEqual(empty ? [] : naive(actual, actualOther));
      const fresh = BroadcastPlan.create(actual, actualOther) as BroadcastPlan;
      expect([plan.outputSize, plan.rows, plan.inner, plan.requiresBroadcast]).toEqual([
        fresh.outputSize,
        fresh.rows,
        fresh.inner,
        fresh.requiresBroadcast,
      ]);
    }
    const plan = BroadcastPlan.create([4, 3], [4, 3]) as BroadcastPlan;
    expect(plan.replan([2, 3], [4, 3])).toMatch(/dimension 0 of the right-aligned shapes: 2 vs 4/);
    expect(plan.replan([2, 3, 1], [3])).toMatch(/ranks 3 and 1 do not match the plan's rank 2/);
    expect(plan.replan([0, 3], [1, 3])).toBeNull();
    expect([plan.outputSize, plan.rows]).toEqual([0, 0]);
  });
});
