/**
 * `--cycles`: Cortex-M cycle estimates of a run with the emulated ops-simd kernels (ops-simd's
 * `estimateCycles` over the per-node instruction counters), per node, per operator and per model.
 */
import type { MicroInterpreter } from '@micrort/core';
import { estimateCycles, type CortexCore, type CycleOptions, type SimdCounters } from '@micrort/ops-simd';
import { UsageError, flagString, parseChoiceFlag, parseIntFlag, type ParsedArgs } from './args.js';
import { choice, flag, int, type OptionSpec } from './options.js';
import { printTable, type Out } from './print.js';

/** The cores `--core` accepts. */
export const CORES: readonly CortexCore[] = ['m4', 'm7'];

/** Options of the cycle estimate (`--cycles [--core m4|m7] [--wait-states N]`). */
export const CYCLE_OPTIONS: readonly OptionSpec[] = [
  flag('cycles', 'estimate Cortex-M cycles per node, per op and per model (runs --ops simd --simd-mode emulated)'),
  choice('core', 'the Cortex-M core of the estimate (with --cycles)', CORES, 'm4', 'CORE'),
  int('wait-states', 'flash wait states per constant (weight/bias) load (with --cycles)', 0),
];

/** One node of the estimate. */
export interface NodeCycleRow {
  index: number;
  op: string;
  /** The CMSIS-NN function that served the node, e.g. `arm_convolve_1x1_s8_fast`. */
  kernel: string;
  /** Estimated cycles of one invocation. */
  cycles: number;
  /** Share of the model's estimated cycles, 0..1. */
  share: number;
}

/** One operator of the estimate (all its nodes). */
export interface OpCycleRow {
  op: string;
  nodes: number;
  cycles: number;
  share: number;
}

/** What `run --cycles` prints and puts under `cycles` in --json. */
export interface CycleReport {
  core: CortexCore;
  /** Flash wait states added per constant (weight/bias) load. */
  waitStates: number;
  /** Estimated cycles of one invocation of the nodes ops-simd served. */
  cyclesPerInvoke: number;
  /** Nodes with an estimate (served by ops-simd) and nodes in the execution plan. */
  nodesEstimated: number;
  nodesTotal: number;
  /** Nodes served by another provider (no estimate), by index and op. */
  notEstimated: { index: number; op: string; provider: string }[];
  nodes: NodeCycleRow[];
  byOp: OpCycleRow[];
  /** Cycles per instruction class (load, loadConst, store, mac, simd, alu, branch, requant, mulLong, div). */
  byClass: Record<string, number>;
}

/**
 * Reads `--core` (default m4) and `--wait-states` (default 0), or null when `--cycles` is absent.
 * Either option without `--cycles` is a UsageError.
 */
export function cycleOptions(args: ParsedArgs): CycleOptions | null {
  const coreFlag = flagString(args, 'core');
  const waitFlag = flagString(args, 'wait-states');
  if (!args.flags.has('cycles')) {
    if (coreFlag !== undefined || waitFlag !== undefined) throw new UsageError('--core and --wait-states need --cycles');
    return null;
  }
  const core = parseChoiceFlag('core', coreFlag ?? 'm4', CORES);
  const waitStates = waitFlag === undefined ? 0 : parseIntFlag('wait-states', waitFlag);
  return { core, waitStates };
}

/** The estimate for the nodes of `interp` that the emulated kernels counting into `counters` served. */
export function cycleReport(interp: MicroInterpreter, counters: SimdCounters, options: CycleOptions): CycleReport {
  const est = estimateCycles(counters, options);
  const total = est.cyclesPerInvoke;
  const share = (c: number) => (total > 0 ? c / total : 0);
  const counted = new Map(est.nodes.filter((n) => n.invocations > 0).map((n) => [n.nodeIndex, n]));
  const plan = interp.nodes();
  const nodes: NodeCycleRow[] = [];
  const notEstimated: CycleReport['notEstimated'] = [];
  for (const n of plan) {
    const c = counted.get(n.index);
    if (c) nodes.push({ index: n.index, op: c.op, kernel: c.kernel, cycles: c.cyclesPerInvoke, share: share(c.cyclesPerInvoke) });
    else notEstimated.push({ index: n.index, op: n.op, provider: n.provider });
  }
  const byOp = Object.entries(est.byOp)
    .map(([op, e]) => ({ op, nodes: e.nodes, cycles: e.cycles, share: share(e.cycles) }))
    .sort((a, b) => b.cycles - a.cycles);
  return {
    core: est.core,
    waitStates: est.waitStates,
    cyclesPerInvoke: total,
    nodesEstimated: nodes.length,
    nodesTotal: plan.length,
    notEstimated,
    nodes,
    byOp,
    byClass: { ...est.byClass },
  };
}

/** 1234567.4 → "1,234,567". */
export function formatCycles(c: number): string {
  return Math.round(c).toLocaleString('en-US');
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** Prints the per-node table, the per-operator breakdown and the model total. */
export function printCycleReport(out: Out, r: CycleReport): void {
  const core = `Cortex-${r.core.toUpperCase()}, ${r.waitStates} flash wait state${r.waitStates === 1 ? '' : 's'}`;
  out.log('');
  out.log(`estimated cycles per invoke (${core}; emulated ops-simd instruction counts):`);
  printTable(
    out,
    ['node', 'op', 'kernel', 'cycles', 'share'],
    r.nodes.map((n) => [String(n.index), n.op, n.kernel, formatCycles(n.cycles), pct(n.share)]),
  );
  out.log('');
  printTable(
    out,
    ['op', 'nodes', 'cycles', 'share'],
    r.byOp.map((o) => [o.op, String(o.nodes), formatCycles(o.cycles), pct(o.share)]),
  );
  out.log('');
  out.log(`model: ${formatCycles(r.cyclesPerInvoke)} cycles per invoke over ${r.nodesEstimated} of ${r.nodesTotal} nodes`);
  if (r.notEstimated.length) {
    const list = r.notEstimated.map((n) => `${n.index} ${n.op}`).join(', ');
    out.log(`not estimated (served by another provider): ${list}`);
  }
}
