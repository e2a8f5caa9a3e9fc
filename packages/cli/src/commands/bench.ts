import type { ComposedRuntime, Delegate, MicroInterpreter, ModelDef } from '@micrort/core';
import { SCHEDULE_NAMES } from '@micrort/schedules';
import { Progress, SplitMix64, fillRandom, servedLines, type PackageShare } from '@micrort/app-kit';
import { UsageError, flagInt, flagString, parseIntFlag, type ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import { MODEL_ARGUMENT, loadModelArg } from '../model-arg.js';
import { JSON_OPTION, choice, flag, int, text } from '../options.js';
import {
  ARENA_OPTION,
  IN_PLACE_OPTION,
  OPS_OPTION,
  PLANNER_OPTION,
  RECOMPUTE_BUDGET_OPTION,
  SIMD_MODE_OPTION,
  THREADS_OPTION,
  buildInterpreter,
  composeChoice,
  runtimeChoice,
  scheduleChoice,
  type RuntimeChoice,
} from '../runtime.js';
import { servedReport } from '../served.js';
import { formatBytes, printTable, type Out } from '../print.js';
import { DELEGATE_OPTIONS, benchGpuModes, delegateChoice, delegateLabel } from '../delegate-flags.js';

/** Default number of timed invokes and of untimed warm-up invokes. */
export const DEFAULT_ITERS = 10;
/** Default warm-up: invokes until V8 has had time to optimise (at least 3 and 300 ms, at most 5000). */
export const DEFAULT_WARMUP = 'auto';
const AUTO_WARMUP = { minInvokes: 3, minMs: 300, maxInvokes: 5000 } as const;

/** Summary statistics of the timed invokes, in milliseconds. */
export interface BenchStats {
  iterations: number;
  warmup: number;
  medianMs: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
  /** 90th percentile (nearest rank). */
  p90Ms: number;
}

/** One benchmarked runtime (a model under one kernel set). */
export interface BenchRun extends BenchStats {
  model: string;
  /** The --ops kernel set: `reference` or `simd`. */
  ops: string;
  /** `reference`, `simd-fast` or `simd-emulated`. */
  mode: string;
  planner: string;
  /** The execution schedule (`normal`, `inplace`, `patch`, `patch+inplace`). */
  schedule: string;
  /** Size of the arena buffer, and the bytes of it in use (head + tail), and the head alone. */
  arenaBytes: number;
  arenaUsedBytes: number;
  headBytes: number;
  /** Nodes in the execution plan, and how many each provider serves. */
  nodes: number;
  providers: Record<string, number>;
  /** Each composed package's share of the model's nodes and MACs, and why the package in front declined the rest. */
  served: PackageShare[];
}

/**
 * Median, mean, min, max and nearest-rank 90th percentile of `samples` (milliseconds, at least one).
 * The median of an even count is the mean of the two middle samples.
 */
export function summarize(samples: readonly number[], warmup: number): BenchStats {
  const n = samples.length;
  if (n === 0) throw new RangeError('summarize: no samples');
  const s = [...samples].sort((a, b) => a - b);
  const mid = n >> 1;
  const medianMs = n % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  const meanMs = s.reduce((a, b) => a + b, 0) / n;
  const p90Ms = s[Math.max(0, Math.ceil(0.9 * n) - 1)]!;
  return { iterations: n, warmup, medianMs, meanMs, minMs: s[0]!, maxMs: s[n - 1]!, p90Ms };
}

/**
 * Runs `warmup` untimed invokes, then times `iters` invokes; `onProgress(done, total)` after each. The
 * inputs are written back before every invoke (untimed): the memory planner may reuse an input's bytes
 * for a later tensor once the input is consumed, so without that every invoke after the first would run
 * on whatever the previous one left there.
 */
export function timeInvokes(
  interp: MicroInterpreter,
  iters: number,
  warmup: number,
  onProgress?: (done: number, total: number) => void,
): number[] {
  const inputs = Array.from({ length: interp.inputsSize }, (_, i) => interp.input(i).bytes.slice());
  const restore = () => inputs.forEach((b, i) => interp.input(i).bytes.set(b));
  const total = iters + warmup;
  for (let i = 0; i < warmup; i++) {
    restore();
    interp.invoke();
    onProgress?.(i + 1, total);
  }
  const samples: number[] = [];
  for (let i = 0; i < iters; i++) {
    restore();
    const t0 = performance.now();
    interp.invoke();
    samples.push(performance.now() - t0);
    onProgress?.(warmup + i + 1, total);
  }
  return samples;
}

function modeOf(choice: RuntimeChoice, delegates: readonly Delegate[]): string {
  const base = choice.ops === 'simd' ? `simd-${choice.simdMode}` : choice.ops;
  return delegates.length ? `${base}+${delegateLabel(delegates)}` : base;
}

/** Composes the runtime for `choice`, builds the interpreter, fills its inputs from the seeded stream and times it. */
export function benchModel(
  model: ModelDef,
  label: string,
  choice: RuntimeChoice,
  opts: { iters: number; warmup: number | 'auto'; seed: number; progress?: Progress },
): BenchRun {
  const runtime = composeChoice(choice);
  try {
    return benchRuntime(model, label, choice, runtime, opts);
  } finally {
    runtime.dispose();
  }
}

function benchRuntime(
  model: ModelDef,
  label: string,
  choice: RuntimeChoice,
  runtime: ComposedRuntime,
  opts: { iters: number; warmup: number | 'auto'; seed: number; progress?: Progress },
): BenchRun {
  const interp = buildInterpreter(runtime, model, choice).allocateTensors();
  const rng = new SplitMix64(opts.seed);
  for (let i = 0; i < interp.inputsSize; i++) fillRandom(interp.input(i), rng);
  const mode = modeOf(choice, runtime.delegates);
  const progress = opts.progress;
  const warmup = opts.warmup === 'auto' ? autoWarmup(interp) : opts.warmup;
  const what = `bench ${label} [${mode}]`;
  const samples = timeInvokes(
    interp,
    opts.iters,
    opts.warmup === 'auto' ? 0 : warmup,
    progress?.active ? (d, t) => progress.update(what, d, t) : undefined,
  );
  const u = interp.arenaUsage();
  const providers: Record<string, number> = {};
  const nodes = interp.nodes();
  for (const n of nodes) providers[n.provider] = (providers[n.provider] ?? 0) + 1;
  return {
    model: label,
    ops: choice.ops,
    mode,
    planner: u.planner,
    schedule: choice.schedule?.name ?? 'normal',
    arenaBytes: u.arenaBytes,
    arenaUsedBytes: u.usedBytes,
    headBytes: u.headBytes,
    nodes: nodes.length,
    providers,
    served: servedReport(runtime, interp, model),
    ...summarize(samples, warmup),
  };
}

/**
 * Untimed invokes until the JIT has had time to optimise the kernels: at least 3 invokes and 300 ms (at
 * most 5000 invokes). Small models need hundreds of invokes before V8 optimises their hot functions, so a
 * fixed small warm-up would time unoptimised code. Returns how many invokes it ran.
 */
function autoWarmup(interp: MicroInterpreter): number {
  const t0 = performance.now();
  let n = 0;
  while (n < AUTO_WARMUP.maxInvokes && (n < AUTO_WARMUP.minInvokes || performance.now() - t0 < AUTO_WARMUP.minMs)) {
    timeInvokes(interp, 0, 1);
    n++;
  }
  return n;
}

function readCounts(args: ParsedArgs): { iters: number; warmup: number | 'auto'; seed: number } {
  const iters = flagInt(args, 'iters', DEFAULT_ITERS, 1);
  const warmupFlag = flagString(args, 'warmup');
  const warmup = warmupFlag === undefined || warmupFlag === 'auto' ? DEFAULT_WARMUP : flagInt(args, 'warmup', 0);
  return { iters, warmup, seed: flagInt(args, 'seed', 1) };
}

const ms = (v: number) => v.toFixed(3);

/**
 * `micrort bench [model] [--ops reference|simd] [--simd-mode fast|emulated] [--iters N] [--warmup N]
 * [--compare | --delegate gpu [--gpu-mode M|all] | --schedule NAME|all] [--json]`: the median (and mean,
 * min, p90, max) of N invokes after the warm-up. `--compare` times ops-reference and ops-simd on the
 * same inputs and prints both medians and their ratio; `--delegate gpu` times the kernels alone, then
 * with the GPU delegate; `--schedule all` times every schedule with its arena head.
 */
export const benchCommand = defineCommand({
  name: 'bench',
  summary: 'time invokes: median, mean, min, p90 and max; --compare reference vs simd',
  description:
    'Times N invokes of a model after a warm-up and prints the median, mean, min, p90 and max (ms).\n' +
    '--compare times ops-reference and ops-simd on the same inputs and prints the ratio of their medians;\n' +
    '--delegate gpu times the kernels alone, then with the GPU delegate in every available gpu.js mode.',
  arguments: [MODEL_ARGUMENT],
  options: [
    OPS_OPTION,
    SIMD_MODE_OPTION,
    THREADS_OPTION,
    int('iters', 'timed invokes', DEFAULT_ITERS, 1),
    text('warmup', 'N', 'untimed invokes before timing', {
      accepts: 'a non-negative integer, or auto',
      default: `auto (at least ${AUTO_WARMUP.minInvokes} invokes and ${AUTO_WARMUP.minMs} ms, at most ${AUTO_WARMUP.maxInvokes})`,
      check: (v) => void (v === 'auto' ? v : parseIntFlag('warmup', v)),
    }),
    flag('compare', 'time --ops reference and --ops simd on the same inputs and print the ratio of their medians'),
    PLANNER_OPTION,
    ARENA_OPTION,
    int('seed', 'seed of the random inputs (splitmix64)', 1),
    IN_PLACE_OPTION,
    choice(
      'schedule',
      'execution schedule, or all to time normal, inplace, patch and patch+inplace side by side',
      ['all', ...SCHEDULE_NAMES],
      'normal',
    ),
    RECOMPUTE_BUDGET_OPTION,
    JSON_OPTION,
    ...DELEGATE_OPTIONS,
  ],
  run: benchAction,
});

function benchAction(args: ParsedArgs, out: Out): number {
  const json = args.flags.has('json');
  const compare = args.flags.has('compare');
  if (compare && args.flags.has('ops')) throw new UsageError('--compare runs both --ops reference and --ops simd; leave out --ops');
  const counts = readCounts(args);
  const gpuModes = benchGpuModes(args);
  if (compare && gpuModes) throw new UsageError('--compare and --delegate gpu each run several runtimes; use one of them');
  const allSchedules = flagString(args, 'schedule') === 'all';
  if (allSchedules && (compare || gpuModes))
    throw new UsageError(`--schedule all and ${compare ? '--compare' : '--delegate gpu'} each run several runtimes; use one of them`);
  const loaded = loadModelArg(args.positional[0]);
  const model = loaded.model;
  // The path as given: conformance models are all called model.tflite, their folder names them.
  const label = args.positional[0] ?? loaded.label;
  const progress = new Progress(out, { enabled: !json });
  const opts = { ...counts, progress };

  const choices: RuntimeChoice[] = [];
  if (compare) {
    const simdMode = flagString(args, 'simd-mode');
    for (const ops of ['reference', 'simd']) {
      const flags = new Map(args.flags);
      flags.set('ops', ops);
      if (ops === 'reference') flags.delete('simd-mode');
      else if (simdMode !== undefined) flags.set('simd-mode', simdMode);
      choices.push(runtimeChoice({ positional: args.positional, flags }));
    }
  } else if (gpuModes) {
    // --delegate gpu: the kernels alone, then with the GPU delegate in every available mode (or the one named)
    const flags = new Map(args.flags);
    flags.delete('delegate');
    flags.delete('gpu-mode');
    const base = runtimeChoice({ positional: args.positional, flags });
    choices.push(base, ...gpuModes.map((m) => ({ ...base, ...delegateChoice(args, m) })));
  } else if (allSchedules) {
    // Every schedule on the same kernels and inputs, side by side.
    const flags = new Map(args.flags);
    flags.delete('schedule');
    const base = runtimeChoice({ positional: args.positional, flags });
    for (const name of SCHEDULE_NAMES) {
      const schedule = scheduleChoice(args, name);
      choices.push(name === 'normal' ? base : { ...base, schedule });
    }
  } else {
    choices.push(runtimeChoice(args));
  }
  const runs = choices.map((c) => benchModel(model, label, c, opts));
  progress.done();

  const ratio = compare ? runs[0]!.medianMs / runs[1]!.medianMs : null;
  if (json) {
    const several = compare || gpuModes || allSchedules;
    out.log(JSON.stringify(several ? { model: label, iterations: counts.iters, warmup: counts.warmup, runs, ratio } : runs[0], null, 2));
    return 0;
  }
  out.log(`model: ${label}`);
  out.log(
    `${counts.iters} timed invokes after ${counts.warmup === 'auto' ? `${runs.map((r) => r.warmup).join('/')} warm-up invokes (auto: >= 300 ms)` : `${counts.warmup} warm-up invokes`}, inputs splitmix64 seed ${counts.seed}`,
  );
  const withSchedule = allSchedules || runs.some((r) => r.schedule !== 'normal');
  printTable(
    out,
    ['ops', ...(withSchedule ? ['schedule', 'head'] : []), 'median ms', 'mean ms', 'min ms', 'p90 ms', 'max ms', 'arena', 'providers'],
    runs.map((r) => [
      r.mode,
      ...(withSchedule ? [r.schedule, formatBytes(r.headBytes)] : []),
      ms(r.medianMs),
      ms(r.meanMs),
      ms(r.minMs),
      ms(r.p90Ms),
      ms(r.maxMs),
      formatBytes(r.arenaBytes),
      Object.entries(r.providers)
        .map(([p, n]) => `${p} ${n}`)
        .join(', '),
    ]),
  );
  if (gpuModes)
    for (const r of runs.slice(1))
      out.log(
        `${r.mode}: median ${ms(r.medianMs)} ms, ${(runs[0]!.medianMs / r.medianMs).toFixed(2)}x the speed of ${runs[0]!.mode} (${ms(runs[0]!.medianMs)} ms)`,
      );
  if (allSchedules)
    for (const r of runs.slice(1))
      out.log(
        `${r.schedule}: head ${formatBytes(r.headBytes)} (${(r.headBytes / runs[0]!.headBytes).toFixed(3)}x normal), median ${ms(r.medianMs)} ms (${(r.medianMs / runs[0]!.medianMs).toFixed(2)}x normal)`,
      );
  if (ratio !== null) {
    out.log(`${runs[1]!.mode} vs reference: ${ratio.toFixed(2)}x (median ${ms(runs[0]!.medianMs)} ms / ${ms(runs[1]!.medianMs)} ms)`);
  }
  // What each timed runtime ran with: a package in front that fell back on most nodes times ops-reference.
  const seen = new Set<string>();
  for (const r of runs) {
    if (seen.has(r.mode)) continue;
    seen.add(r.mode);
    for (const line of servedLines(r.served)) out.log(runs.length > 1 ? `[${r.mode}] ${line}` : line);
  }
  return 0;
}
