/**
 * Timing, as ../shared/peers times its runtimes: warm-up invokes, then batches of K back-to-back
 * invokes with K doubled until a batch takes at least `minBatchMs`, then `samples` batches; each
 * sample is batch time / K, so the median and min are per invoke. Slow runtimes stop early: warm-up
 * ends after a fifth of `budgetMs`, sampling after `budgetMs` once `minSamples` were taken.
 */

/** How to time. */
export interface TimingOptions {
  /** Untimed invokes first (default 5). */
  warmup: number;
  /** Timed batches (default 50). */
  samples: number;
  /** K doubles until the fastest of 3 batches takes this long (default 2 ms). */
  minBatchMs: number;
  /** Time for sampling (and a fifth of it for warm-up) before stopping early (default 15 s). */
  budgetMs: number;
  /** Samples taken even past the budget (default 5). */
  minSamples: number;
}

export const DEFAULT_TIMING: TimingOptions = { warmup: 5, samples: 50, minBatchMs: 2, budgetMs: 15_000, minSamples: 5 };

/** What the timing found, per invoke. */
export interface Timing {
  medianMs: number;
  minMs: number;
  /** Invokes per sample (K). */
  batch: number;
  samples: number;
}

/** Median of the samples (mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('median of no samples');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A run calibrated by {@link calibrate}: `sample()` times one batch of `k` invokes and returns ms per invoke. */
export interface Calibrated {
  k: number;
  sample(): Promise<number>;
}

/**
 * Runs `run` once, warms it up and doubles the batch size K until a batch takes `minBatchMs` (a run far
 * slower than a batch needs is timed one invoke per sample without calibrating). A run that returns a
 * promise is awaited; a synchronous one is called in a plain loop, so synchronous runtimes pay no
 * microtask per invoke.
 */
export async function calibrate(run: () => void | Promise<void>, options: TimingOptions = DEFAULT_TIMING): Promise<Calibrated> {
  const f0 = performance.now();
  const first = run();
  const isAsync = first instanceof Promise;
  if (isAsync) await first;
  const firstMs = performance.now() - f0;
  const batch = isAsync
    ? async (k: number) => {
        const t0 = performance.now();
        for (let j = 0; j < k; j++) await run();
        return performance.now() - t0;
      }
    : async (k: number) => {
        const t0 = performance.now();
        for (let j = 0; j < k; j++) run();
        return performance.now() - t0;
      };
  const w0 = performance.now();
  for (let i = 1; i < options.warmup && performance.now() - w0 < options.budgetMs / 5; i++) await batch(1);
  let k = 1;
  while (firstMs < 4 * options.minBatchMs && k < 1 << 20) {
    const best = Math.min(await batch(k), await batch(k), await batch(k));
    if (best >= options.minBatchMs) break;
    k *= 2;
  }
  return { k, sample: async () => (await batch(k)) / k };
}

function timingOf(times: readonly number[], k: number): Timing {
  return { medianMs: median(times), minMs: Math.min(...times), batch: k, samples: times.length };
}

/** Times `run`: {@link calibrate}, then `samples` batches (fewer past `budgetMs`, never under `minSamples`). */
export async function timeRuns(run: () => void | Promise<void>, options: TimingOptions = DEFAULT_TIMING): Promise<Timing> {
  const c = await calibrate(run, options);
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < options.samples; i++) {
    if (times.length >= options.minSamples && performance.now() - t0 > options.budgetMs) break;
    times.push(await c.sample());
  }
  return timingOf(times, c.k);
}

/**
 * Times several runs **interleaved**: each is calibrated on its own, then every sample takes one batch of
 * each run in turn, so load that comes and goes on a shared machine falls on all of them alike (their
 * medians cover the same stretch of time). The budget is `budgetMs` per run. Returns one Timing per run,
 * in order.
 */
export async function timeInterleaved(
  runs: readonly (() => void | Promise<void>)[],
  options: TimingOptions = DEFAULT_TIMING,
): Promise<Timing[]> {
  const cal: Calibrated[] = [];
  for (const run of runs) cal.push(await calibrate(run, options));
  const times: number[][] = runs.map(() => []);
  const budget = options.budgetMs * runs.length;
  const t0 = performance.now();
  for (let i = 0; i < options.samples; i++) {
    if (i >= options.minSamples && performance.now() - t0 > budget) break;
    for (let r = 0; r < cal.length; r++) times[r]!.push(await cal[r]!.sample());
  }
  return cal.map((c, r) => timingOf(times[r]!, c.k));
}
