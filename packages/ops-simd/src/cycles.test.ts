import { describe, expect, it } from 'vitest';
import { ALU, BRANCH, LOAD, LOAD_CONST, MAC, REQUANT, STORE, SimdCounters } from './counters.js';
import { CORTEX_M4_COSTS, CORTEX_M7_COSTS, estimateCycles } from './cycles.js';
import { buildConv } from './__tests__/harness-cases.js';

function sample(): SimdCounters {
  const c = new SimdCounters();
  const a = c.node(0, 'CONV_2D', 'arm_convolve_s8');
  a.counts[LOAD] = 10;
  a.counts[LOAD_CONST] = 4;
  a.counts[MAC] = 8;
  a.counts[BRANCH] = 2;
  a.counts[REQUANT] = 1;
  a.invocations = 2;
  const b = c.node(1, 'ADD', 'arm_elementwise_add_s8');
  b.counts[ALU] = 6;
  b.counts[STORE] = 3;
  b.invocations = 1;
  return c;
}

describe('estimateCycles', () => {
  it('applies the M4 table per class, per node and per invocation', () => {
    const e = estimateCycles(sample(), { core: 'm4' });
    const conv = 10 * 2 + 4 * 2 + 8 * 1 + 2 * 3 + 14;
    expect(e.nodes[0]!.cycles).toBe(conv);
    expect(e.nodes[0]!.cyclesPerInvoke).toBe(conv / 2);
    expect(e.nodes[1]!.cycles).toBe(6 + 3 * 2);
    expect(e.totalCycles).toBe(conv + 12);
    expect(e.cyclesPerInvoke).toBe(conv / 2 + 12);
    expect(e.byOp).toEqual({ CONV_2D: { cycles: conv / 2, nodes: 1 }, ADD: { cycles: 12, nodes: 1 } });
    expect(e.byClass.mac).toBe(4);
  });

  it('adds flash wait states to constant loads and RAM wait states to loads and stores', () => {
    const base = estimateCycles(sample(), { core: 'm4' }).totalCycles;
    expect(estimateCycles(sample(), { core: 'm4', waitStates: 3 }).totalCycles).toBe(base + 4 * 3);
    expect(estimateCycles(sample(), { core: 'm4', ramWaitStates: 1 }).totalCycles).toBe(base + 10 + 3);
  });

  it('M7 is cheaper than M4 for the same counts and accepts overrides', () => {
    const m4 = estimateCycles(sample(), { core: 'm4' }).totalCycles;
    const m7 = estimateCycles(sample(), { core: 'm7' }).totalCycles;
    expect(m7).toBeLessThan(m4);
    const custom = estimateCycles(sample(), { core: 'm7', costs: { mac: 2 } });
    expect(custom.totalCycles).toBe(m7 + 8);
    expect(CORTEX_M7_COSTS.mac).toBe(1);
    expect(CORTEX_M4_COSTS.requant).toBe(14);
  });

  it('rejects unknown cores and negative wait states', () => {
    expect(() => estimateCycles(sample(), { core: 'm33' as 'm4' })).toThrow(RangeError);
    expect(() => estimateCycles(sample(), { core: 'm4', waitStates: -1 })).toThrow(RangeError);
  });

  it('estimates a real emulated convolution', () => {
    const { harness, counters } = buildConv({ inH: 6, inW: 6, inC: 8, outC: 8, kH: 3, kW: 3 }, 'emulated');
    harness.invoke();
    const e = estimateCycles(counters, { core: 'm4', waitStates: 1 });
    const macs = 36 * 8 * 72; // positions x channels x taps
    // at least one cycle per two MACs (SMLAD), and well below the scalar bound
    expect(e.cyclesPerInvoke).toBeGreaterThan(macs / 2);
    expect(e.cyclesPerInvoke).toBeLessThan(macs * 6);
    expect(e.nodes[0]!.kernel).toBe('arm_convolve_s8');
  });
});
