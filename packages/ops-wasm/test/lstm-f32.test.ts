/**
 * The float32 UNIDIRECTIONAL_SEQUENCE_LSTM of ops-wasm in the interpreter, in every variant of
 * test/variants.ts: random LSTMs of each variant set within the float tolerance (1e-5 + 1e-4·|expected|)
 * of ops-reference; TFLM's trained_lstm (the mnist_lstm example) with its LSTM node on ops-wasm, every
 * case's output within that tolerance of TFLM's; and invoke allocating nothing on
 * the standard LSTM and on one with CIFG, peepholes and projection (skipped without ../shared/conformance
 * for the model, not for the allocation checks).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { MicroInterpreter, OpResolver, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import {
  SKIP_REASON,
  compareBytes,
  hasConformance,
  makeInterpreter,
  modelDir,
  readBytes,
  readManifest,
  setCaseInputs,
} from '@micrort/test-support/conformance';
import { LSTM_F32_CASES, buildLstmF32, runLstm, type LstmF32Variants } from '../src/__tests__/single-op-lstm-f32.js';
import { firstMismatch } from '../src/__tests__/single-op-float.js';
import { wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';
import { loadVariants } from './variants.js';

const MODEL = 'trained_lstm';
const LSTM = 'UNIDIRECTIONAL_SEQUENCE_LSTM';
const variants = await loadVariants({ minMacs: 0 });
afterAll(() => variants.forEach((l) => l.wasm.dispose()));

if (!hasConformance) it.skip(`${MODEL} on ops-wasm: ${SKIP_REASON}`, () => {});

describe.skipIf(!hasConformance)(`${MODEL}: the float LSTM on ops-wasm within float tolerance of TFLM`, () => {
  for (const { variant, wasm: w } of variants)
    it(`${variant.name}: every case`, () => {
      const manifest = readManifest(MODEL);
      manifest.cases.forEach((c, i) => {
        const interp = makeInterpreter(MODEL, {
          resolver: () => registerReferenceOps(new OpResolver()).registerAll(w.kernels, { fallback: true }),
          arenaBacking: w.arenaBacking,
        });
        expect(
          interp
            .nodes()
            .filter((n) => n.op === LSTM)
            .map((n) => n.provider),
        ).toEqual([PROVIDER]);
        setCaseInputs(interp, MODEL, i);
        interp.invoke();
        c.outputs.forEach((spec, j) => {
          const r = compareBytes(spec.dtype, interp.output(j).bytes, readBytes(join(modelDir(MODEL), `case${i}`, spec.file)), j);
          expect(r.pass, `case ${i} output ${j}: ${JSON.stringify(r)}`).toBe(true);
        });
      });
    });
});

describe('random float LSTMs in every variant within 1e-5 + 1e-4·|ref| of ops-reference (3 invokes: the states carry over)', () => {
  for (const { variant, wasm: w } of variants)
    it.each(LSTM_F32_CASES)(`${variant.name}: %s, 6 random LSTMs`, (_, v) => {
      for (let seed = 101; seed <= 106; seed++) {
        const m = buildLstmF32(seed, v);
        const got = runLstm(m.def, m.inputs[0]!, w, 3);
        expect(got.served, m.desc).toBe(1);
        expect(firstMismatch(got.out, runLstm(m.def, m.inputs[0]!, null, 3).out), m.desc).toBeNull();
      }
    });
});

function expectAllocationFree(def: ModelDef, input: Float32Array): void {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  const interp = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    arenaBacking: wasm().arenaBacking,
  }).allocateTensors();
  expect(interp.nodes().map((n) => n.provider)).toEqual([PROVIDER]);
  interp.input(0).bytes.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
  expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
}

describe('float LSTM invoke allocates nothing', () => {
  it.each<[string, LstmF32Variants]>([
    ['standard, batch-major, 3 batches', { timeMajor: false, batches: 3 }],
    [
      'CIFG, peepholes and projection, time-major, 3 batches',
      { cifg: true, peephole: true, projection: true, timeMajor: true, batches: 3 },
    ],
  ])('%s', (_, v) => {
    const m = buildLstmF32(4, v);
    expectAllocationFree(m.def, m.inputs[0]!);
  });
});
