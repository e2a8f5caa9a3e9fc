/**
 * Cortex-M cycle estimates from the emulated mode's instruction counts.
 *
 * Cost of one instruction of each class at zero wait states:
 *
 * | class      | Cortex-M4 | Cortex-M7 | basis                                                                          |
 * |------------|-----------|-----------|--------------------------------------------------------------------------------|
 * | load       | 2         | 1         | M4 TRM table 3-1: LDR/LDRH/LDRB 2 (neighbouring loads pipeline to 1); M7 1/cycle from TCM |
 * | loadConst  | 2         | 1         | as load, plus `waitStates` per access (flash)                                  |
 * | store      | 2         | 1         | M4 TRM table 3-1: STR 2 (1 when pipelined); M7 1/cycle                         |
 * | mac        | 1         | 1         | M4: SMLAD/SMUAD/SMLABB/MUL/MLA single cycle; M7: one MAC pipe                  |
 * | simd       | 1         | 0.5       | M4: SXTB16/SXTAB16/PKHBT/SADD16 1; M7 dual-issues them                          |
 * | alu        | 1         | 0.5       | M4: 1; M7 dual-issues two ALU instructions                                     |
 * | branch     | 3         | 1         | M4: 1 + P with P (pipeline refill, 1..3) taken as 2; M7: predicted branch       |
 * | requant    | 14        | 8         | arm_nn_requantize: ~14 instructions (shift select, LSL, SMLAL, LSR/ORR, mask, AND, ASR, compare, conditional increment) |
 * | mulLong    | 1         | 1         | M4 TRM: SMULL/SMLAL 1; M7: one per cycle                                        |
 * | div        | 7         | 7         | SDIV 2..12 (early termination), midpoint                                        |
 *
 * Memory wait states are parameters: `waitStates` cycles are added to every constant (weight/bias) load,
 * `ramWaitStates` to every RAM load and store. These are estimates of the instruction stream the CMSIS-NN C
 * code compiles to, not a cycle-accurate simulation: register allocation, spills, instruction alignment,
 * caches and branch mispredictions are not modelled (see the package README).
 */
import {
  INSTR_CLASSES,
  INSTR_CLASS_COUNT,
  LOAD,
  LOAD_CONST,
  STORE,
  namedCounts,
  type InstrClassName,
  type NodeCounters,
  type SimdCounters,
} from './counters.js';

/** The cores with a cost table. */
export type CortexCore = 'm4' | 'm7';

/** Cycles per instruction of each class (zero wait states). */
export type CostTable = Record<InstrClassName, number>;

/** Cortex-M4 costs (ARM Cortex-M4 TRM, DDI 0439 / 100166, table 3-1 "Processor instruction set summary"). */
export const CORTEX_M4_COSTS: Readonly<CostTable> = Object.freeze({
  load: 2,
  loadConst: 2,
  store: 2,
  mac: 1,
  simd: 1,
  alu: 1,
  branch: 3,
  requant: 14,
  mulLong: 1,
  div: 7,
});

/**
 * Cortex-M7 costs: throughput estimates for the dual-issue, 6-stage pipeline described in ARM's Cortex-M7
 * TRM (DDI 0489, "Processor features": superscalar dual issue, branch prediction, 64-bit TCM interfaces),
 * which publishes no per-instruction table.
 */
export const CORTEX_M7_COSTS: Readonly<CostTable> = Object.freeze({
  load: 1,
  loadConst: 1,
  store: 1,
  mac: 1,
  simd: 0.5,
  alu: 0.5,
  branch: 1,
  requant: 8,
  mulLong: 1,
  div: 7,
});

/** Options of `estimateCycles`. */
export interface CycleOptions {
  core: CortexCore;
  /** Wait states of the memory holding constant model data (flash), added per constant load. Default 0. */
  waitStates?: number;
  /** Wait states of RAM, added per RAM load and store. Default 0. */
  ramWaitStates?: number;
  /** Overrides of the core's cost table. */
  costs?: Partial<CostTable>;
}

/** The estimate of one node. */
export interface NodeCycles {
  nodeIndex: number;
  op: string;
  kernel: string;
  invocations: number;
  /** Cycles over all counted invocations. */
  cycles: number;
  /** `cycles / invocations` (0 when never invoked). */
  cyclesPerInvoke: number;
  /** Cycles per instruction class, over all invocations. */
  byClass: Record<InstrClassName, number>;
}

/** The estimate of a model (all nodes of one SimdCounters). */
export interface CycleEstimate {
  core: CortexCore;
  waitStates: number;
  ramWaitStates: number;
  /** The effective cost table (wait states not included). */
  costs: CostTable;
  nodes: NodeCycles[];
  /** Sum of all nodes' cycles over all their invocations. */
  totalCycles: number;
  /** Sum of the nodes' cycles per invocation: one run of the model. */
  cyclesPerInvoke: number;
  /** Per-invocation cycles and node count per operator. */
  byOp: Record<string, { cycles: number; nodes: number }>;
  /** Per-invocation cycles per instruction class, all nodes. */
  byClass: Record<InstrClassName, number>;
}

/** The cost table of `core` with `overrides` applied. */
export function costTable(core: CortexCore, overrides: Partial<CostTable> = {}): CostTable {
  if (core !== 'm4' && core !== 'm7') throw new RangeError(`estimateCycles: core must be 'm4' or 'm7', got '${String(core)}'`);
  return { ...(core === 'm4' ? CORTEX_M4_COSTS : CORTEX_M7_COSTS), ...overrides };
}

/** Cycles of one counts array under `costs` and the wait states; also fills `byClass`. */
function cyclesOf(counts: Float64Array, costs: CostTable, waitStates: number, ramWaitStates: number, byClass: Float64Array): number {
  let total = 0;
  for (let i = 0; i < INSTR_CLASS_COUNT; i++) {
    let c = counts[i]! * costs[INSTR_CLASSES[i]!];
    if (i === LOAD_CONST) c += counts[i]! * waitStates;
    if (i === LOAD || i === STORE) c += counts[i]! * ramWaitStates;
    byClass[i] = c;
    total += c;
  }
  return total;
}

/**
 * Estimates Cortex-M4/M7 cycles from emulated-mode instruction counts: per node, per operator and for the
 * whole model. `counters` is the SimdCounters given to `createSimdKernels({ mode: 'emulated', counters })`
 * (or a list of node records).
 */
export function estimateCycles(counters: SimdCounters | readonly NodeCounters[], options: CycleOptions): CycleEstimate {
  const waitStates = options.waitStates ?? 0;
  const ramWaitStates = options.ramWaitStates ?? 0;
  if (!(waitStates >= 0) || !(ramWaitStates >= 0))
    throw new RangeError(`estimateCycles: wait states must be >= 0, got ${waitStates} and ${ramWaitStates}`);
  const costs = costTable(options.core, options.costs);
  const records = Array.isArray(counters) ? (counters as readonly NodeCounters[]) : (counters as SimdCounters).nodes;
  const nodes: NodeCycles[] = [];
  const byOp: Record<string, { cycles: number; nodes: number }> = {};
  const classTotals = new Float64Array(INSTR_CLASS_COUNT);
  const byClass = new Float64Array(INSTR_CLASS_COUNT);
  let totalCycles = 0;
  let perInvoke = 0;
  for (const r of records) {
    const cycles = cyclesOf(r.counts, costs, waitStates, ramWaitStates, byClass);
    const per = r.invocations > 0 ? cycles / r.invocations : 0;
    if (r.invocations > 0) for (let i = 0; i < INSTR_CLASS_COUNT; i++) classTotals[i]! += byClass[i]! / r.invocations;
    nodes.push({
      nodeIndex: r.nodeIndex,
      op: r.op,
      kernel: r.kernel,
      invocations: r.invocations,
      cycles,
      cyclesPerInvoke: per,
      byClass: namedCounts(byClass),
    });
    const entry = (byOp[r.op] ??= { cycles: 0, nodes: 0 });
    entry.cycles += per;
    entry.nodes++;
    totalCycles += cycles;
    perInvoke += per;
  }
  return {
    core: options.core,
    waitStates,
    ramWaitStates,
    costs,
    nodes,
    totalCycles,
    cyclesPerInvoke: perInvoke,
    byOp,
    byClass: namedCounts(classTotals),
  };
}
