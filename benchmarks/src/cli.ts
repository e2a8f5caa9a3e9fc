/**
 * `pnpm bench:peers [--models a,b] [--runtimes k1,k2] [--samples N] [--warmup N] [--budget-ms MS]
 * [--svg FILE] [--json FILE] [--in-process] [--list]`
 *
 * Benches each model in its own Node process on micrort (each kernel package) and the peers, prints a
 * table (median, min, ratio to LiteRT.js, max output difference) and writes an SVG chart and the JSON
 * results. Exit code 0 even when a runtime refuses a model (that is a result); 2 for a bad option.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Progress, progressAllowed, terminalProgressLine } from '@micrort/app-kit';
import { benchInChild } from './child.js';
import { benchModel, type ModelResult } from './harness.js';
import { defaultModels, findModel, modelCatalog, type BenchModel } from './models.js';
import { formatTable } from './report.js';
import { BASELINE_RUNTIME, allRuntimes, runtimeKey, selectRuntimes } from './runtimes/index.js';
import { renderChart } from './svg.js';
import { DEFAULT_TIMING, type TimingOptions } from './timing.js';

const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'out');

const USAGE = `usage: pnpm bench:peers [--models a,b] [--runtimes k1,k2] [--samples N] [--warmup N] [--budget-ms MS]
                        [--svg FILE] [--json FILE] [--in-process] [--list]
  --models     model names (see --list) or .tflite paths (default: the conformance models,
               ${'face_detection_short_range, hand_landmark_lite, mobilenet_v2_float_224'})
  --runtimes   runtime keys (default: all): ${allRuntimes()
    .map((r) => runtimeKey(r.id))
    .join(', ')}
  --samples    timed samples per runtime (default ${DEFAULT_TIMING.samples}); --warmup untimed invokes (default ${DEFAULT_TIMING.warmup})
  --budget-ms  stop sampling a runtime after this long, once 5 samples are in (default ${DEFAULT_TIMING.budgetMs})
  --svg, --json  where the chart and the results go (default benchmarks/out/peers.svg, peers.json)
  --in-process   bench every model in this process (default: one process per model)`;

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${v}`);
  return n;
}

/** Runs the command; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        models: { type: 'string' },
        runtimes: { type: 'string', default: '' },
        samples: { type: 'string' },
        warmup: { type: 'string' },
        'budget-ms': { type: 'string' },
        svg: { type: 'string', default: join(OUT_DIR, 'peers.svg') },
        json: { type: 'string', default: join(OUT_DIR, 'peers.json') },
        'in-process': { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    console.error(`UsageError: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.list) {
    for (const m of modelCatalog()) console.log(`${m.name.padEnd(40)} ${m.kind.padEnd(12)} ${m.description}`);
    console.log(
      `runtimes: ${allRuntimes()
        .map((r) => `${runtimeKey(r.id)} (${r.description})`)
        .join('; ')}`,
    );
    return 0;
  }
  let models: BenchModel[];
  let runtimes;
  const timing: Partial<TimingOptions> = {};
  try {
    models = values.models ? values.models.split(',').filter(Boolean).map(findModel) : defaultModels();
    runtimes = selectRuntimes(values.runtimes.split(',').filter(Boolean));
    const samples = int('samples', values.samples);
    const warmup = int('warmup', values.warmup);
    const budget = int('budget-ms', values['budget-ms']);
    if (samples !== undefined) timing.samples = Math.max(1, samples);
    if (warmup !== undefined) timing.warmup = warmup;
    if (budget !== undefined) timing.budgetMs = budget;
  } catch (e) {
    console.error(`UsageError: ${(e as Error).message}`);
    return 2;
  }
  const progress = new Progress(progressAllowed() ? { progress: terminalProgressLine(process.stderr) } : {});
  const results: ModelResult[] = [];
  for (const [i, m] of models.entries()) {
    const step = (runtime: string) =>
      progress.update('bench:peers', i, models.length, `model ${i + 1}/${models.length} ${m.name}: ${runtime}`);
    const opts = { timing, onStart: step };
    results.push(values['in-process'] ? await benchModel(m, runtimes, opts) : await benchInChild(m, runtimes, opts));
  }
  progress.done();
  const lines = formatTable(results, BASELINE_RUNTIME);
  for (const l of lines) console.log(l);
  const sources = [...new Set(results.map((r) => `${r.model}: ${r.inputSource}`))];
  console.log(`\ninputs (the same bytes for every runtime): ${sources.join('; ')}`);
  console.log(`runtimes: ${runtimes.map((r) => `${r.id} = ${r.description}`).join('; ')}`);
  console.log(
    `Node ${process.version}; median/min ms per invoke; × ${BASELINE_RUNTIME} = median / ${BASELINE_RUNTIME}'s median (above 1: slower); max |Δ| vs the first runtime that ran (quantized steps for integer outputs)`,
  );
  mkdirSync(dirname(values.svg), { recursive: true });
  writeFileSync(
    values.svg,
    renderChart(
      results,
      BASELINE_RUNTIME,
      allRuntimes().map((r) => r.id),
      `micrort vs LiteRT.js and tfjs-tflite (Node ${process.version})`,
    ),
  );
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileSync(
    values.json,
    `${JSON.stringify({ node: process.version, date: new Date().toISOString(), timing: { ...DEFAULT_TIMING, ...timing }, results }, null, 1)}\n`,
  );
  console.log(`chart → ${values.svg}; results → ${values.json}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? String(e)}`);
      process.exit(1);
    },
  );
}
