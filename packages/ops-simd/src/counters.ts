/**
 * Instruction counters of the emulated execution mode. Each node run by an emulated ops-simd kernel owns a
 * `NodeCounters` record whose `counts` are indexed by instruction class; the emulated kernels bump them as
 * they execute (see machine.ts), and cycles.ts turns them into Cortex-M cycle estimates.
 */

/** Word/halfword/byte loads from RAM (activations, scratch, arena-resident op data). */
export const LOAD = 0;
/** Loads of constant model data (weights, biases): flash on a typical deployment, so they pay wait states. */
export const LOAD_CONST = 1;
/** Stores of any width. */
export const STORE = 2;
/** SMLAD-class multiply(-accumulate)s: SMLAD, SMLADX, SMUAD, SMLABB, SMLATT, SMULBB, SMULTT, MUL, MLA. */
export const MAC = 3;
/** SIMD widening and packing: SXTB16, SXTAB16 (with or without ROR), PKHBT, PKHTB, ROR, SADD16, QADD16. */
export const SIMD = 4;
/** Scalar ALU: ADD/SUB/shifts/logic/compare/MOV/select, QADD/QSUB/SSAT/USAT, CLZ. */
export const ALU = 5;
/** Branches: loop back-edges, taken conditional branches, calls and returns. */
export const BRANCH = 6;
/** One arm_nn_requantize (shift, SMLAL, rounding shift; see cycles.ts for its cost). */
export const REQUANT = 7;
/** 32x32->64 multiplies outside requantization (SMULL/SMLAL in fixed-point helpers such as softmax's). */
export const MUL_LONG = 8;
/** Integer divisions (SDIV). */
export const DIV = 9;

/** Class names, indexed by the constants above. */
export const INSTR_CLASSES = ['load', 'loadConst', 'store', 'mac', 'simd', 'alu', 'branch', 'requant', 'mulLong', 'div'] as const;
/** Name of one instruction class. */
export type InstrClassName = (typeof INSTR_CLASSES)[number];
/** Number of instruction classes. */
export const INSTR_CLASS_COUNT = INSTR_CLASSES.length;

/** The counters of one node. */
export interface NodeCounters {
  /** Index of the node in the execution plan. */
  readonly nodeIndex: number;
  /** Operator name, e.g. `CONV_2D`. */
  readonly op: string;
  /** The CMSIS-NN path serving the node, e.g. `arm_convolve_1x1_s8_fast`. */
  kernel: string;
  /** How many times the node was invoked since the last reset. */
  invocations: number;
  /** Instruction counts summed over all invocations, indexed by class (LOAD, LOAD_CONST, ...). */
  readonly counts: Float64Array;
}

/** Plain-object view of a node's counters (for reports and JSON). */
export interface NodeCountSummary {
  nodeIndex: number;
  op: string;
  kernel: string;
  invocations: number;
  counts: Record<InstrClassName, number>;
}

/**
 * Instruction counters for the nodes of one interpreter, shared by every emulated kernel created with
 * them (`createSimdKernels({ mode: 'emulated', counters })`). Use one instance per interpreter: records
 * are keyed by node index.
 */
export class SimdCounters {
  private readonly byNode = new Map<number, NodeCounters>();

  /**
   * The record of node `nodeIndex`, created on first use. Called by kernels in prepare; preparing the
   * node again (a new allocateTensors) keeps the record but zeroes it and updates `op`/`kernel`.
   */
  node(nodeIndex: number, op: string, kernel: string): NodeCounters {
    let rec = this.byNode.get(nodeIndex);
    if (!rec || rec.op !== op) {
      rec = { nodeIndex, op, kernel, invocations: 0, counts: new Float64Array(INSTR_CLASS_COUNT) };
      this.byNode.set(nodeIndex, rec);
    } else {
      rec.kernel = kernel;
      rec.invocations = 0;
      rec.counts.fill(0);
    }
    return rec;
  }

  /** All node records, by node index. */
  get nodes(): NodeCounters[] {
    return [...this.byNode.values()].sort((a, b) => a.nodeIndex - b.nodeIndex);
  }

  /** The record of one node, or undefined. */
  get(nodeIndex: number): NodeCounters | undefined {
    return this.byNode.get(nodeIndex);
  }

  /** Counts summed over all nodes, indexed by class. */
  totals(): Float64Array {
    const t = new Float64Array(INSTR_CLASS_COUNT);
    for (const r of this.byNode.values()) for (let i = 0; i < INSTR_CLASS_COUNT; i++) t[i]! += r.counts[i]!;
    return t;
  }

  /** Zeroes every count and invocation counter (records stay attached to their kernels). */
  reset(): void {
    for (const r of this.byNode.values()) {
      r.counts.fill(0);
      r.invocations = 0;
    }
  }

  /** Plain objects with named classes, by node index. */
  summary(): NodeCountSummary[] {
    return this.nodes.map((r) => ({
      nodeIndex: r.nodeIndex,
      op: r.op,
      kernel: r.kernel,
      invocations: r.invocations,
      counts: namedCounts(r.counts),
    }));
  }
}

/** Turns a counts array into `{ load, loadConst, ... }`. */
export function namedCounts(counts: ArrayLike<number>): Record<InstrClassName, number> {
  const o = {} as Record<InstrClassName, number>;
  INSTR_CLASSES.forEach((name, i) => {
    o[name] = counts[i] ?? 0;
  });
  return o;
}
