/**
 * The conformance suite: every model in ../shared/conformance, every case, through ops-reference with
 * the greedy planner; integer outputs byte-equal to TFLM's, float32 within 1e-5 + 1e-4*|expected|.
 * Prints a pass/fail table per model with micrort's arena figures beside TFLM's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  SKIP_REASON,
  firstDifferingIntermediate,
  hasConformance,
  listModels,
  readManifest,
  runCase,
  tflmFigures,
  type CaseResult,
} from '@micrort/test-support/conformance';

/** Models micrort does not run yet, with the reason. Everything else must pass. */
export const NOT_SUPPORTED: Record<string, string> = {};

const results: CaseResult[] = [];

describe.skipIf(!hasConformance)('conformance (ops-reference)', () => {
  for (const model of listModels()) {
    const manifest = readManifest(model);
    describe(model, () => {
      if (NOT_SUPPORTED[model]) {
        it.skip(`skipped: ${NOT_SUPPORTED[model]}`, () => {});
        return;
      }
      it("every intermediate tensor of case 0 equals TFLM's", () => {
        const diff = firstDifferingIntermediate(model);
        expect(
          diff,
          diff
            ? `first differing: tensor ${diff.index} "${diff.name}" (${diff.producer_op}), ${diff.mismatches}/${diff.elements} elements`
            : '',
        ).toBeNull();
      });
      manifest.cases.forEach((_, c) => {
        it(`case ${c}`, () => {
          const r = runCase(model, c);
          results.push(r);
          if (!r.pass) {
            const diff = firstDifferingIntermediate(model);
            const where = diff
              ? `first differing intermediate of case 0: tensor ${diff.index} "${diff.name}" (${diff.dtype}, produced by ${diff.producer_op} at step ${diff.step}), ` +
                `${diff.mismatches}/${diff.elements} elements differ, first at ${diff.firstMismatchAt}, max |diff| ${diff.maxAbsDiff}`
              : 'every intermediate of case 0 matches';
            expect.fail(`${model} case ${c}: outputs differ (${JSON.stringify(r.outputs)}); ${where}`);
          }
        });
      });
    });
  }
});

if (!hasConformance) {
  describe('conformance (ops-reference)', () => {
    it.skip(SKIP_REASON, () => {});
  });
}

afterAll(() => {
  if (!results.length) return;
  const byModel = new Map<string, CaseResult[]>();
  for (const r of results) byModel.set(r.model, [...(byModel.get(r.model) ?? []), r]);
  const rows = [...byModel].map(([model, rs]) => {
    const t = tflmFigures(model);
    const a = rs[0]!.arena;
    return [
      model,
      `${rs.filter((r) => r.pass).length}/${rs.length}`,
      String(a.usedBytes),
      String(a.headBytes),
      String(a.tailBytes),
      t ? String(t.arena_used_bytes) : '-',
      t ? String(t.head_bytes) : '-',
    ];
  });
  const header = ['model', 'pass', 'arena', 'head', 'tail', 'TFLM arena', 'TFLM head'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(['', 'conformance (ops-reference, greedy planner):', fmt(header), ...rows.map(fmt)].join('\n'));
});
