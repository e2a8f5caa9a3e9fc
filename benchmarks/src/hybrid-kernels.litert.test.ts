/**
 * micrort's hybrid and int4 kernels against current LiteRT (LiteRT.js 2.5.3, WASM CPU, one thread) on
 * the writer-made models of test-support's hybrid-models.ts that TFLite 2.9 predates (per-channel hybrid
 * FULLY_CONNECTED and BATCH_MATMUL, int4 weights, hybrid TRANSPOSE_CONV, int16 × int8 BATCH_MATMUL,
 * blockwise weights): float outputs within the README rule, integer outputs byte for byte. LiteRT.js logs
 * kernel errors and still resolves `run()`, so its stderr is read and an error line fails the case.
 *
 * LiteRT.js hands float ops to XNNPACK, whose dynamic-range kernels quantize inputs their own way
 * (qd8: per row, asymmetric): where that is what runs, the differences are those of two quantizations of
 * the same input, and the case's tolerance (`relativeToMax`, a fraction of the output's range) says so.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel, tensorTypeName } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { compareBytes } from '@micrort/test-support/conformance';
import { hybridLiteRtCases, type HybridCase } from '@micrort/test-support/hybrid-models';
import { litertRuntime } from './runtimes/litert.js';

const hasLiteRt = (() => {
  try {
    createRequire(import.meta.url).resolve('@litertjs/core/package.json');
    return true;
  } catch {
    return false;
  }
})();
if (!hasLiteRt) console.log('@litertjs/core is not installed: the LiteRT.js check of the hybrid kernels is skipped (pnpm install)');

function runMicrort(c: HybridCase): { bytes: Uint8Array[]; dtypes: string[] } {
  const interp = new MicroInterpreter(loadModel(c.bytes), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
    arena: 'auto',
  }).allocateTensors();
  c.inputs.forEach((b, i) => interp.setInput(i, b));
  interp.invoke();
  const n = interp.outputsSize;
  const bytes = Array.from({ length: n }, (_, j) => interp.output(j).bytes.slice());
  const dtypes = Array.from({ length: n }, (_, j) => tensorTypeName(interp.output(j).type));
  interp.dispose();
  return { bytes, dtypes };
}

async function runLiteRt(c: HybridCase): Promise<{ outputs: Uint8Array[]; errors: string[] }> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n'));
    return true;
  }) as typeof process.stderr.write;
  try {
    const runner = await litertRuntime().load(c.bytes, c.name);
    try {
      c.inputs.forEach((b, i) => runner.setInput(i, b));
      await runner.run();
      return { outputs: await runner.readOutputs(), errors: lines.filter((l) => l.startsWith('ERROR')) };
    } finally {
      runner.dispose();
    }
  } finally {
    process.stderr.write = write;
  }
}

describe.skipIf(!hasLiteRt)('hybrid and int4 kernels vs LiteRT.js', () => {
  for (const c of hybridLiteRtCases())
    it(c.name, async () => {
      const mine = runMicrort(c);
      const theirs = await runLiteRt(c);
      expect(theirs.errors, 'LiteRT.js logged an error').toEqual([]);
      mine.bytes.forEach((got, j) => {
        const expected = theirs.outputs[j]!;
        const dtype = mine.dtypes[j]!;
        let o = compareBytes(dtype, got, expected, j);
        if (!o.pass && dtype !== 'float32' && c.integerTolerance) {
          const a = dtype === 'int8' ? new Int8Array(got.slice().buffer) : got;
          const b = dtype === 'int8' ? new Int8Array(expected.slice().buffer) : expected;
          const bad = Array.from(a).filter((v, i) => Math.abs(v - b[i]!) > c.integerTolerance!).length;
          console.log(`${c.name}: ${o.mismatches}/${o.elements} differ by at most ${c.integerTolerance}`);
          o = { ...o, pass: bad === 0, mismatches: bad };
        }
        if (!o.pass && dtype === 'float32' && c.relativeToMax) {
          const a = new Float32Array(got.slice().buffer);
          const b = new Float32Array(expected.slice().buffer);
          const range = b.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
          const bad = a.filter((v, i) => Math.abs(v - b[i]!) > 1e-5 + 1e-4 * Math.abs(b[i]!) + c.relativeToMax! * range).length;
          o = { ...o, pass: bad === 0, mismatches: bad };
        }
        console.log(`${c.name} output ${j}: max |Δ| ${o.maxAbsDiff.toExponential(2)} over ${o.elements} ${dtype} values`);
        expect(o.pass, JSON.stringify(o)).toBe(true);
      });
    });
});
