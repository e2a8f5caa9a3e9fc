import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { MicroInterpreter } from '@micrort/core';
import { UsageError, flagInt, flagString, type ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import { sampleMemory, type MemorySample } from '../fuzz/heap.js';
import { defaultConformanceDir } from './fuzz.js';
import { BUILT_IN_MODELS, loadModelArg } from '../model-arg.js';
import { JSON_OPTION, int } from '../options.js';
import { Progress, SplitMix64, fillRandom } from '@micrort/app-kit';
import { ARENA_OPTION, OPS_OPTION, PLANNER_OPTION, buildInterpreter, composeChoice, runtimeChoice } from '../runtime.js';
import type { Out } from '../print.js';

/** Defaults of `micrort soak`. */
export const SOAK_DEFAULTS = {
  invokes: 100_000,
  samples: 20,
  maxHeapGrowthBytes: 1024 * 1024,
  maxRssGrowthBytes: 32 * 1024 * 1024,
} as const;

/** Options of {@link runSoak}. */
export interface SoakOptions {
  invokes: number;
  /** Invokes before the first sample (JIT, lazy views, caches); default 10% of `invokes`, at least 50. */
  warmup?: number;
  /** Memory samples after warm-up, each after a full GC (default 20). */
  samples?: number;
  /** Heap growth (after GC) from the first to the last sample that counts as a leak (default 1 MiB). */
  maxHeapGrowthBytes?: number;
  /** RSS growth from the first to the last sample that counts as a leak (default 32 MiB). */
  maxRssGrowthBytes?: number;
  onProgress?: (done: number, total: number, last: MemorySample | null) => void;
}

/** What a soak run measured. */
export interface SoakReport {
  invokes: number;
  warmup: number;
  seconds: number;
  invokesPerSecond: number;
  /** Whether samples were taken after a full GC (else they include garbage and are noisier). */
  gc: boolean;
  samples: { invokes: number; heapUsed: number; rss: number; arrayBuffers: number }[];
  heap: { first: number; last: number; max: number; growth: number; slopeBytesPer1000Invokes: number };
  rss: { first: number; last: number; max: number; growth: number };
  arrayBuffers: { first: number; last: number; growth: number };
  maxHeapGrowthBytes: number;
  maxRssGrowthBytes: number;
  /** True when neither heap nor RSS grew past its bound after warm-up. */
  pass: boolean;
}

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Invokes an allocated interpreter `invokes` times and samples heap (after GC), RSS and ArrayBuffer
 * memory at evenly spaced points after warm-up. invoke() allocates nothing, so after warm-up the
 * retained heap must stay flat: growth past the bound fails the run.
 */
export function runSoak(interp: MicroInterpreter, options: SoakOptions): SoakReport {
  const total = options.invokes;
  const warmup = Math.min(total, options.warmup ?? Math.max(50, Math.floor(total / 10)));
  const nSamples = Math.max(2, options.samples ?? SOAK_DEFAULTS.samples);
  const maxHeapGrowthBytes = options.maxHeapGrowthBytes ?? SOAK_DEFAULTS.maxHeapGrowthBytes;
  const maxRssGrowthBytes = options.maxRssGrowthBytes ?? SOAK_DEFAULTS.maxRssGrowthBytes;
  // Sample points: the end of warm-up, then evenly to the end.
  const points: number[] = [];
  for (let k = 0; k < nSamples; k++) points.push(Math.round(warmup + ((total - warmup) * k) / (nSamples - 1)));
  const samples: SoakReport['samples'] = [];
  let gc = true;
  let last: MemorySample | null = null;
  let next = 0;
  const t0 = performance.now();
  let lastProgress = t0;
  for (let i = 0; i <= total; i++) {
    while (next < points.length && points[next] === i) {
      last = sampleMemory(true);
      gc &&= last.afterGc;
      samples.push({ invokes: i, heapUsed: last.heapUsed, rss: last.rss, arrayBuffers: last.arrayBuffers });
      next++;
    }
    if (i === total) break;
    interp.invoke();
    if (options.onProgress && (i & 63) === 0 && performance.now() - lastProgress > 250) {
      lastProgress = performance.now();
      options.onProgress(i, total, last);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const first = samples[0]!;
  const end = samples[samples.length - 1]!;
  const heapGrowth = end.heapUsed - first.heapUsed;
  const rssGrowth = end.rss - first.rss;
  return {
    invokes: total,
    warmup,
    seconds,
    invokesPerSecond: total / Math.max(1e-9, seconds),
    gc,
    samples,
    heap: {
      first: first.heapUsed,
      last: end.heapUsed,
      max: Math.max(...samples.map((s) => s.heapUsed)),
      growth: heapGrowth,
      slopeBytesPer1000Invokes:
        slope(
          samples.map((s) => s.invokes),
          samples.map((s) => s.heapUsed),
        ) * 1000,
    },
    rss: { first: first.rss, last: end.rss, max: Math.max(...samples.map((s) => s.rss)), growth: rssGrowth },
    arrayBuffers: { first: first.arrayBuffers, last: end.arrayBuffers, growth: end.arrayBuffers - first.arrayBuffers },
    maxHeapGrowthBytes,
    maxRssGrowthBytes,
    pass: heapGrowth <= maxHeapGrowthBytes && rssGrowth <= maxRssGrowthBytes,
  };
}

/** A model argument: a file, a conformance model name, a built-in name, or (none) person_detect when available, else the demo model. */
function resolveModelPath(arg: string | undefined): string | undefined {
  if (arg && (existsSync(arg) || BUILT_IN_MODELS[arg])) return arg;
  const dir = defaultConformanceDir();
  const name = arg ?? 'person_detect';
  if (dir && existsSync(join(dir, name, 'model.tflite'))) return join(dir, name, 'model.tflite');
  if (arg)
    throw new UsageError(
      `soak: ${arg} is neither a file, a conformance model${dir ? ` in ${dir}` : ''} nor a built-in model (${Object.keys(BUILT_IN_MODELS).join(', ')})`,
    );
  return undefined;
}

const mib = (b: number) => `${(b / 1048576).toFixed(2)} MiB`;
const signedMib = (b: number) => `${b >= 0 ? '+' : ''}${(b / 1048576).toFixed(3)} MiB`;

/**
 * `micrort soak [model.tflite|conformance-name] [--invokes N] [--warmup N] [--samples N] [--ops NAME]
 * [--planner NAME] [--arena BYTES|auto] [--max-heap-growth BYTES] [--max-rss-growth BYTES] [--json]`
 * Exit code 1 when memory grew past the bounds.
 */
export const soakCommand = defineCommand({
  name: 'soak',
  summary: 'invoke one interpreter many times and fail when memory grows after warm-up',
  description:
    'Invokes one interpreter N times and samples heap (after GC), RSS and ArrayBuffers at evenly spaced\n' +
    'points after warm-up. Exit code 1 when heap or RSS grew past its bound.',
  arguments: [
    {
      name: 'model',
      description:
        'a .tflite file, a conformance model name (e.g. person_detect), or a built-in model (default: person_detect when ../shared/conformance is there, else demo)',
    },
  ],
  options: [
    int('invokes', 'invokes in all', SOAK_DEFAULTS.invokes, 1),
    int('warmup', 'invokes before the first sample', '10% of --invokes, at least 50'),
    int('samples', 'memory samples after warm-up (at least 2 are taken)', SOAK_DEFAULTS.samples),
    OPS_OPTION,
    PLANNER_OPTION,
    ARENA_OPTION,
    int(
      'max-heap-growth',
      'heap growth (after GC) in bytes from the first to the last sample that fails the run',
      SOAK_DEFAULTS.maxHeapGrowthBytes,
    ),
    int('max-rss-growth', 'RSS growth in bytes from the first to the last sample that fails the run', SOAK_DEFAULTS.maxRssGrowthBytes),
    JSON_OPTION,
  ],
  run: soakAction,
});

function soakAction(args: ParsedArgs, out: Out): number {
  const json = args.flags.has('json');
  const path = resolveModelPath(args.positional[0]);
  const loaded = loadModelArg(path);
  const model = loaded.model;
  // A conformance model is named by its folder (every file there is model.tflite).
  const label = path && !existsSync(args.positional[0] ?? '') && !BUILT_IN_MODELS[path] ? basename(dirname(path)) : loaded.label;
  const choice = runtimeChoice(args);
  const interp = buildInterpreter(composeChoice(choice), model, choice).allocateTensors();
  const rng = new SplitMix64(1);
  for (let i = 0; i < interp.inputsSize; i++) fillRandom(interp.input(i), rng);
  const invokes = flagInt(args, 'invokes', SOAK_DEFAULTS.invokes, 1);
  const warmupFlag = flagString(args, 'warmup');
  const progress = new Progress(out, { enabled: !json });
  const report = runSoak(interp, {
    invokes,
    ...(warmupFlag !== undefined ? { warmup: flagInt(args, 'warmup', 0) } : {}),
    samples: flagInt(args, 'samples', SOAK_DEFAULTS.samples),
    maxHeapGrowthBytes: flagInt(args, 'max-heap-growth', SOAK_DEFAULTS.maxHeapGrowthBytes),
    maxRssGrowthBytes: flagInt(args, 'max-rss-growth', SOAK_DEFAULTS.maxRssGrowthBytes),
    ...(progress.active
      ? {
          onProgress: (done: number, total: number, last: MemorySample | null) =>
            progress.update(
              `soak ${label}`,
              done,
              total,
              `${done}/${total} invokes${last ? `, heap ${mib(last.heapUsed)}, RSS ${mib(last.rss)}` : ''}`,
            ),
        }
      : {}),
  });
  progress.done();
  const u = interp.arenaUsage();
  if (json) {
    out.log(JSON.stringify({ model: label, arenaBytes: u.arenaBytes, ...report }, null, 2));
    return report.pass ? 0 : 1;
  }
  out.log(`soak: ${label}, arena ${u.arenaBytes.toLocaleString('en-US')} B`);
  out.log(
    `invokes: ${report.invokes} (${report.warmup} warm-up) in ${report.seconds.toFixed(1)} s, ${report.invokesPerSecond.toFixed(1)}/s`,
  );
  out.log(
    `heap${report.gc ? ' after GC' : ' (no GC available)'}: ${mib(report.heap.first)} after warm-up → ${mib(report.heap.last)} at the end (${signedMib(report.heap.growth)}, ` +
      `max ${mib(report.heap.max)}, trend ${report.heap.slopeBytesPer1000Invokes.toFixed(1)} B per 1000 invokes; bound ${signedMib(report.maxHeapGrowthBytes)})`,
  );
  out.log(
    `RSS: ${mib(report.rss.first)} → ${mib(report.rss.last)} (${signedMib(report.rss.growth)}, max ${mib(report.rss.max)}; bound ${signedMib(report.maxRssGrowthBytes)})`,
  );
  out.log(`ArrayBuffers: ${mib(report.arrayBuffers.first)} → ${mib(report.arrayBuffers.last)} (${signedMib(report.arrayBuffers.growth)})`);
  out.log(report.pass ? 'result: no growth after warm-up' : 'result: MEMORY GREW after warm-up');
  return report.pass ? 0 : 1;
}
