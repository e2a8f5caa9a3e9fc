import { describe, expect, it } from 'vitest';
import { measureAllocation } from '@micrort/test-support/alloc';
import { OpResolver } from '../resolver/op-resolver.js';
import type { Registration } from '../kernel/api.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { MicroProfiler, type Profiler } from './profiler.js';
import { TestLinearPlanner, addConstKernel, chainModel } from './__fixtures__/tiny-models.js';

function interpreter(profiler?: Profiler, nodes = 3) {
  return new MicroInterpreter(chainModel(nodes, 16), new OpResolver().register(addConstKernel(0.5, 16) as Registration), {
    planner: new TestLinearPlanner(),
    ...(profiler ? { profiler } : {}),
  }).allocateTensors();
}

describe('profiler', () => {
  it('brackets every node of every invoke, in plan order, with a non-negative duration', () => {
    let t = 0;
    const p = new MicroProfiler({ now: () => (t += 1) });
    const interp = interpreter(p, 3);
    interp.invoke();
    interp.invoke();
    const ev = p.events();
    expect(ev.map((e) => e.nodeIndex)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(ev.every((e) => e.subgraph === 0 && e.tag === 'CUSTOM:ADD_CONST' && e.durationMs === 1)).toBe(true);
    const totals = p.totalsByNode();
    expect(totals.map((n) => [n.nodeIndex, n.count, n.totalMs])).toEqual([
      [0, 2, 2],
      [1, 2, 2],
      [2, 2, 2],
    ]);
    p.clear();
    expect(p.eventCount).toBe(0);
  });

  it('keeps at most maxEvents and counts the rest as dropped', () => {
    const p = new MicroProfiler({ maxEvents: 4 });
    const interp = interpreter(p, 3);
    interp.invoke();
    interp.invoke();
    expect(p.eventCount).toBe(4);
    expect(p.dropped).toBe(2);
  });

  it('ends the event of a node whose invoke throws', () => {
    const p = new MicroProfiler();
    const failing: Registration = {
      builtinCode: 32,
      customName: 'ADD_CONST',
      invoke() {
        throw new Error('boom');
      },
    };
    const interp = new MicroInterpreter(chainModel(2, 16), new OpResolver().register(failing), {
      planner: new TestLinearPlanner(),
      profiler: p,
    }).allocateTensors();
    expect(() => interp.invoke()).toThrow(/boom/);
    expect(p.events()).toHaveLength(1);
    expect(Number.isNaN(p.events()[0]!.endMs)).toBe(false);
  });

  it('recording allocates nothing in invoke (with a non-allocating clock)', () => {
    const clock = new Float64Array(1);
    const p = new MicroProfiler({ maxEvents: 64, now: () => (clock[0]! += 1) });
    const interp = interpreter(p, 6);
    const m = measureAllocation(() => {
      p.clear();
      interp.invoke();
    });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('with performance.now() the only garbage is its boxed result: at most 32 bytes per node event', () => {
    const p = new MicroProfiler({ maxEvents: 64 });
    const interp = interpreter(p, 6);
    const m = measureAllocation(
      () => {
        p.clear();
        interp.invoke();
      },
      { iterations: 1000 },
    );
    expect(m.medianTrialBytes / (1000 * 6), `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThanOrEqual(32 + 1);
  });
});
