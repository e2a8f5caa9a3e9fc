/**
 * Measures JS heap allocation of a synchronous function, for "nothing allocates in invoke()" tests.
 *
 * Runs `fn` `warmup` times (JIT, lazy views), then `trials` × `iterations` times, reading V8's
 * used_heap_size before and after each trial. Without a GC inside a trial, the delta is exactly what
 * the trial allocated; a GC makes it negative. The median over trials is therefore an upper bound of
 * the typical allocation per trial, plus the measurement's own constant (reading the heap statistics
 * allocates a result object: a few hundred bytes to about 1 KB). That constant is measured on a no-op
 * with the same trials and iterations and subtracted for `bytesPerCall`, so a per-call threshold such
 * as "< 1 byte" does not depend on how large the constant happens to be on this V8.
 *
 * JIT tiering and deoptimisation can allocate once in a while (code, feedback vectors) even when the
 * measured code never does, and float code still running in an unoptimised tier boxes every double it
 * computes; a real per-call allocation shows in every round. So up to `rounds` rounds are measured and
 * the round with the smallest median is reported (stopping early once a round's median is at most
 * `goodEnoughBytes`). On a heavily loaded machine optimisation can lag for a while, so the default is
 * generous (10 rounds, with growing pauses): it costs time only when rounds keep allocating — always
 * for a kernel that really allocates, which still fails.
 */
import { getHeapStatistics } from 'node:v8';
import { ArenaRegion, KernelError, Phase, alignUp, type EvalTensor, type TfLiteContext } from '@micrort/core';
import { type KernelHarness } from '@micrort/core/testing';

// Optimisation should happen on the main thread: with concurrent recompilation, a loaded machine can
// leave hot code in an unoptimised tier (which boxes numbers, i.e. allocates) for the whole measurement.
// V8 decides at isolate start-up whether it compiles concurrently, so `--no-concurrent-recompilation`
// must be a flag of the process (the root vitest.config.ts passes it to every worker); set here, after
// start-up, it would change nothing.

export interface AllocationMeasure {
  /** Median bytes allocated per trial (raw: includes the measurement's own constant). */
  medianTrialBytes: number;
  /** The measurement's own constant: the median per trial of a no-op measured the same way. */
  baselineTrialBytes: number;
  /** Median bytes allocated per call of `fn`, net of the baseline (never negative). */
  bytesPerCall: number;
  deltas: number[];
}

export function measureAllocation(
  fn: () => void,
  { warmup = 2000, trials = 7, iterations = 2000, rounds = 10, goodEnoughBytes = 1024 } = {},
): AllocationMeasure {
  const baseline = measureRound(NOOP, Math.min(warmup, 500), trials, iterations, 0).medianTrialBytes;
  let best: AllocationMeasure | null = null;
  for (let r = 0; r < rounds; r++) {
    // V8 compiles optimised code on a background thread; on a loaded machine it may not be installed
    // yet, and unoptimised code boxes numbers (allocates). Sleep briefly so the compiler can finish.
    if (r > 0) Atomics.wait(SLEEPER, 0, 0, 50 * Math.min(r, 4));
    const m = measureRound(fn, r === 0 ? warmup : Math.ceil(warmup / 4), trials, iterations, baseline);
    if (!best || m.medianTrialBytes < best.medianTrialBytes) best = m;
    // Good enough: small in raw bytes and under a quarter of a byte per call net of the baseline.
    if (best.medianTrialBytes <= goodEnoughBytes && best.bytesPerCall < 0.25) break;
  }
  return best!;
}

const NOOP = (): void => undefined;

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function measureRound(fn: () => void, warmup: number, trials: number, iterations: number, baseline: number): AllocationMeasure {
  for (let i = 0; i < warmup; i++) fn();
  const deltas: number[] = [];
  for (let t = 0; t < trials; t++) {
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < iterations; i++) fn();
    const after = getHeapStatistics().used_heap_size;
    deltas.push(after - before);
  }
  const sorted = [...deltas].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { medianTrialBytes: median, baselineTrialBytes: baseline, bytesPerCall: Math.max(0, median - baseline) / iterations, deltas };
}

/**
 * A bare invoke-phase context for a node prepared with `KernelHarness`, to invoke it many times while
 * `measureAllocation` watches the heap (the harness' own context allocates in its phase guards). It
 * serves eval tensors and the scratch buffers the node requested (fresh, zeroed); every other callback
 * throws a KernelError, as nothing else may be called in invoke.
 */
export function invokeOnlyContext(h: KernelHarness): TfLiteContext {
  const scratch = h.scratchSizes.map((s) => new ArenaRegion(new ArrayBuffer(alignUp(Math.max(s, 16))), 0, s));
  const unsupported = (): never => {
    throw new KernelError('test', 0, 'not available in this context');
  };
  return {
    phase: Phase.Invoke,
    shapeRule: 'computed',
    tensorsSize: h.tensors.length,
    allocatePersistentBuffer: unsupported,
    requestScratchBufferInArena: unsupported,
    getScratchBuffer: (i: number) => scratch[i]!,
    getTensor: unsupported,
    getEvalTensor: (i: number): EvalTensor => h.tensors[i]!,
    resizeTensor: unsupported,
    declareShapeBound: unsupported,
    // A data-dependent output's dims, in place (as the interpreter's context, without its messages).
    setActualShape: (i: number, dims: ArrayLike<number>) => {
      const t = h.tensors[i]!;
      const bound = t.upperBound;
      if (bound === null || bound.length !== dims.length) return unsupported();
      for (let k = 0; k < dims.length; k++) if (!(dims[k]! >= 0 && dims[k]! <= bound[k]!)) return unsupported();
      for (let k = 0; k < dims.length; k++) t.dims[k] = dims[k]!;
    },
    reportError: () => undefined,
    getExternalContext: () => undefined,
    getExecutionPlan: unsupported,
    getNodeAndRegistration: unsupported,
    replaceNodeSubsetsWithDelegateKernels: unsupported,
    currentSubgraph: 0,
    numSubgraphs: unsupported,
    numSubgraphInputs: unsupported,
    numSubgraphOutputs: unsupported,
    subgraphBuiltinCodes: unsupported,
    getSubgraphInput: unsupported,
    getSubgraphOutput: unsupported,
    invokeSubgraph: unsupported,
    resizeSubgraphInput: unsupported,
    prepareSubgraph: unsupported,
    getResourceVariables: unsupported,
    absorbPad: unsupported,
  };
}
