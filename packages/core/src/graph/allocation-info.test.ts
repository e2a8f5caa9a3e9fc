import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.js';
import { markModelLifetimes, type LifetimeSubgraph } from './allocation-info.js';

const NONE: number[] = [];

describe('markModelLifetimes (TFLM AllocationInfoBuilder over subgraphs)', () => {
  it('without control flow: step k at time k, inputs from the first step, outputs to the last', () => {
    const sg: LifetimeSubgraph = {
      tensorCount: 4,
      inputs: [0],
      outputs: [3],
      steps: [
        { inputs: [0], outputs: [1], invokes: NONE },
        { inputs: [1], outputs: [2], invokes: NONE },
        { inputs: [2], outputs: [3], invokes: NONE },
      ],
    };
    const life = markModelLifetimes([sg], 0).subgraphs[0]!;
    expect(Array.from(life.firstCreated)).toEqual([0, 0, 1, 2]);
    expect(Array.from(life.lastUsed)).toEqual([0, 1, 2, 2]);
    expect(Array.from(life.stepStart)).toEqual([0, 1, 2]);
  });

  it('an IF opens one scope per branch inside its step: branch tensors live strictly within it', () => {
    // main: t0 (cond), t1 (x) → IF → t2; then/else: in 0 → op → out 1; after the IF one more op t2 → t3.
    const branch = (): LifetimeSubgraph => ({
      tensorCount: 2,
      inputs: [0],
      outputs: [1],
      steps: [{ inputs: [0], outputs: [1], invokes: NONE }],
    });
    const main: LifetimeSubgraph = {
      tensorCount: 4,
      inputs: [0, 1],
      outputs: [3],
      steps: [
        { inputs: [0, 1], outputs: [2], invokes: [1, 2] },
        { inputs: [2], outputs: [3], invokes: NONE },
      ],
    };
    const m = markModelLifetimes([main, branch(), branch()], 0);
    const [l0, l1, l2] = m.subgraphs;
    // IF at time 0; then-branch visit starts at 1 (its op at 2), else at 3 (op at 4); IF ends at 4.
    expect(Array.from(l1!.firstCreated)).toEqual([1, 2]);
    expect(Array.from(l1!.lastUsed)).toEqual([2, 2]);
    expect(Array.from(l2!.firstCreated)).toEqual([3, 4]);
    expect(Array.from(l2!.lastUsed)).toEqual([4, 4]);
    expect(Array.from(l0!.firstCreated)).toEqual([0, 0, 0, 5]);
    expect(Array.from(l0!.lastUsed)).toEqual([4, 4, 5, 5]);
    expect(Array.from(l0!.stepStart)).toEqual([0, 5]);
    expect(Array.from(l0!.stepEnd)).toEqual([4, 5]);
    expect(m.lastTime).toBe(5);
  });

  it('an unused subgraph input lives only at the visit start; unreached subgraphs are not visited', () => {
    const body: LifetimeSubgraph = { tensorCount: 3, inputs: [0, 1], outputs: [2], steps: [{ inputs: [0], outputs: [2], invokes: NONE }] };
    const main: LifetimeSubgraph = { tensorCount: 2, inputs: [0], outputs: [1], steps: [{ inputs: [0], outputs: [1], invokes: [1] }] };
    const orphan: LifetimeSubgraph = { tensorCount: 1, inputs: [0], outputs: [0], steps: [] };
    const m = markModelLifetimes([main, body, orphan], 0);
    expect([m.subgraphs[1]!.firstCreated[1], m.subgraphs[1]!.lastUsed[1]]).toEqual([1, 1]);
    expect(m.subgraphs[2]).toBeNull();
  });

  it('a subgraph invoked by two nodes gets the union of both visits', () => {
    const callee: LifetimeSubgraph = { tensorCount: 2, inputs: [0], outputs: [1], steps: [{ inputs: [0], outputs: [1], invokes: NONE }] };
    const main: LifetimeSubgraph = {
      tensorCount: 1,
      inputs: [],
      outputs: [],
      steps: [
        { inputs: [], outputs: [], invokes: [1] },
        { inputs: [], outputs: [], invokes: [1] },
      ],
    };
    const l = markModelLifetimes([main, callee], 0).subgraphs[1]!;
    // visits [1..2] and [4..5]
    expect(Array.from(l.firstCreated)).toEqual([1, 2]);
    expect(Array.from(l.lastUsed)).toEqual([5, 5]);
  });

  it('recursion and out-of-range subgraph indices are ModelErrors', () => {
    const self: LifetimeSubgraph = { tensorCount: 0, inputs: [], outputs: [], steps: [{ inputs: [], outputs: [], invokes: [1] }] };
    const main: LifetimeSubgraph = { tensorCount: 0, inputs: [], outputs: [], steps: [{ inputs: [], outputs: [], invokes: [1] }] };
    expect(() => markModelLifetimes([main, self], 0)).toThrow(ModelError);
    expect(() => markModelLifetimes([main, self], 0)).toThrow(/subgraph 1 invokes itself \(0 → 1 → 1\)/);
    const bad: LifetimeSubgraph = { tensorCount: 0, inputs: [], outputs: [], steps: [{ inputs: [], outputs: [], invokes: [7] }] };
    expect(() => markModelLifetimes([bad], 0)).toThrow(/invokes subgraph 7, but the model has 1 subgraphs/);
  });
});
