/**
 * The TFLite op-set data checked against TFLite itself: every op and type combination of
 * tflite-op-set.ts is built by its recipe and run (interpreter creation, AllocateTensors, Invoke on
 * deterministic inputs) in TFLite 2.9's C library (tfjs-tflite-node, in child processes, since some 2.9
 * kernels crash on inputs they never expected). A combination not marked `after29` must run; one marked
 * `after29` (or of an op marked so) must be refused or crash there — so the recipes are valid models
 * and the "2.9 predates it" notes are true. Skipped, saying why, when the addon is unavailable.
 */
import { describe, expect, it } from 'vitest';
import { buildRecipe, comboLabel } from './tflite-op-recipes.js';
import { TFLITE_OPS, tfliteResolverKey } from './tflite-op-set.js';
import { runTfliteIsolated } from './tflite-oracle-isolated.js';
import { ORACLE_SKIP_REASON, oracleAvailable } from './tflite-oracle.js';

if (!oracleAvailable) console.log(ORACLE_SKIP_REASON);

describe.skipIf(!oracleAvailable)('TFLite 2.9 runs every recipe of the op set it has, and refuses the rest', () => {
  const cases = TFLITE_OPS.flatMap((op) => op.types.map((combo) => ({ op, combo, model: buildRecipe(op, combo) })));
  const results = runTfliteIsolated(cases.map((c) => ({ model: c.model.bytes, inputs: c.model.inputs })));
  const rows = cases.map((c, i) => ({
    key: `${tfliteResolverKey(c.op)} ${comboLabel(c.combo)}`,
    after29: Boolean(c.combo.after29 ?? c.op.after29),
    result: results[i]!,
  }));

  it(`runs the ${rows.filter((r) => !r.after29).length} combinations TFLite 2.9 has`, () => {
    const failing = rows
      .filter((r) => !r.after29 && r.result.status !== 'ok')
      .map((r) => `${r.key}: ${r.result.status === 'ok' ? '' : r.result.error}`);
    expect(failing, 'recipes TFLite 2.9 refuses (a bug in the recipe, or a combination to mark after29)').toEqual([]);
  });

  it(`refuses the ${rows.filter((r) => r.after29).length} combinations marked after29`, () => {
    const running = rows.filter((r) => r.after29 && r.result.status === 'ok').map((r) => r.key);
    expect(running, 'combinations marked after29 that TFLite 2.9 runs (remove the mark)').toEqual([]);
  });
});
