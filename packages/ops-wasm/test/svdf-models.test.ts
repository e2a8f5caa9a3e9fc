/**
 * The SVDF models of ../shared/conformance (keyword_scrambled: int16 states; keyword_scrambled_8bit:
 * int8 states with nonzero zero points) with ops-wasm in front of ops-reference, in every variant of
 * test/variants.ts: all seven SVDF nodes run on ops-wasm, every case's outputs and case 0's
 * intermediates equal TFLM's bytes, and with the cases run one after another in one interpreter (the
 * states carried) every SVDF output and state equals ops-reference's at every step. Skipped when ../shared/conformance is
 * absent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import {
  SKIP_REASON,
  firstDifferingIntermediate,
  hasConformance,
  listModels,
  makeInterpreter,
  readManifest,
  runCase,
  setCaseInputs,
} from '@micrort/test-support/conformance';
import { PROVIDER } from '../src/index.js';
import { loadVariants } from './variants.js';

const MODELS = ['keyword_scrambled', 'keyword_scrambled_8bit'];
const present = hasConformance && MODELS.every((m) => listModels().includes(m));
if (!present) console.log(hasConformance ? 'svdf-models skipped: the keyword_scrambled models are absent' : SKIP_REASON);
const loaded = present ? await loadVariants() : [];
afterAll(() => loaded.forEach((l) => l.wasm.dispose()));

describe.skipIf(!present)('SVDF models on ops-wasm', () => {
  for (const { variant, wasm } of loaded)
    for (const model of MODELS)
      it(`${model} (${variant.name}): its 7 SVDF nodes run on ops-wasm; cases and intermediates equal TFLM, chained invokes ops-reference`, () => {
        const opts = {
          resolver: () => registerReferenceOps(new OpResolver()).registerAll(wasm.kernels, { fallback: true }),
          arenaBacking: wasm.arenaBacking,
        };
        const svdf = makeInterpreter(model, opts)
          .nodes()
          .filter((n) => n.op === 'SVDF');
        expect(svdf.map((n) => n.provider)).toEqual(Array(7).fill(PROVIDER));
        const cases = readManifest(model).cases.length;
        expect(cases).toBeGreaterThan(0);
        for (let c = 0; c < cases; c++) expect(runCase(model, c, opts).pass, `case ${c}`).toBe(true);
        expect(firstDifferingIntermediate(model, opts)).toBeNull();
        // the cases one after the other in one interpreter (the states carried): every SVDF node's output
        // and state equal ops-reference's bytes at every step (a no-reuse plan keeps them all)
        const chained = (withWasm: boolean) => {
          const resolver = withWasm ? opts.resolver : () => registerReferenceOps(new OpResolver());
          const it = makeInterpreter(model, { ...opts, resolver, planner: createPlanner('linear') });
          const tensors = it
            .nodes()
            .filter((n) => n.op === 'SVDF')
            .flatMap((n) => [n.outputs[0]!, n.inputs[4]!]);
          return Array.from({ length: 3 * cases }, (_, i) => {
            setCaseInputs(it, model, i % cases);
            it.invoke();
            return tensors.map((t) => Array.from(it.tensor(t).bytes));
          });
        };
        expect(chained(true)).toEqual(chained(false));
      });
});
