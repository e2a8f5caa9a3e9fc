/**
 * The per-operator conformance suite (../shared/conformance-ops) with ops-wasm in front of ops-reference,
 * the arena in WebAssembly memory: every case of every model whose operator ops-wasm serves must equal
 * TFLM's outputs (integers byte for byte, float32 within 1e-5 + 1e-4*|expected|). Models ops-wasm
 * declines run on ops-reference alone (its own suite covers them); the table printed at the end lists
 * them with the reason ops-wasm gave.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { OpResolver, builtinOperatorName } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { OPS_SKIP_REASON, hasConformanceOps, listModels, makeInterpreter, readManifest, runCase } from '@micrort/test-support/conformance';
import { PROVIDER } from '../src/index.js';
import { loadVariants } from './variants.js';

// every layer, however small (single-operator models are small): these check the kernels
const loaded = hasConformanceOps ? await loadVariants({ minMacs: 0 }) : [];

const served: { op: string; name: string; cases: number; pass: number }[] = [];
const declined: { op: string; name: string; why: string }[] = [];

describe.skipIf(!hasConformanceOps).each(loaded)('conformance-ops with ops-wasm ($variant.name)', ({ variant, wasm }) => {
  const resolver = () => registerSignalOps(registerReferenceOps(new OpResolver())).registerAll(wasm.kernels, { fallback: true });
  const opts = { suite: 'ops' as const, resolver, arenaBacking: wasm.arenaBacking };
  const first = variant === loaded[0]!.variant; // the table counts the first variant's models
  for (const name of hasConformanceOps ? listModels('ops') : []) {
    const manifest = readManifest(name, 'ops');
    const op = manifest.op ?? name;
    it(`${op} ${name}`, () => {
      let interp;
      try {
        interp = makeInterpreter(name, opts);
      } catch (e) {
        // no provider at all (ops-reference lacks the op here): ops-reference's own suite reports it
        if (first) declined.push({ op, name, why: `no provider: ${(e as Error).constructor.name}` });
        return;
      }
      const nodes = interp.nodes();
      if (!nodes.some((n) => n.provider === PROVIDER)) {
        const provided = wasm.kernels.some((k) => nodes.some((n) => n.op === builtinOperatorName(k.builtinCode)));
        if (first)
          declined.push({
            op,
            name,
            why: provided ? 'variant declined: falls back to ops-reference' : 'op not provided: falls back to ops-reference',
          });
        return;
      }
      const entry = { op, name, cases: manifest.cases.length, pass: 0 };
      if (first) served.push(entry);
      manifest.cases.forEach((_, c) => {
        const r = runCase(name, c, opts);
        if (!r.pass) expect.fail(`${name} case ${c} (${manifest.variant ?? ''}): outputs differ ${JSON.stringify(r.outputs)}`);
        entry.pass++;
      });
    });
  }
});

if (!hasConformanceOps) {
  describe('conformance-ops with ops-wasm', () => {
    it.skip(OPS_SKIP_REASON, () => {});
  });
}

afterAll(() => {
  loaded.forEach((l) => l.wasm.dispose());
  if (!served.length && !declined.length) return;
  const cases = served.reduce((s, e) => s + e.cases, 0);
  const pass = served.reduce((s, e) => s + e.pass, 0);
  const lines = served.map((e) => `  ${e.op.padEnd(22)} ${e.name.padEnd(44)} ${e.pass}/${e.cases}`);
  const byOp = new Map<string, number>();
  for (const d of declined) byOp.set(`${d.op}: ${d.why}`, (byOp.get(`${d.op}: ${d.why}`) ?? 0) + 1);
  console.log(
    [
      '',
      `conformance-ops with ops-wasm (${loaded.map((l) => l.variant.name).join(', ')}): ${served.length} models on ops-wasm, ${pass}/${cases} cases pass in each; ${declined.length} models left to ops-reference`,
      ...lines,
      'left to ops-reference (models):',
      ...[...byOp].sort().map(([k, n]) => `  ${k} (${n})`),
    ].join('\n'),
  );
});
