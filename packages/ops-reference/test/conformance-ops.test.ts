/**
 * The per-operator conformance suite: every single-operator model in ../shared/conformance-ops, every
 * case, through ops-reference (+ ops-signal) with the greedy planner; integer (and bool) outputs
 * byte-equal to TFLM's, float32 within 1e-5 + 1e-4*|expected|. Prints a pass table per operator.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { OPS_SKIP_REASON, hasConformanceOps, listModels, readManifest, runCase } from '@micrort/test-support/conformance';

const results: { op: string; pass: boolean }[] = [];

describe.skipIf(!hasConformanceOps)('conformance-ops (ops-reference)', () => {
  for (const name of listModels('ops')) {
    const manifest = readManifest(name, 'ops');
    const op = manifest.op ?? name;
    describe(`${op} ${name}`, () => {
      manifest.cases.forEach((_, c) => {
        it(`case ${c}`, () => {
          const entry = { op, pass: false };
          results.push(entry);
          const r = runCase(name, c, { suite: 'ops' });
          entry.pass = r.pass;
          if (!r.pass) expect.fail(`${name} case ${c} (${manifest.variant ?? ''}): outputs differ ${JSON.stringify(r.outputs)}`);
        });
      });
    });
  }
});

if (!hasConformanceOps) {
  describe('conformance-ops (ops-reference)', () => {
    it.skip(OPS_SKIP_REASON, () => {});
  });
}

afterAll(() => {
  if (!results.length) return;
  const byOp = new Map<string, { pass: number; total: number }>();
  for (const r of results) {
    const e = byOp.get(r.op) ?? { pass: 0, total: 0 };
    e.total++;
    if (r.pass) e.pass++;
    byOp.set(r.op, e);
  }
  const all = [...byOp.values()].reduce((s, e) => ({ pass: s.pass + e.pass, total: s.total + e.total }), { pass: 0, total: 0 });
  const lines = [...byOp].sort(([a], [b]) => a.localeCompare(b)).map(([op, e]) => `${op.padEnd(36)} ${e.pass}/${e.total}`);
  console.log(['', `conformance-ops (ops-reference): ${all.pass}/${all.total} cases pass`, ...lines].join('\n'));
});
