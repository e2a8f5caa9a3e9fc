/**
 * ../shared/conformance-ops through one kernel package, the helper every kernel package's suite calls:
 * every case of every single-operator model runs in a runtime where the package sits in front of
 * ops-reference (kernels registered with `{ fallback: true }`, or a delegate; ops-reference alone for
 * ops-reference's own suite); each case must match TFLM (integers byte for
 * byte, float32 within 1e-5 + 1e-4·|expected|). For each case the suite also records whether the
 * package ran the operator under test and, when it did not, why: `op not provided: falls back to
 * ops-reference` (the package has no kernel for the op) or `declined: <reason>` (its `supports()` or
 * the delegate said why). The table printed at the end counts the cases per operator and per reason.
 *
 * Usage in a vitest file:
 *   describeConformanceOps({ label: 'ops-simd (fast)', provider: PROVIDER, resolver: () => …,
 *                            handling: kernelHandling(PROVIDER) });
 * Skips with OPS_SKIP_REASON when ../shared/conformance-ops is absent.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkModel, type ArenaBacking, type Delegate, type MicroInterpreter, type ModelDef, type OpResolver } from '@micrort/core';
import {
  OPS_SKIP_REASON,
  compareBytes,
  hasConformanceOps,
  listModels,
  loadConformanceModel,
  makeInterpreter,
  modelDir,
  readBytes,
  readManifest,
  setCaseInputs,
  type Manifest,
} from './conformance.js';

/** The reason a case counts under when the package has no kernel for the operator under test. */
export const NOT_PROVIDED = 'op not provided: falls back to ops-reference';

/** How the package handled the operator under test in one case. */
export type Handling = { taken: true } | { taken: false; reason: string };

/** What a case tells the handling function. */
export interface CaseContext {
  name: string;
  manifest: Manifest;
  model: ModelDef;
  interpreter: MicroInterpreter;
  resolver: () => OpResolver;
}

/** Options of {@link describeConformanceOps}. */
export interface SuiteOptions {
  /** Shown in test names and the table, e.g. `ops-simd (fast)`. */
  label: string;
  /** The package's provider name, e.g. `@micrort/ops-simd`. */
  provider: string;
  /** A resolver with the package's kernels in front of ops-reference (or ops-reference alone for a delegate). */
  resolver: () => OpResolver;
  /** Delegates given to every interpreter (created once by the caller, e.g. a GPU delegate). */
  delegates?: () => Delegate[];
  /** Where the arena's memory comes from (a package that owns it, as ops-wasm does). */
  arenaBacking?: ArenaBacking;
  /** How the package handled the operator under test: see {@link kernelHandling}, {@link delegateHandling}. */
  handling: (c: CaseContext) => Handling;
}

/**
 * Handling for a kernel package registered in front of ops-reference: taken when a node of the
 * operator under test runs in `provider`; `declined: <supports() reason>` when the package registers
 * the op but declined the node; otherwise {@link NOT_PROVIDED}.
 */
export function kernelHandling(provider: string): (c: CaseContext) => Handling {
  return ({ manifest, model, interpreter, resolver }) => {
    const op = manifest.op!;
    const nodes = interpreter.nodes().filter((n) => n.op === op);
    if (nodes.some((n) => n.provider === provider)) return { taken: true };
    if (!nodes.some((n) => n.declinedBy?.includes(provider))) return { taken: false, reason: NOT_PROVIDED };
    const report = checkModel(model, resolver());
    const reasons = new Set<string>();
    for (const n of report.nodes) {
      if (n.op !== op) continue;
      for (const d of n.declined ?? []) if (d.provider === provider) reasons.add(d.reason ?? '(no reason given)');
    }
    return { taken: false, reason: `declined: ${[...reasons].join('; ') || '(no reason given)'}` };
  };
}

/** A delegate's per-node verdict (e.g. the GPU delegate's `decisions()`). */
export interface DelegateDecision {
  op: string;
  claimed: boolean;
  reason?: string;
}

/**
 * Handling for a delegate: taken when it claimed a node of the operator under test; a reason that
 * means "no kernel for this op" (`notProvided`) counts as {@link NOT_PROVIDED}, any other as `declined`.
 */
export function delegateHandling(
  decisions: () => readonly DelegateDecision[],
  notProvided: (reason: string) => boolean,
): (c: CaseContext) => Handling {
  return ({ manifest }) => {
    const op = manifest.op!;
    // a delegate names custom nodes by their builtin code only (CUSTOM)
    const mine = decisions().filter((d) => d.op === op || (op.startsWith('CUSTOM:') && d.op === 'CUSTOM'));
    if (mine.some((d) => d.claimed)) return { taken: true };
    if (!mine.length) return { taken: false, reason: 'declined: the node is not in the main subgraph the delegate partitions' };
    const reasons = [...new Set(mine.map((d) => d.reason ?? '(no reason given)'))];
    if (reasons.every(notProvided)) return { taken: false, reason: NOT_PROVIDED };
    return { taken: false, reason: `declined: ${reasons.filter((r) => !notProvided(r)).join('; ')}` };
  };
}

interface Outcome {
  op: string;
  pass: boolean;
  handling: Handling | null;
}

/** Registers one test per case, and the summary table after them. */
export function describeConformanceOps(options: SuiteOptions): void {
  const outcomes: Outcome[] = [];
  describe.skipIf(!hasConformanceOps)(`conformance-ops (${options.label})`, () => {
    for (const name of listModels('ops')) {
      const manifest = readManifest(name, 'ops');
      const op = manifest.op ?? name;
      describe(`${op} ${name}`, () => {
        manifest.cases.forEach((spec, c) => {
          it(`case ${c}`, () => {
            const outcome: Outcome = { op, pass: false, handling: null };
            outcomes.push(outcome);
            const interpreter = makeInterpreter(name, {
              suite: 'ops',
              resolver: options.resolver,
              ...(options.delegates ? { delegates: options.delegates() } : {}),
              ...(options.arenaBacking ? { arenaBacking: options.arenaBacking } : {}),
            });
            try {
              setCaseInputs(interpreter, name, c, 'ops');
              interpreter.invoke();
              const outputs = spec.outputs.map((o, j) =>
                compareBytes(o.dtype, interpreter.output(j).bytes, readBytes(join(modelDir(name, 'ops'), `case${c}`, o.file)), j),
              );
              outcome.handling = options.handling({
                name,
                manifest,
                model: loadConformanceModel(name, 'ops'),
                interpreter,
                resolver: options.resolver,
              });
              outcome.pass = outputs.every((o) => o.pass);
              const how = outcome.handling.taken ? `run by ${options.provider}` : outcome.handling.reason;
              if (!outcome.pass)
                expect.fail(
                  `${name} case ${c} (${manifest.variant ?? ''}; ${how}): outputs differ ${JSON.stringify(outputs.filter((o) => !o.pass))}`,
                );
            } finally {
              interpreter.dispose();
            }
          });
        });
      });
    }
  });
  if (!hasConformanceOps) {
    describe(`conformance-ops (${options.label})`, () => {
      it.skip(OPS_SKIP_REASON, () => {});
    });
  }
  afterAll(() => {
    if (outcomes.length) console.log(formatTable(options, outcomes));
  });
}

/** The printed summary: pass counts and who ran each operator, then the cases not taken by reason. */
function formatTable(options: SuiteOptions, outcomes: readonly Outcome[]): string {
  const short = options.provider.replace(/^@micrort\//, '');
  const byOp = new Map<string, { pass: number; total: number; taken: number; reasons: Map<string, number> }>();
  const byReason = new Map<string, { cases: number; ops: Map<string, number> }>();
  for (const o of outcomes) {
    const e = byOp.get(o.op) ?? { pass: 0, total: 0, taken: 0, reasons: new Map<string, number>() };
    e.total++;
    if (o.pass) e.pass++;
    if (o.handling?.taken) e.taken++;
    else {
      const reason = o.handling ? o.handling.reason : 'not run (the case failed before the check)';
      e.reasons.set(reason, (e.reasons.get(reason) ?? 0) + 1);
      const r = byReason.get(reason) ?? { cases: 0, ops: new Map<string, number>() };
      r.cases++;
      r.ops.set(o.op, (r.ops.get(o.op) ?? 0) + 1);
      byReason.set(reason, r);
    }
    byOp.set(o.op, e);
  }
  const pass = outcomes.filter((o) => o.pass).length;
  const taken = outcomes.filter((o) => o.handling?.taken).length;
  const ops = [...byOp].sort(([a], [b]) => a.localeCompare(b));
  const w = Math.max(2, ...ops.map(([op]) => op.length));
  const lines = [
    '',
    `conformance-ops (${options.label}): ${pass}/${outcomes.length} cases pass; ${short} runs the operator under test in ${taken}` +
      (short === 'ops-reference' ? '' : `, ops-reference in ${outcomes.length - taken}`),
    `${'op'.padEnd(w)}  pass     ${short.padEnd(9)}  not taken`,
    ...ops.map(([op, e]) => {
      const not = [...e.reasons].map(([r, n]) => `${n} ${r === NOT_PROVIDED ? 'op not provided' : r}`).join('; ');
      return `${op.padEnd(w)}  ${`${e.pass}/${e.total}`.padEnd(7)}  ${String(e.taken).padEnd(9)}  ${not}`.trimEnd();
    }),
    ...(byReason.size ? ['', `cases ${short} does not take, by reason:`] : []),
    ...[...byReason]
      .sort((a, b) => b[1].cases - a[1].cases)
      .map(
        ([r, e]) =>
          `  ${String(e.cases).padStart(4)} cases  ${r}  (${e.ops.size} op${e.ops.size === 1 ? '' : 's'}: ${[...e.ops].map(([op, n]) => `${op} ×${n}`).join(', ')})`,
      ),
  ];
  return lines.join('\n');
}
