/**
 * ../shared/conformance (whole models with TFLM's outputs and intermediates) through one kernel package:
 * the one helper every kernel package's whole-model conformance test calls, as
 * `describeConformanceOps` is for the single-operator suite. Per model it registers a test that every
 * intermediate tensor of case 0 equals TFLM's (a no-reuse plan keeps them all) and one test per case
 * comparing the outputs (integers byte for byte, float32 within 1e-5 + 1e-4·|expected|); at the end it
 * prints a table of the cases passed, the nodes the package ran and micrort's arena figures beside TFLM's.
 *
 * Usage in a vitest file:
 *   describeConformanceModels({ label: 'ops-wasm', provider: PROVIDER, resolver: () => …, arenaBacking });
 * Skips with SKIP_REASON when ../shared/conformance is absent.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArenaBacking, ArenaUsage, Delegate, MicroInterpreter, OpResolver } from '@micrort/core';
import {
  SKIP_REASON,
  compareBytes,
  firstDifferingIntermediate,
  hasConformance,
  listModels,
  makeInterpreter,
  modelDir,
  readBytes,
  readManifest,
  setCaseInputs,
  tflmFigures,
  type RunOptions,
} from './conformance.js';

/** Options of {@link describeConformanceModels}. */
export interface ModelSuiteOptions {
  /** Shown in test names and the table, e.g. `ops-simd, fast`. */
  label: string;
  /** The package's provider name, e.g. `@micrort/ops-simd` (counts the nodes it runs). */
  provider: string;
  /** The runtime's resolver: the package's kernels in front of ops-reference (or ops-reference alone). */
  resolver: () => OpResolver;
  /** Delegates given to every interpreter (created by the caller, e.g. a GPU delegate). */
  delegates?: () => Delegate[];
  /** Where the arena's memory comes from (a package that owns it, as ops-wasm does). */
  arenaBacking?: ArenaBacking;
  /** The models to run (default: every model of the suite). */
  models?: readonly string[];
  /**
   * How many cases of a model to run (default: all). A package whose composition is slow on a large model
   * runs fewer (say case 0 of the 224x224 MobileNet) and says why in `fewerCases`.
   */
  cases?: (model: string, available: number) => number;
  /** Why a model runs fewer cases, for the table. */
  fewerCases?: string;
  /**
   * Whether to compare case 0's intermediates for a model (default: always), given the nodes the package
   * runs in it; a model not compared is reported as a skipped test saying why.
   */
  intermediates?: (model: string, served: number) => boolean | string;
  /** Fail a model where the package runs no node (for a list of models chosen because it serves them). */
  requireServed?: boolean;
  /** How many nodes the package runs in an interpreter (default: nodes whose provider is `provider`). */
  served?: (interpreter: MicroInterpreter) => number;
}

interface ModelRow {
  model: string;
  pass: number;
  cases: number;
  served: number;
  nodes: number;
  arena: ArenaUsage | null;
}

/** Registers the tests of every model, and the summary table after them. */
export function describeConformanceModels(options: ModelSuiteOptions): void {
  const rows = new Map<string, ModelRow>();
  const run: RunOptions = {
    resolver: options.resolver,
    ...(options.arenaBacking ? { arenaBacking: options.arenaBacking } : {}),
  };
  const runOptions = (): RunOptions => (options.delegates ? { ...run, delegates: options.delegates() } : run);
  const served = options.served ?? ((i: MicroInterpreter) => i.nodes().filter((n) => n.provider === options.provider).length);
  const models = hasConformance ? (options.models ?? listModels()).filter((m) => listModels().includes(m)) : [];

  describe.skipIf(!hasConformance)(`conformance (${options.label})`, () => {
    for (const model of models) {
      const manifest = readManifest(model);
      const cases = Math.min(manifest.cases.length, options.cases?.(model, manifest.cases.length) ?? manifest.cases.length);
      const row: ModelRow = { model, pass: 0, cases, served: -1, nodes: 0, arena: null };
      rows.set(model, row);
      describe(model, () => {
        for (let c = 0; c < cases; c++) {
          it(`case ${c}`, () => {
            const interp = makeInterpreter(model, runOptions());
            try {
              row.served = served(interp);
              // the model's operators (a delegate node stands for the ones it replaced)
              row.nodes = interp.nodes().reduce((n, node) => n + (node.delegate?.nodes.length ?? 1), 0);
              row.arena ??= interp.arenaUsage();
              if (options.requireServed) expect(row.served, `no node of ${model} runs on ${options.provider}`).toBeGreaterThan(0);
              setCaseInputs(interp, model, c);
              interp.invoke();
              const outputs = manifest.cases[c]!.outputs.map((o, j) =>
                compareBytes(o.dtype, interp.output(j).bytes, readBytes(join(modelDir(model), `case${c}`, o.file)), j),
              );
              if (!outputs.every((o) => o.pass)) {
                const diff = firstDifferingIntermediate(model, runOptions());
                const where = diff
                  ? `first differing intermediate of case 0: tensor ${diff.index} "${diff.name}" (${diff.dtype}, produced by ${diff.producer_op} at step ${diff.step}), ` +
                    `${diff.mismatches}/${diff.elements} elements differ, first at ${diff.firstMismatchAt}, max |diff| ${diff.maxAbsDiff}`
                  : 'every intermediate of case 0 matches';
                expect.fail(
                  `${model} case ${c} (${options.label}): outputs differ ${JSON.stringify(outputs.filter((o) => !o.pass))}; ${where}`,
                );
              }
              row.pass++;
            } finally {
              interp.dispose();
            }
          });
        }
        it("every intermediate tensor of case 0 equals TFLM's", (ctx) => {
          if (row.served < 0) {
            const interp = makeInterpreter(model, runOptions());
            row.served = served(interp);
            interp.dispose();
          }
          const want = options.intermediates?.(model, row.served) ?? true;
          if (want !== true) ctx.skip(typeof want === 'string' ? want : `intermediates not compared for ${options.label}`);
          const diff = firstDifferingIntermediate(model, runOptions());
          expect(
            diff,
            diff
              ? `first differing: tensor ${diff.index} "${diff.name}" (${diff.producer_op}, step ${diff.step}), ${diff.mismatches}/${diff.elements} elements, max |diff| ${diff.maxAbsDiff}`
              : '',
          ).toBeNull();
        });
      });
    }
  });
  if (!hasConformance) {
    describe(`conformance (${options.label})`, () => {
      it.skip(SKIP_REASON, () => {});
    });
  }
  afterAll(() => {
    if (rows.size) console.log(formatTable(options, [...rows.values()]));
  });
}

/** The printed summary: cases passed, nodes on the package, arena figures beside TFLM's. */
function formatTable(options: ModelSuiteOptions, rows: readonly ModelRow[]): string {
  const short = options.provider.replace(/^@micrort\//, '');
  const header = ['model', 'pass', `nodes on ${short}`, 'arena', 'head', 'tail', 'TFLM arena', 'TFLM head'];
  const body = rows.map((r) => {
    const t = tflmFigures(r.model);
    const a = r.arena;
    return [
      r.model,
      `${r.pass}/${r.cases}`,
      `${r.served}/${r.nodes}`,
      a ? String(a.usedBytes) : '-',
      a ? String(a.headBytes) : '-',
      a ? String(a.tailBytes) : '-',
      t ? String(t.arena_used_bytes) : '-',
      t ? String(t.head_bytes) : '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const pass = rows.reduce((s, r) => s + r.pass, 0);
  const cases = rows.reduce((s, r) => s + r.cases, 0);
  const fewer = rows.filter((r) => r.cases < readManifest(r.model).cases.length);
  return [
    '',
    `conformance (${options.label}): ${pass}/${cases} cases pass in ${rows.length} model${rows.length === 1 ? '' : 's'}`,
    fmt(header),
    ...body.map(fmt),
    ...(fewer.length
      ? [`fewer cases: ${fewer.map((r) => `${r.model} ${r.cases}`).join(', ')}${options.fewerCases ? ` (${options.fewerCases})` : ''}`]
      : []),
  ].join('\n');
}
