/**
 * Coverage of TFLite's op set, proved by building models: for every op of TFLite's BuiltinOpResolver
 * (packages/test-support/src/tflite-op-set.ts: 158 builtins and 4 custom ops at the register.cc commit
 * it names) and every tensor-type combination its kernel accepts, the op's recipe
 * (tflite-op-recipes.ts) builds a small model and `checkModel` asks micrort (ops-reference +
 * ops-signal) whether the op prepares. Every combination that does not must be in the known-gap lists
 * below (KNOWN_TFLITE_GAPS, in two parts: MISSING_OPS, whole ops; MISSING_TYPES, combinations of ops
 * micrort has), each with its reason;
 * the tests fail on any other gap and on a listed gap that prepares now, so the lists stay true. The
 * file prints the summary and the gaps by kind (missing op, missing type, hybrid, string).
 *
 * docs/tflite-coverage.md is generated from the same run: `pnpm coverage:tflite` writes it, the last
 * test fails when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, referenceResolver } from '@micrort/test-support/conformance';
import {
  checkAllCombos,
  gapKind,
  groupByOp,
  summarize,
  tfliteCoverageMarkdown,
  type ComboCoverage,
  type GapKind,
} from '@micrort/test-support/tflite-coverage';
import { comboLabel } from '@micrort/test-support/tflite-op-recipes';
import { TFLITE_OPS, tfliteResolverKey } from '@micrort/test-support/tflite-op-set';

/** A group of type combinations of one op that micrort does not prepare yet. */
interface TypeGap {
  reason: string;
  combos: readonly string[];
}

const HYBRID = 'hybrid kernel (float32 activations × quantized weights) not implemented yet';
const STRING = 'string tensors not supported yet';

/**
 * Ops of BuiltinOpResolver micrort has no kernel for (every type combination of the op is a gap), and
 * why. Printed by this file; the tests fail when an op here prepares any combination.
 */
const MISSING_OPS: Readonly<Record<string, string>> = {};

/**
 * Type combinations micrort does not prepare yet in ops it has, by op (`inputs→outputs` as in
 * comboLabel), each group with why. Printed by this file; the tests fail when one of them prepares.
 */
const MISSING_TYPES: Readonly<Record<string, readonly TypeGap[]>> = {};

/** The known gaps: whole ops, and type combinations of the ops micrort has. */
const KNOWN_TFLITE_GAPS = { missingOps: MISSING_OPS, missingTypes: MISSING_TYPES } as const;

const DOC = join(REPO_ROOT, 'docs', 'tflite-coverage.md');
const COMMAND = 'pnpm coverage:tflite';

const results: ComboCoverage[] = checkAllCombos(referenceResolver);
const byOp = groupByOp(results);
const summary = summarize(results);

/** Every gap as `OP inputs→outputs` with its kind and listed reason (undefined when not listed). */
function gaps(): { key: string; kind: GapKind; listed?: string; why: string }[] {
  const out: { key: string; kind: GapKind; listed?: string; why: string }[] = [];
  for (const [op, cs] of byOp) {
    const name = tfliteResolverKey(op);
    const covered = cs.some((c) => c.prepares);
    for (const c of cs) {
      if (c.prepares) continue;
      const label = comboLabel(c.combo);
      const listed =
        KNOWN_TFLITE_GAPS.missingOps[name] ?? KNOWN_TFLITE_GAPS.missingTypes[name]?.find((g) => g.combos.includes(label))?.reason;
      out.push({ key: `${name} ${label}`, kind: gapKind(c, covered), ...(listed ? { listed } : {}), why: c.reason ?? '' });
    }
  }
  return out;
}

const all = gaps();

/** The known gaps as printed lines, by kind: missing ops by name, the others by op and reason. */
function knownGapLines(): string[] {
  const kindOf = (reason: string): GapKind => (reason === HYBRID ? 'hybrid' : reason === STRING ? 'string' : 'missing type');
  const count = (k: GapKind) => all.filter((g) => g.kind === k && g.listed).length;
  const lines = [`  missing op (${Object.keys(KNOWN_TFLITE_GAPS.missingOps).length} ops, ${count('missing op')} combinations):`];
  const byReason = new Map<string, string[]>();
  for (const [op, why] of Object.entries(KNOWN_TFLITE_GAPS.missingOps)) byReason.set(why, [...(byReason.get(why) ?? []), op]);
  for (const [why, ops] of byReason) lines.push(`    ${why}: ${ops.join(', ')}`);
  for (const k of ['missing type', 'hybrid', 'string'] as GapKind[]) {
    lines.push(`  ${k} (${count(k)} combinations):`);
    for (const [op, groups] of Object.entries(KNOWN_TFLITE_GAPS.missingTypes))
      for (const g of groups) if (kindOf(g.reason) === k) lines.push(`    ${op}: ${g.reason} — ${g.combos.join('; ')}`);
  }
  return lines;
}

console.log(
  [
    `TFLite op coverage: ${summary.opsPartial}/${summary.ops} ops prepare at least one type combination, ${summary.opsComplete}/${summary.ops} every one; ` +
      `${summary.combosCovered}/${summary.combos} type combinations (${summary.builtins} builtins + ${summary.customs} custom ops).`,
    'Known gaps (KNOWN_TFLITE_GAPS), by kind:',
    ...knownGapLines(),
  ].join('\n'),
);

describe("TFLite's BuiltinOpResolver op set", () => {
  it('the data: 158 builtins and 4 custom ops, unique, each with type combinations and a recipe that builds', () => {
    expect(summary.builtins).toBe(158);
    expect(summary.customs).toBe(4);
    const keys = TFLITE_OPS.map(tfliteResolverKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const op of TFLITE_OPS) {
      const labels = op.types.map(comboLabel);
      expect(new Set(labels).size, `${tfliteResolverKey(op)} lists a combination twice`).toBe(labels.length);
      expect(op.types.length, tfliteResolverKey(op)).toBeGreaterThan(0);
    }
    // checkAllCombos built every recipe; a failing build would have thrown above.
    expect(results.length).toBe(TFLITE_OPS.reduce((n, o) => n + o.types.length, 0));
  });

  it('the known-gap lists name only ops and combinations of the set', () => {
    const ops = new Map(TFLITE_OPS.map((o) => [tfliteResolverKey(o), new Set(o.types.map(comboLabel))]));
    const unknown = [
      ...Object.keys(KNOWN_TFLITE_GAPS.missingOps).filter((k) => !ops.has(k)),
      ...Object.entries(KNOWN_TFLITE_GAPS.missingTypes).flatMap(([k, gs]) =>
        gs.flatMap((g) => g.combos.filter((c) => !ops.get(k)?.has(c)).map((c) => `${k} ${c}`)),
      ),
    ];
    expect(unknown, 'stale entries of KNOWN_TFLITE_GAPS').toEqual([]);
  });

  it('every op and type combination micrort does not prepare is a known gap', () => {
    const unlisted = all.filter((g) => !g.listed).map((g) => `${g.key} [${g.kind}] — ${g.why}`);
    expect(unlisted, 'gaps not in KNOWN_TFLITE_GAPS (implement them, or list them with a reason)').toEqual([]);
  });

  it('no listed gap prepares now (remove the entries that were filled)', () => {
    const filled = [
      ...Object.keys(KNOWN_TFLITE_GAPS.missingOps).filter((k) =>
        byOp.get(TFLITE_OPS.find((o) => tfliteResolverKey(o) === k)!)?.some((c) => c.prepares),
      ),
      ...results
        .filter(
          (r) => r.prepares && KNOWN_TFLITE_GAPS.missingTypes[tfliteResolverKey(r.op)]?.some((g) => g.combos.includes(comboLabel(r.combo))),
        )
        .map((r) => r.key),
    ];
    expect(filled, 'listed gaps that micrort prepares now: remove them from KNOWN_TFLITE_GAPS').toEqual([]);
  });

  it(`docs/tflite-coverage.md is current (${COMMAND} writes it)`, () => {
    const text = tfliteCoverageMarkdown(results, COMMAND);
    if (process.env['MICRORT_WRITE_COVERAGE']) writeFileSync(DOC, text);
    expect(readFileSync(DOC, 'utf8'), `docs/tflite-coverage.md is stale: run ${COMMAND}`).toBe(text);
  });
});
