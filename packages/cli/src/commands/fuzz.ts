import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, flagInt, flagString, type ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import {
  InProcessExecutor,
  PoolExecutor,
  runCampaign,
  type CampaignProgress,
  type CampaignSummary,
  type Executor,
} from '../fuzz/campaign.js';
import { buildCorpus } from '../fuzz/corpus.js';
import { executeCase } from '../fuzz/execute.js';
import { WorkerPool } from '../fuzz/pool.js';
import { DirectorySink, readReproducer } from '../fuzz/reproducer.js';
import { outcomeKey } from '../fuzz/outcome.js';
import { JSON_OPTION, flag, int, text } from '../options.js';
import { printTable, type Out } from '../print.js';
import { Progress } from '@micrort/app-kit';
import { OPS_OPTION, PLANNER_OPTION } from '../runtime.js';

/** Default campaign length when neither --seconds nor --cases is given. */
export const DEFAULT_FUZZ_SECONDS = 60;

const here = dirname(fileURLToPath(import.meta.url));
/** The compiled worker, present when running from dist/ (absent when running the TypeScript sources). */
const WORKER_URL = new URL('../fuzz/worker.js', import.meta.url);

/** ../shared/conformance beside the repository (or beside the working directory), or null. */
export function defaultConformanceDir(): string | null {
  for (const d of [
    resolve(here, '..', '..', '..', '..', '..', 'shared', 'conformance'),
    resolve(process.cwd(), '..', 'shared', 'conformance'),
  ]) {
    if (existsSync(resolve(d, 'tflm_figures.json'))) return d;
  }
  return null;
}

/**
 * `micrort fuzz [--seconds N | --cases N] [--seed S] [--models a,b] [--conformance DIR] [--no-zoo]
 * [--workers N] [--out DIR] [--ops NAME] [--planner NAME] [--in-process] [--json]` and
 * `micrort fuzz --replay FILE.json`. Exit code 1 when any failure was found.
 */
export const fuzzCommand = defineCommand({
  name: 'fuzz',
  summary: 'mutate models and check that every case ends in ok or a typed error',
  description:
    'Mutates the conformance models and writer-made seeds (shapes, types, indices, quantization, options,\n' +
    'raw bytes), then loads, allocates and invokes each in a worker with a time bound. Outcomes: ok or a\n' +
    'typed error; anything else is a failure saved to --out. Exit code 1 when any failure was found.',
  options: [
    int('seconds', 'stop starting cases after N seconds', `${DEFAULT_FUZZ_SECONDS} (none when only --cases is given)`),
    int('cases', 'stop after N cases (with --seconds: whichever comes first)', 'no limit'),
    int('seed', 'campaign seed (case i of a seed is always the same model)', 1, 0, 'S'),
    text('models', 'a,b', 'seed models to mutate, by name (conformance folder names, zoo:NAME)', { default: 'all' }),
    text('conformance', 'DIR', 'the conformance models folder', { default: '../shared/conformance when present' }),
    flag('no-zoo', 'leave out the writer-made seed models'),
    int('workers', 'worker threads running cases', 1, 1),
    text('out', 'DIR', 'where failing cases are saved as reproducers', { default: 'fuzz-reproducers' }),
    OPS_OPTION,
    PLANNER_OPTION,
    flag('in-process', 'run cases in this thread (no time bound, no worker)'),
    text('replay', 'FILE.json', 'run one saved reproducer again and print its outcome (other options are ignored)'),
    JSON_OPTION,
  ],
  notes: 'Replay a failure: micrort fuzz --replay fuzz-reproducers/<name>.json',
  run: fuzzAction,
});

async function fuzzAction(args: ParsedArgs, out: Out): Promise<number> {
  const json = args.flags.has('json');
  const replay = flagString(args, 'replay');
  if (replay) return replayCommand(replay, json, out);

  const seed = flagInt(args, 'seed', 1);
  const cases = flagString(args, 'cases') === undefined ? undefined : flagInt(args, 'cases', 0);
  // --cases alone runs that many cases; --seconds alone (or neither: 60 s) runs for that long; both: whichever ends first.
  const seconds =
    flagString(args, 'seconds') === undefined && cases !== undefined ? undefined : flagInt(args, 'seconds', DEFAULT_FUZZ_SECONDS);
  const conformanceDir = flagString(args, 'conformance') ?? defaultConformanceDir();
  if (flagString(args, 'conformance') && !existsSync(conformanceDir!))
    throw new UsageError(`--conformance ${conformanceDir}: no such directory`);
  const models = flagString(args, 'models')?.split(',').filter(Boolean);
  const ops = flagString(args, 'ops') ?? 'reference';
  const planner = flagString(args, 'planner') ?? 'greedy';
  const corpus = buildCorpus({ conformanceDir, zoo: !args.flags.has('no-zoo'), ops, ...(models ? { models } : {}) });
  if (corpus.length === 0) throw new UsageError('fuzz: no seed models (no conformance directory found and --no-zoo given)');

  const inProcess = args.flags.has('in-process') || !existsSync(fileURLToPath(WORKER_URL));
  const workers = flagInt(args, 'workers', 1);
  const executor: Executor = inProcess
    ? new InProcessExecutor()
    : new PoolExecutor(new WorkerPool({ source: { url: WORKER_URL }, workers: Math.max(1, workers) }));
  const outDir = resolve(flagString(args, 'out') ?? 'fuzz-reproducers');
  const progress = new Progress(out, { enabled: !json });
  if (!json) {
    const conf = corpus.filter((c) => !c.name.startsWith('zoo:')).length;
    out.log(
      `fuzz: seed ${seed}, ${[cases !== undefined ? `${cases} cases` : '', seconds !== undefined ? `${seconds} s` : ''].filter(Boolean).join(' or ')}, ${corpus.length} seed models (${corpus.length - conf} writer-made, ${conf} conformance${conformanceDir ? '' : ': none found'}), ` +
        `ops ${ops}, planner ${planner}, ${inProcess ? 'in-process (no time bound)' : `${executor.concurrency} worker(s)`}`,
    );
  }
  const summary = await runCampaign({
    seed,
    ...(cases !== undefined ? { cases } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
    corpus,
    executor,
    ops,
    planner,
    sink: new DirectorySink(outDir),
    ...(progress.active
      ? {
          onProgress: (p: CampaignProgress) => {
            // the campaign ends at whichever of --cases and --seconds comes first
            const byCases = cases !== undefined ? p.cases / Math.max(1, cases) : 0;
            const bySeconds = seconds !== undefined ? p.elapsedSeconds / Math.max(1, seconds) : 0;
            const fraction = Math.min(1, Math.max(byCases, bySeconds));
            progress.update(
              'fuzz',
              Math.round(fraction * 1000),
              1000,
              `${p.cases} cases, ok ${p.ok}, rejected ${p.rejected}, failures ${p.failures}`,
            );
          },
        }
      : {}),
  });
  progress.done();
  if (json) out.log(JSON.stringify({ ...summary, reproducerDir: outDir }, null, 2));
  else printSummary(summary, outDir, out);
  return summary.failures.length ? 1 : 0;
}

/** The text report of a campaign. */
export function printSummary(s: CampaignSummary, outDir: string, out: Out): void {
  out.log(
    `cases: ${s.cases} in ${s.elapsedSeconds.toFixed(1)} s (${s.casesPerSecond.toFixed(1)}/s)${s.bounded ? '' : ', in-process: hangs are not bounded'}`,
  );
  const rows = Object.entries(s.outcomes)
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => {
      const stages = Object.entries(s.outcomesByStage)
        .filter(([k]) => k.startsWith(`${key}@`))
        .sort((a, b) => b[1] - a[1])
        .map(([k, m]) => `${k.slice(key.length + 1)} ${m}`)
        .join(', ');
      return [key, String(n), `${((100 * n) / Math.max(1, s.cases)).toFixed(1)}%`, stages];
    });
  printTable(out, ['outcome', 'cases', 'share', 'ended at'], rows);
  const m = s.memory;
  const mb = (b: number | null) => (b === null ? '-' : `${(b / 1048576).toFixed(1)} MiB`);
  out.log(
    `memory: heap after GC first ${mb(m.heapFirstGcBytes)}, last ${mb(m.heapLastGcBytes)}; peak heap ${mb(m.heapMaxBytes)}, peak RSS ${mb(m.rssMaxBytes)}, ` +
      `peak ArrayBuffers ${mb(m.arrayBuffersMaxBytes)}; worker restarts ${m.workerRestarts}`,
  );
  if (s.failures.length === 0) {
    out.log('failures: 0');
    return;
  }
  out.log(`failures: ${s.failures.length} (${Object.keys(s.signatures).length} distinct); reproducers in ${outDir}`);
  for (const [sig, n] of Object.entries(s.signatures).sort((a, b) => b[1] - a[1])) {
    const first = s.failures.find((f) => f.signature === sig)!;
    out.log(
      `  ${n}× ${first.kind} at ${first.stage}: ${first.errorName ? `${first.errorName}: ` : ''}${first.message ?? ''} ${first.detail ?? ''}`.trimEnd(),
    );
    out.log(`     e.g. case ${first.index} (${first.model}: ${first.mutations.join('; ')})${first.file ? ` → ${first.file}` : ''}`);
  }
}

function replayCommand(path: string, json: boolean, out: Out): number {
  const { bytes, options, meta } = readReproducer(path);
  const outcome = executeCase(bytes, options);
  if (json) out.log(JSON.stringify({ file: path, meta, outcome }, null, 2));
  else {
    if (meta) out.log(`replay: case ${meta.index} of seed ${meta.seed} (${meta.model}: ${meta.mutations.join('; ')})`);
    out.log(
      `outcome: ${outcomeKey(outcome)} at ${outcome.stage}${outcome.errorName ? ` — ${outcome.errorName}: ${outcome.message ?? ''}` : ''}${outcome.detail ? ` (${outcome.detail})` : ''}`,
    );
    if (outcome.stack) out.log(outcome.stack);
  }
  return outcome.result === 'failure' ? 1 : 0;
}
