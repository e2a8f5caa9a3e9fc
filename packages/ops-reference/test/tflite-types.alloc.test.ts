/**
 * "invoke() allocates nothing" for every op and type combination the types slice added (test-support's
 * tflite-type-additions.ts): the op's recipe model runs in a MicroInterpreter (ops-reference +
 * ops-signal, greedy planner) while V8's heap is watched over thousands of invokes — int64 word-pair
 * arithmetic, CAST's conversions, string moves and writes, hash-table imports and lookups included. A
 * kernel that allocated one small object per invoke would add kilobytes to every trial.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { referenceResolver } from '@micrort/test-support/conformance';
import { buildRecipe, comboLabel } from '@micrort/test-support/tflite-op-recipes';
import { TFLITE_OPS, tfliteResolverKey } from '@micrort/test-support/tflite-op-set';
import { TYPES_SLICE_COMBOS, TYPES_SLICE_OPS } from '@micrort/test-support/tflite-type-additions';

const combos = new Set(TYPES_SLICE_COMBOS);
const ops = new Set(TYPES_SLICE_OPS);
const cases = TFLITE_OPS.flatMap((op) =>
  op.types
    .map((combo) => ({ op, combo, key: `${tfliteResolverKey(op)} ${comboLabel(combo)}` }))
    .filter((c) => combos.has(c.key) || ops.has(tfliteResolverKey(c.op))),
);

describe(`the types slice's ${cases.length} combinations: invoke() allocates nothing`, () => {
  for (const c of cases)
    it(c.key, () => {
      const model = buildRecipe(c.op, c.combo);
      const interp = new MicroInterpreter(loadModel(model.bytes), referenceResolver(), { planner: createPlanner('greedy') });
      interp.allocateTensors();
      model.inputs.forEach((b, i) => interp.setInput(i, b));
      const m = measureAllocation(() => interp.invoke(), { warmup: 300, trials: 5, iterations: 400, rounds: 6 });
      expect(m.bytesPerCall, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(1);
      interp.dispose();
    });
});
