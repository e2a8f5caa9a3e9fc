import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import type { Out } from './print.js';
import type { CycleReport } from './simd-cycles.js';

function capture() {
  const log: string[] = [];
  const err: string[] = [];
  const out: Out = { log: (l) => log.push(l), err: (l) => err.push(l) };
  return { out, log, err, text: () => log.join('\n') };
}

async function runJson(flags: string[]) {
  const c = capture();
  const code = await main(['run', ...flags, '--json'], c.out);
  expect(code, c.err.join('\n')).toBe(0);
  return JSON.parse(c.log.join('\n'));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('micrort run --ops simd (built-in demo model)', () => {
  it('serves the int8 nodes it supports with ops-simd and gives the same outputs as ops-reference', async () => {
    const ref = await runJson(['--ops', 'reference']);
    const fast = await runJson(['--ops', 'simd']);
    const emulated = await runJson(['--ops', 'simd', '--simd-mode', 'emulated']);
    expect(fast.opsSet).toBe('simd (fast)');
    expect(emulated.opsSet).toBe('simd (emulated)');
    const providers = fast.ops.map((o: { provider: string }) => o.provider);
    expect(providers).toContain('@micrort/ops-simd');
    expect(providers).toContain('@micrort/ops-reference');
    expect(fast.outputs.map((o: { values: number[] }) => o.values)).toEqual(ref.outputs.map((o: { values: number[] }) => o.values));
    expect(emulated.outputs.map((o: { values: number[] }) => o.values)).toEqual(ref.outputs.map((o: { values: number[] }) => o.values));
    expect(fast.cycles).toBeUndefined();
  });
});

describe('micrort run --cycles (built-in demo model)', () => {
  it('estimates cycles per node, per op and per model, and lists the nodes it cannot estimate', async () => {
    const r = await runJson(['--cycles']);
    const cy = r.cycles as CycleReport;
    expect(r.opsSet).toBe('simd (emulated)');
    expect(cy).toMatchObject({ core: 'm4', waitStates: 0, nodesTotal: r.ops.length });
    const simdNodes = r.ops.filter((o: { provider: string }) => o.provider === '@micrort/ops-simd').map((o: { index: number }) => o.index);
    expect(cy.nodes.map((n) => n.index)).toEqual(simdNodes);
    expect(cy.nodesEstimated).toBe(simdNodes.length);
    expect(cy.notEstimated.map((n) => n.index)).toEqual(
      r.ops.filter((o: { provider: string }) => o.provider !== '@micrort/ops-simd').map((o: { index: number }) => o.index),
    );
    for (const n of cy.nodes) {
      expect(n.cycles).toBeGreaterThan(0);
      expect(n.kernel).toMatch(/^arm_/);
    }
    expect(cy.cyclesPerInvoke).toBeCloseTo(sum(cy.nodes.map((n) => n.cycles)), 6);
    expect(sum(cy.byOp.map((o) => o.cycles))).toBeCloseTo(cy.cyclesPerInvoke, 6);
    expect(sum(cy.byOp.map((o) => o.nodes))).toBe(cy.nodesEstimated);
    expect(sum(Object.values(cy.byClass))).toBeCloseTo(cy.cyclesPerInvoke, 6);
    expect(sum(cy.nodes.map((n) => n.share))).toBeCloseTo(1, 9);
  });

  it('--core m7 costs fewer cycles than m4 and flash wait states add cycles', async () => {
    const m4 = (await runJson(['--cycles'])).cycles as CycleReport;
    const m7 = (await runJson(['--cycles', '--core', 'm7'])).cycles as CycleReport;
    const m4ws = (await runJson(['--cycles', '--wait-states', '2'])).cycles as CycleReport;
    expect(m7.core).toBe('m7');
    expect(m7.cyclesPerInvoke).toBeLessThan(m4.cyclesPerInvoke);
    expect(m4ws.waitStates).toBe(2);
    // Each constant load pays 2 more cycles: the loadConst class grows, nothing else changes.
    expect(m4ws.byClass.loadConst).toBeGreaterThan(m4.byClass.loadConst!);
    expect(m4ws.cyclesPerInvoke - m4.cyclesPerInvoke).toBeCloseTo(m4ws.byClass.loadConst! - m4.byClass.loadConst!, 6);
    expect(m4ws.byClass.mac).toBe(m4.byClass.mac);
  });

  it('prints the per-node table, the per-op breakdown and the model total', async () => {
    const c = capture();
    expect(await main(['run', '--ops', 'simd', '--simd-mode', 'emulated', '--cycles', '--core', 'm7'], c.out)).toBe(0);
    const text = c.text();
    expect(text).toMatch(/estimated cycles per invoke \(Cortex-M7, 0 flash wait states/);
    expect(text).toMatch(/^\d+\s+FULLY_CONNECTED\s+arm_fully_connected_s8\s+[\d,]+\s+\d+\.\d%$/m);
    expect(text).toMatch(/^SOFTMAX\s+1\s+[\d,]+\s+\d+\.\d%$/m);
    expect(text).toMatch(/^model: [\d,]+ cycles per invoke over \d+ of \d+ nodes$/m);
    expect(text).toMatch(/not estimated \(served by another provider\): 0 QUANTIZE/);
  });

  it.each([
    [['--cycles', '--ops', 'reference'], /--cycles needs --ops simd --simd-mode emulated/],
    [['--cycles', '--simd-mode', 'fast'], /--cycles needs --ops simd --simd-mode emulated/],
    [['--core', 'm4'], /--core and --wait-states need --cycles/],
    [['--cycles', '--core', 'm0'], /--core must be one of m4, m7/],
    [['--cycles', '--wait-states', '-1'], /--wait-states must be a non-negative integer/],
    [['--ops', 'reference', '--simd-mode', 'emulated'], /--simd-mode applies to --ops simd only/],
  ])('rejects %j with a usage error', async (flags, message) => {
    const c = capture();
    expect(await main(['run', ...flags], c.out)).toBe(2);
    expect(c.err.join('\n')).toMatch(message);
  });
});
