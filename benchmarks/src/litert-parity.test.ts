/**
 * micrort against current LiteRT (LiteRT.js 2.5.3, `@litertjs/core`, WASM CPU, one thread) on the models
 * TFLite 2.9 cannot run: STABLEHLO_COMPOSITE as ai-edge-torch writes it (test-support's
 * litert-models.ts) and the StableHLO builtins LiteRT's BuiltinOpResolver registers. Same seeded
 * inputs; integer outputs byte for byte, float32 within |a − b| ≤ 1e-5 + 1e-4·|b|. LiteRT.js logs kernel
 * errors and still resolves `run()`, so its stderr is read too: a model it did not run is a failure,
 * never a pass. The table of max differences is printed.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel, tensorTypeName } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { compareBytes } from '@micrort/test-support/conformance';
import { compositeModels, compositeResizeModels } from '@micrort/test-support/litert-models';
import { stablehloModels } from '@micrort/test-support/stablehlo-models';
import { randomInputs } from '@micrort/test-support/tflite-oracle';
import { litertRuntime } from './runtimes/litert.js';

const hasLiteRt = (() => {
  try {
    createRequire(import.meta.url).resolve('@litertjs/core/package.json');
    return true;
  } catch {
    return false;
  }
})();

/** Runs `fn` with stderr captured; returns its result and the lines LiteRT.js logged as errors. */
async function withErrorLog<T>(fn: () => Promise<T>): Promise<{ value?: T; thrown?: Error; errors: string[] }> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n'));
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), errors: lines.filter((l) => l.startsWith('ERROR')) };
  } catch (e) {
    return { thrown: e instanceof Error ? e : new Error(String(e)), errors: lines.filter((l) => l.startsWith('ERROR')) };
  } finally {
    process.stderr.write = write;
  }
}

/** micrort's outputs (ops-reference, greedy planner) on raw inputs, with each output's dtype. */
function runMicrort(bytes: Uint8Array, inputs: readonly Uint8Array[]): { dtype: string; bytes: Uint8Array }[] {
  const interp = new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
  }).allocateTensors();
  inputs.forEach((b, i) => interp.setInput(i, b));
  interp.invoke();
  const out = Array.from({ length: interp.outputsSize }, (_, j) => ({
    dtype: tensorTypeName(interp.output(j).type),
    bytes: interp.output(j).bytes.slice(),
  }));
  interp.dispose();
  return out;
}

/** Max |a − b| over float32 outputs (0 for equal integer outputs, NaN when sizes differ). */
function maxDiff(dtype: string, a: Uint8Array, b: Uint8Array): number {
  if (a.byteLength !== b.byteLength) return Number.NaN;
  if (dtype !== 'float32') return Buffer.from(a).equals(Buffer.from(b)) ? 0 : Number.POSITIVE_INFINITY;
  const x = new Float32Array(a.slice().buffer);
  const y = new Float32Array(b.slice().buffer);
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  return m;
}

/** The models compared (name → bytes). */
export function parityModels(): { name: string; bytes: Uint8Array; range?: [number, number] }[] {
  return [
    ...[...compositeModels(), ...compositeResizeModels()].map((m) => ({
      name: `STABLEHLO_COMPOSITE ${m.name}`,
      bytes: m.bytes,
      range: [-2, 2] as [number, number],
    })),
    ...stablehloModels(),
  ];
}

describe.skipIf(!hasLiteRt)('micrort vs LiteRT.js on what TFLite 2.9 cannot run', () => {
  it('every model: the same outputs', async () => {
    const runtime = litertRuntime();
    const rows: string[] = [];
    const failing: string[] = [];
    for (const m of parityModels()) {
      const r = await withErrorLog(async () => {
        const runner = await runtime.load(m.bytes, m.name);
        try {
          const infos = runner.inputs.map((t, i) => ({ index: i, name: t.name, dtype: t.dtype, shape: t.shape, byteLength: t.bytes }));
          const inputs = randomInputs(infos, 0x11e27, m.range ?? [-1, 1]);
          inputs.forEach((b, i) => runner.setInput(i, b));
          await runner.run();
          return { inputs, outputs: await runner.readOutputs() };
        } finally {
          runner.dispose();
        }
      });
      if (r.thrown || r.errors.length || !r.value) {
        failing.push(`${m.name}: LiteRT.js did not run it: ${r.errors[0] ?? r.thrown?.message}`);
        continue;
      }
      const ours = runMicrort(m.bytes, r.value.inputs);
      const diffs = ours.map((o, j) => {
        const theirs = r.value!.outputs[j]!;
        const cmp = compareBytes(o.dtype, o.bytes, theirs, j);
        if (!cmp.pass) failing.push(`${m.name} output ${j}: ${JSON.stringify(cmp)}`);
        return `${o.dtype} max |Δ| ${maxDiff(o.dtype, o.bytes, theirs).toExponential(2)}`;
      });
      rows.push(`| ${m.name} | ${diffs.join('; ')} |`);
    }
    console.log(['| model | micrort vs LiteRT.js |', '|---|---|', ...rows].join('\n'));
    expect(failing).toEqual([]);
  });
});
