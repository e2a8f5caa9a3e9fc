/**
 * Per-node profiling (TFLM's MicroProfilerInterface / MicroProfiler). Give an interpreter a `Profiler`
 * (`InterpreterOptions.profiler`) and its invoke loop brackets every node's `invoke` with
 * `beginEvent` / `endEvent` — the nodes of every subgraph, so an IF's or WHILE's branches show as their
 * own events inside the control-flow node's event.
 */

/**
 * What the interpreter calls around every node it invokes. Called in the invoke phase, so an
 * implementation must not allocate (preallocate its storage, as `MicroProfiler` does) if invoke is to
 * stay allocation-free.
 */
export interface Profiler {
  /**
   * A node starts. `tag` is the op name (`CONV_2D`, `CUSTOM:<name>`, a delegate kernel's name),
   * `nodeIndex` and `subgraph` say which node. Returns a handle passed to `endEvent`.
   */
  beginEvent(tag: string, nodeIndex: number, subgraph: number): number;
  /** The node whose `beginEvent` returned `handle` finished (also called when its invoke threw). */
  endEvent(handle: number): void;
}

/** One recorded event of a `MicroProfiler`. */
export interface ProfileEvent {
  tag: string;
  nodeIndex: number;
  subgraph: number;
  /** Start and end, in milliseconds of the clock (`performance.now()` by default). */
  startMs: number;
  endMs: number;
  durationMs: number;
}

/** Per-node totals over the recorded events. */
export interface NodeProfile {
  tag: string;
  nodeIndex: number;
  subgraph: number;
  /** Number of events (invokes of the node) recorded. */
  count: number;
  totalMs: number;
  meanMs: number;
}

/** Options of `MicroProfiler`. */
export interface MicroProfilerOptions {
  /**
   * Events kept (default 4096). Later events are counted in `dropped` but not stored, as TFLM's
   * MicroProfiler stops at kMaxEvents.
   */
  maxEvents?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

const perf: { now(): number } | null = typeof performance !== 'undefined' ? performance : null;

/**
 * A ready `Profiler` that records up to `maxEvents` events in preallocated typed arrays: read them with
 * `events()`, or per node with `totalsByNode()`; `clear()` before the invoke you want to look at.
 *
 * Recording itself allocates nothing, but V8 returns `performance.now()`'s value as a heap number, so
 * with the default clock each node event costs 32 bytes of short-lived garbage (two timestamps). Pass
 * a non-allocating `now` to avoid even that.
 */
export class MicroProfiler implements Profiler {
  readonly maxEvents: number;
  /** Events that did not fit since the last `clear()`. */
  dropped = 0;
  private count = 0;
  private readonly tags: string[];
  private readonly nodes: Int32Array;
  private readonly subgraphs: Int32Array;
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  /** A custom clock, or null for `performance.now()`. */
  private readonly clock: (() => number) | null;

  constructor(options: MicroProfilerOptions = {}) {
    const max = options.maxEvents ?? 4096;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`MicroProfiler: maxEvents must be a positive integer, got ${max}`);
    this.maxEvents = max;
    this.tags = new Array<string>(max).fill('');
    this.nodes = new Int32Array(max);
    this.subgraphs = new Int32Array(max);
    this.starts = new Float64Array(max);
    this.ends = new Float64Array(max);
    this.clock = options.now ?? (perf ? null : () => Date.now());
  }

  beginEvent(tag: string, nodeIndex: number, subgraph: number): number {
    const i = this.count;
    if (i >= this.maxEvents) {
      this.dropped++;
      return -1;
    }
    this.count = i + 1;
    this.tags[i] = tag;
    this.nodes[i] = nodeIndex;
    this.subgraphs[i] = subgraph;
    this.ends[i] = Number.NaN;
    if (this.clock === null) this.starts[i] = perf!.now();
    else this.starts[i] = this.clock();
    return i;
  }

  endEvent(handle: number): void {
    if (handle < 0 || handle >= this.count) return;
    if (this.clock === null) this.ends[handle] = perf!.now();
    else this.ends[handle] = this.clock();
  }

  /** Number of events recorded since the last `clear()`. */
  get eventCount(): number {
    return this.count;
  }

  /** Forgets every event. */
  clear(): void {
    this.count = 0;
    this.dropped = 0;
  }

  /** The recorded events, in the order they began (events still open have `endMs` NaN). */
  events(): ProfileEvent[] {
    const out: ProfileEvent[] = [];
    for (let i = 0; i < this.count; i++) {
      const startMs = this.starts[i]!;
      const endMs = this.ends[i]!;
      out.push({
        tag: this.tags[i]!,
        nodeIndex: this.nodes[i]!,
        subgraph: this.subgraphs[i]!,
        startMs,
        endMs,
        durationMs: endMs - startMs,
      });
    }
    return out;
  }

  /** Events summed per node (subgraph, node index), in the order each node first ran. */
  totalsByNode(): NodeProfile[] {
    const byKey = new Map<string, NodeProfile>();
    for (const e of this.events()) {
      if (Number.isNaN(e.endMs)) continue;
      const key = `${e.subgraph}/${e.nodeIndex}`;
      let p = byKey.get(key);
      if (!p) byKey.set(key, (p = { tag: e.tag, nodeIndex: e.nodeIndex, subgraph: e.subgraph, count: 0, totalMs: 0, meanMs: 0 }));
      p.count++;
      p.totalMs += e.durationMs;
    }
    for (const p of byKey.values()) p.meanMs = p.totalMs / p.count;
    return [...byKey.values()];
  }
}
