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
import { mergeRounds, processGroups, roundTiming } from './rounds.js';
import { BROWSER_RUNTIMES, benchInBrowser } from './browser/run-browser.js';
import { defaultModels, findModel, modelCatalog, type BenchModel } from './models.js';
import { formatTable } from './report.js';
import { BASELINE_RUNTIME, allRuntimes, runtimeKey, selectRuntimes } from './runtimes/index.js';
import { renderChart } from './svg.js';
import { DEFAULT_TIMING, type TimingOptions } from './timing.js';

const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'out');

const USAGE = `usage: pnpm bench:peers [--browser] [--models a,b] [--runtimes k1,k2] [--rounds N] [--samples N] [--warmup N]
                        [--budget-ms MS] [--svg FILE] [--json FILE] [--in-process] [--list]
  --browser    run the table in headless Chromium (/usr/bin/chromium), the page cross-origin isolated:
               micrort (one thread, two threads, SIMD128 build) beside LiteRT.js's relaxed and threaded builds
  --rounds     alternating rounds per model (default 3): every process (or page) group runs once per round;
               the table shows the median of the round medians
  --models     model names (see --list) or .tflite paths (default: the conformance models, face_detection_short_range,
               hand_landmark_lite, selfie_segmentation, mobilenet_v2_float_224, mobilenet_v2_uint8_224, deeplab_v3_float_257)
  --runtimes   runtime keys (default: all): ${allRuntimes()
    .map((r) => runtimeKey(r.id))
    .join(', ')}
               with --browser: ${BROWSER_RUNTIMES.map((r) => runtimeKey(r.id)).join(', ')}
  --samples    timed samples per runtime (default ${DEFAULT_TIMING.samples}); --warmup untimed invokes (default ${DEFAULT_TIMING.warmup})
  --budget-ms  stop sampling a runtime after this long, once 5 samples are in (default ${DEFAULT_TIMING.budgetMs})
  --svg, --json  where the chart and the results go (default benchmarks/out/peers[-browser].svg, .json)
  --in-process   bench every model in this process (default: one process per model)
  --sequential   time the runtimes of a process one after another (default: interleaved, a batch of each in
               turn, so their medians cover the same stretch of the machine's load)`;

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
        rounds: { type: 'string' },
        browser: { type: 'boolean', default: false },
        svg: { type: 'string' },
        json: { type: 'string' },
        'in-process': { type: 'boolean', default: false },
        sequential: { type: 'boolean', default: false },
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
  let runtimes: ReturnType<typeof selectRuntimes> = [];
  const timing: Partial<TimingOptions> = {};
  try {
    models = values.models ? values.models.split(',').filter(Boolean).map(findModel) : defaultModels();
    if (values.browser) {
      const known = BROWSER_RUNTIMES.map((r) => runtimeKey(r.id));
      for (const k of values.runtimes.split(',').filter(Boolean))
        if (!known.includes(k)) throw new Error(`unknown browser runtime "${k}"; known: ${known.join(', ')}`);
    } else runtimes = selectRuntimes(values.runtimes.split(',').filter(Boolean));
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
  let rounds: number;
  try {
    rounds = Math.max(1, int('rounds', values.rounds) ?? 3);
  } catch (e) {
    console.error(`UsageError: ${(e as Error).message}`);
    return 2;
  }
  const svgFile = values.svg ?? join(OUT_DIR, values.browser ? 'peers-browser.svg' : 'peers.svg');
  const jsonFile = values.json ?? join(OUT_DIR, values.browser ? 'peers-browser.json' : 'peers.json');
  if (values.browser) {
    const keys = values.runtimes.split(',').filter(Boolean);
    const ids = BROWSER_RUNTIMES.filter((r) => keys.length === 0 || keys.includes(runtimeKey(r.id))).map((r) => r.id);
    const { results, browser } = await benchInBrowser(models, {
      timing,
      rounds,
      runtimes: ids,
      onStep: (model, what) => progress.update('bench:peers --browser', 0, 1, `${model}: ${what}`),
    });
    progress.done();
    report(
      results,
      BROWSER_RUNTIMES.filter((r) => ids.includes(r.id)),
      `${browser}, ${rounds} rounds alternating`,
      svgFile,
      jsonFile,
      { ...DEFAULT_TIMING, ...timing },
      browser,
    );
    return 0;
  }
  const groups = processGroups(runtimes);
  const results: ModelResult[] = [];
  for (const [i, m] of models.entries()) {
    const parts: ModelResult[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const g of groups) {
        const step = (runtime: string) =>
          progress.update(
            'bench:peers',
            i,
            models.length,
            `model ${i + 1}/${models.length} ${m.name}: round ${r + 1}/${rounds} ${runtime}`,
          );
        const opts = {
          timing: roundTiming(timing, DEFAULT_TIMING, rounds),
          onStart: step,
          keepOutputs: r === 0,
          nodeFlags: g.flags,
          interleave: !values.sequential,
        };
        parts.push(
          values['in-process'] && g.flags.length === 0 ? await benchModel(m, g.runtimes, opts) : await benchInChild(m, g.runtimes, opts),
        );
      }
    }
    results.push(mergeRounds(parts, runtimes));
  }
  progress.done();
  report(
    results,
    runtimes,
    `Node ${process.version}, ${rounds} rounds alternating, the runtimes of a process timed ${values.sequential ? 'one after another' : 'interleaved'}`,
    svgFile,
    jsonFile,
    { ...DEFAULT_TIMING, ...timing },
    `Node ${process.version}`,
  );
  return 0;
}

/** Prints the table and writes the chart and the JSON. */
function report(
  results: ModelResult[],
  runtimes: readonly { id: string; description: string }[],
  where: string,
  svgFile: string,
  jsonFile: string,
  timing: TimingOptions,
  engine: string,
): void {
  const lines = formatTable(results, BASELINE_RUNTIME);
  for (const l of lines) console.log(l);
  const sources = [...new Set(results.map((r) => `${r.model}: ${r.inputSource}`))];
  console.log(`\ninputs (the same bytes for every runtime): ${sources.join('; ')}`);
  console.log(`runtimes: ${runtimes.map((r) => `${r.id} = ${r.description}`).join('; ')}`);
  console.log(
    `${where}; median of the round medians / min ms per invoke; × ${BASELINE_RUNTIME} = median / ${BASELINE_RUNTIME}'s median (above 1: slower); max |Δ| vs the first runtime that ran (quantized steps for integer outputs)`,
  );
  mkdirSync(dirname(svgFile), { recursive: true });
  writeFileSync(
    svgFile,
    renderChart(
      results,
      BASELINE_RUNTIME,
      runtimes.map((r) => r.id),
      `micrort vs LiteRT.js and tfjs-tflite (${engine})`,
    ),
  );
  mkdirSync(dirname(jsonFile), { recursive: true });
  writeFileSync(jsonFile, `${JSON.stringify({ engine, where, date: new Date().toISOString(), timing, results }, null, 1)}\n`);
  console.log(`chart → ${svgFile}; results → ${jsonFile}`);
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
