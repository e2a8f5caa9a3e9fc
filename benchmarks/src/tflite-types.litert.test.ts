/**
 * The types slice's combinations that TFLite 2.9 predates (marked `after29` in test-support's
 * tflite-op-set.ts) or computes wrongly (`TFLITE_29_DIFFERS`), run in micrort (ops-reference +
 * ops-signal) and in LiteRT.js 2.5.3 (`@litertjs/core`, WASM CPU, one thread) on the op's recipe model,
 * with float16 and uint16 graph outputs (LiteRT.js returns them) and value probes behind the outputs it
 * cannot return (complex64 → CAST and COMPLEX_ABS, bfloat16 → CAST, int4 → DEQUANTIZE, string → a
 * vocabulary HASHTABLE_FIND). The recipes' SHAPE sinks of those outputs are not compared: LiteRT.js
 * returns stale memory for SHAPE of a complex64, bfloat16 or string tensor (micrort checks each shape
 * against the model's while it prepares). Integer, bool, float16 and float64 outputs must be equal byte for byte,
 * float32 within 1e-5 + 1e-4·|LiteRT.js|. LiteRT.js logs kernel errors and still resolves `run()`, so any
 * "ERROR" it writes fails the case: its numbers are trusted, never its "runs". Each model also runs on
 * "wide" inputs (integer inputs over their type's whole range, never 0; the non-negative half for
 * `NON_NEGATIVE_INPUTS`). `LITERT_DIFFERS` (LiteRT.js's
 * result is not TFLite's semantics) are left out, `LITERT_CONSTANT_INPUTS` run with constant inputs,
 * each with its reason. Skipped, saying why, when `@litertjs/core` is not installed.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, TensorType, loadModel, tensorTypeName } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { compareBytes, referenceResolver } from '@micrort/test-support/conformance';
import { buildRecipe, comboLabel } from '@micrort/test-support/tflite-op-recipes';
import { LITERT_IO_TYPES, ORACLE_IO_TYPES } from '@micrort/test-support/tflite-recipe-builder';
import { TFLITE_OPS, tfliteResolverKey, type TfliteOp, type TypeCombo } from '@micrort/test-support/tflite-op-set';
import {
  LITERT_CONSTANT_INPUTS,
  LITERT_DIFFERS,
  NON_NEGATIVE_INPUTS,
  TFLITE_29_DIFFERS,
  TYPES_SLICE_COMBOS,
  TYPES_SLICE_OPS,
} from '@micrort/test-support/tflite-type-additions';
import { litertRuntime } from './runtimes/litert.js';
import type { TensorInfo } from './runtime.js';

const hasLiteRt = (() => {
  try {
    createRequire(import.meta.url).resolve('@litertjs/core/package.json');
    return true;
  } catch {
    return false;
  }
})();
if (!hasLiteRt) console.log('@litertjs/core is not installed: the LiteRT.js check of the types slice is skipped (pnpm install)');

const combos = new Set(TYPES_SLICE_COMBOS);
const ops = new Set(TYPES_SLICE_OPS);

interface Case {
  op: TfliteOp;
  combo: TypeCombo;
  key: string;
}

const cases: Case[] = TFLITE_OPS.filter((op) => op.kind === 'builtin').flatMap((op) =>
  op.types
    .map((combo) => ({ op, combo, key: `${tfliteResolverKey(op)} ${comboLabel(combo)}` }))
    .filter(
      (c) =>
        (combos.has(c.key) || ops.has(tfliteResolverKey(c.op))) &&
        Boolean(c.combo.after29 ?? c.op.after29 ?? c.key in TFLITE_29_DIFFERS) &&
        !(c.key in LITERT_DIFFERS),
    ),
);

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

const WIDE_BYTES: Readonly<Record<string, number>> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8 };

/**
 * Integer inputs over their whole range (no zero element), or only its non-negative half (`nonNegative`:
 * the sign bit cleared); the others as the recipe made them; null when none.
 */
function wideInputs(infos: readonly TensorInfo[], recipe: readonly Uint8Array[], seed: number, nonNegative = false): Uint8Array[] | null {
  let any = false;
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s >>> 24;
  };
  const out = infos.map((t, i) => {
    const size = WIDE_BYTES[t.dtype];
    if (size === undefined) return recipe[i]!;
    any = true;
    const bytes = new Uint8Array(t.bytes);
    for (let p = 0; p < bytes.length; p += size) {
      let zero = true;
      for (let k = 0; k < size; k++) {
        bytes[p + k] = next();
        if (bytes[p + k] !== 0) zero = false;
      }
      if (zero) bytes[p] = 1;
      if (nonNegative) bytes[p + size - 1]! &= 0x7f;
    }
    return bytes;
  });
  return any ? out : null;
}

/** micrort's outputs on `inputs`, and their dtypes. */
function runMicrort(model: Uint8Array, inputs: readonly Uint8Array[]): { bytes: Uint8Array[]; dtypes: string[] } {
  const interp = new MicroInterpreter(loadModel(model), referenceResolver(), { planner: createPlanner('greedy') }).allocateTensors();
  inputs.forEach((b, i) => interp.setInput(i, b));
  interp.invoke();
  const n = interp.outputsSize;
  const bytes = Array.from({ length: n }, (_, j) => interp.output(j).bytes.slice());
  const dtypes = Array.from({ length: n }, (_, j) => tensorTypeName(interp.output(j).type));
  interp.dispose();
  return { bytes, dtypes };
}

describe.skipIf(!hasLiteRt)(`the types slice's ${cases.length} combinations checked against LiteRT.js`, () => {
  const runtime = litertRuntime();
  it('lists cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const c of cases)
    it(c.key, async () => {
      const types = c.key in LITERT_CONSTANT_INPUTS ? ORACLE_IO_TYPES : LITERT_IO_TYPES;
      const model = buildRecipe(c.op, c.combo, { types, probes: true });
      const r = await withErrorLog(async () => {
        const runner = await runtime.load(model.bytes, c.key);
        try {
          const runOn = async (inputs: readonly Uint8Array[]) => {
            inputs.forEach((b, i) => runner.setInput(i, b));
            await runner.run();
            return runner.readOutputs();
          };
          const recipe = await runOn(model.inputs);
          const wideIn = wideInputs(runner.inputs, model.inputs, 0x5eed + c.key.length, c.key in NON_NEGATIVE_INPUTS);
          const wide = wideIn ? await runOn(wideIn) : null;
          return { recipe, wide, wideIn };
        } finally {
          runner.dispose();
        }
      });
      expect(r.errors, `LiteRT.js logged errors (${r.thrown?.message ?? ''})`).toEqual([]);
      expect(r.thrown?.message).toBeUndefined();
      const runs: [readonly Uint8Array[], Uint8Array[]][] = [[model.inputs, r.value!.recipe]];
      if (r.value!.wide) runs.push([r.value!.wideIn!, r.value!.wide]);
      for (const [inputs, expected] of runs) {
        const got = runMicrort(model.bytes, inputs);
        expect(got.bytes.length).toBe(expected.length);
        const failures = expected
          .map((e, j) => ({ j, res: compareBytes(got.dtypes[j]!, got.bytes[j]!, e, j) }))
          .filter((x) => !x.res.pass && !model.sinks.includes(x.j))
          .map(
            (x) =>
              `output ${x.j} (${got.dtypes[x.j]}): ${x.res.mismatches} mismatches; micrort ${Array.from(got.bytes[x.j]!.slice(0, 24))} LiteRT.js ${Array.from(expected[x.j]!.slice(0, 24))}`,
          );
        expect(failures, inputs === model.inputs ? 'recipe inputs' : 'wide inputs').toEqual([]);
      }
    });
});

describe.skipIf(!hasLiteRt)('DEQUANTIZE of a packed int4 constant, against LiteRT.js', () => {
  it('dequantizes into an ADD with a float32 graph input (LiteRT.js leaves a dequantized constant graph output unwritten)', async () => {
    // int4 values 7, 6, −7, −8, 1, 0 packed low nibble first; scale 0.5, zero point −1.
    const b = new ModelBuilder();
    const q = b.addTensor({
      name: 'q',
      type: TensorType.INT4,
      shape: [2, 3],
      data: Uint8Array.from([0x67, 0x89, 0x01]),
      quantization: { scale: 0.5, zeroPoint: -1 },
    });
    const d = b.addTensor({ name: 'dequantized', type: TensorType.FLOAT32, shape: [2, 3] });
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 3] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [2, 3] });
    b.addOperator({ op: BuiltinOperator.DEQUANTIZE, inputs: [q], outputs: [d] });
    b.addOperator({ op: BuiltinOperator.ADD, inputs: [d, x], outputs: [y] });
    const model = b.setInputs([x]).setOutputs([y]).build();
    const zeros = new Uint8Array(24);
    const r = await withErrorLog(async () => {
      const runner = await litertRuntime().load(model, 'dequantize-int4');
      try {
        runner.setInput(0, zeros);
        await runner.run();
        return await runner.readOutputs();
      } finally {
        runner.dispose();
      }
    });
    expect(r.errors).toEqual([]);
    const litert = Array.from(new Float32Array(r.value![0]!.slice().buffer));
    const micrort = Array.from(new Float32Array(runMicrort(model, [zeros]).bytes[0]!.slice().buffer));
    expect(litert).toEqual([4, 3.5, -3, -3.5, 1, 0.5]);
    expect(micrort).toEqual(litert);
  });
});
