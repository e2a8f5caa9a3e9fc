/**
 * Real models through the real interpreter with `--ops wasm`'s composition: ops-reference (and the
 * signal ops) registered first, ops-wasm in front with `{ fallback: true }`, the arena in the kernels'
 * WebAssembly memory, in every variant of test/variants.ts (one thread; the threaded build on two). Every
 * case's outputs must equal TFLM's bytes (float32 within the README tolerance), and case 0's
 * intermediates too. Skipped when ../shared/conformance is absent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import {
  SKIP_REASON,
  firstDifferingIntermediate,
  hasConformance,
  listModels,
  makeInterpreter,
  readManifest,
  runCase,
} from '@micrort/test-support/conformance';
import { PROVIDER } from '../src/index.js';
import { loadVariants } from './variants.js';

const loaded = hasConformance ? await loadVariants() : [];
afterAll(() => loaded.forEach((l) => l.wasm.dispose()));

describe.skipIf(!hasConformance).each(loaded)('conformance: ops-wasm ($variant.name) in front of ops-reference', ({ variant, wasm }) => {
  const resolver = () => registerSignalOps(registerReferenceOps(new OpResolver())).registerAll(wasm.kernels, { fallback: true });
  const opts = { resolver, arenaBacking: wasm.arenaBacking };
  for (const name of hasConformance ? listModels() : []) {
    it(`${name}: every case matches TFLM`, () => {
      const interp = makeInterpreter(name, opts);
      const served = interp.nodes().filter((n) => n.provider === PROVIDER).length;
      // the 224x224 MobileNet takes a while per case through the reference fallbacks: case 0 only
      const cases = name.startsWith('mobilenet') ? 1 : readManifest(name).cases.length;
      for (let c = 0; c < cases; c++) {
        const r = runCase(name, c, opts);
        expect({ name, c, failed: r.outputs.filter((o) => !o.pass) }).toEqual({ name, c, failed: [] });
      }
      if (served > 0 && !name.startsWith('mobilenet')) expect(firstDifferingIntermediate(name, opts)).toBeNull();
      console.log(`${name} (${variant.name}): ${served} of ${interp.nodes().length} nodes on ops-wasm`);
    });
  }
});
if (!hasConformance) describe('conformance: ops-wasm', () => it.skip(SKIP_REASON, () => {}));
