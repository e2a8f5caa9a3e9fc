/**
 * Every op and type combination the types slice added (test-support's tflite-type-additions.ts) that
 * TFLite 2.9 has, run in micrort (ops-reference + ops-signal) and in TFLite 2.9's C library on the op's
 * recipe model (tflite-op-recipes.ts) with value probes behind the outputs the addon cannot return
 * (float16 → DEQUANTIZE, complex64 → CAST and COMPLEX_ABS, string → a vocabulary HASHTABLE_FIND), so the
 * values are compared and not only the shapes: integer, bool and float64 outputs byte for byte, float32
 * within 1e-5 + 1e-4·|TFLite|. Each model runs twice: on the recipe's inputs, and on "wide" inputs —
 * integer inputs drawn over their type's whole range (never 0, so divisions stay defined), where the
 * int64 and int32 arithmetic wraps and carries. The combinations 2.9 predates, and those it computes
 * wrongly (`TFLITE_29_DIFFERS`, with why), are checked against LiteRT.js in
 * benchmarks/src/tflite-types.litert.test.ts. Skips with the oracle's reason without it.
 */
import { describe, expect, it } from 'vitest';
import { buildRecipe, comboLabel } from '@micrort/test-support/tflite-op-recipes';
import { TFLITE_OPS, tfliteResolverKey, type TfliteOp, type TypeCombo } from '@micrort/test-support/tflite-op-set';
import { TFLITE_29_DIFFERS, TYPES_SLICE_COMBOS, TYPES_SLICE_OPS } from '@micrort/test-support/tflite-type-additions';
import {
  ORACLE_SKIP_REASON,
  TfliteOracle,
  compareWithTflite,
  oracleAvailable,
  type OracleTensorInfo,
} from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const combos = new Set(TYPES_SLICE_COMBOS);
const ops = new Set(TYPES_SLICE_OPS);

interface Case {
  op: TfliteOp;
  combo: TypeCombo;
  key: string;
}

const cases: Case[] = TFLITE_OPS.flatMap((op) =>
  op.types
    .filter((c) => !(c.after29 ?? op.after29))
    .map((combo) => ({ op, combo, key: `${tfliteResolverKey(op)} ${comboLabel(combo)}` }))
    .filter((c) => (combos.has(c.key) || ops.has(tfliteResolverKey(c.op))) && !(c.key in TFLITE_29_DIFFERS)),
);

/** A deterministic generator of 32-bit words. */
function words(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  };
}

const WIDE_BYTES: Readonly<Record<string, number>> = { int8: 1, uint8: 1, int16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8 };

/**
 * Inputs over the whole range of integer types (no zero element); float and bool inputs as the recipe
 * made them. Null when the model has no integer input.
 */
function wideInputs(infos: readonly OracleTensorInfo[], recipe: readonly Uint8Array[], seed: number): Uint8Array[] | null {
  let any = false;
  const out = infos.map((t, i) => {
    const size = WIDE_BYTES[t.dtype];
    if (size === undefined) return recipe[i]!;
    any = true;
    const next = words(seed + 97 * i);
    const bytes = new Uint8Array(t.byteLength);
    for (let p = 0; p < bytes.length; p += size) {
      let zero = true;
      for (let k = 0; k < size; k++) {
        bytes[p + k] = next() & 0xff;
        if (bytes[p + k] !== 0) zero = false;
      }
      if (zero) bytes[p] = 1;
    }
    return bytes;
  });
  return any ? out : null;
}

function describeFailure(r: ReturnType<typeof compareWithTflite>): string {
  return r.outputs
    .filter((o) => !o.pass)
    .map(
      (o) =>
        `output ${o.index} (${o.dtype}): ${o.mismatches} mismatches, first at ${o.firstMismatchAt}; micrort ${Array.from(r.got[o.index]!.slice(0, 32))} TFLite ${Array.from(r.expected[o.index]!.slice(0, 32))}`,
    )
    .join('; ');
}

describe.skipIf(!oracleAvailable)(`the types slice's ${cases.length} combinations TFLite 2.9 has, against TFLite 2.9`, () => {
  it('lists cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const c of cases)
    it(c.key, () => {
      const model = buildRecipe(c.op, c.combo, { probes: true });
      const r = compareWithTflite(model.bytes, model.inputs);
      expect(r.pass, describeFailure(r)).toBe(true);
      const wide = wideInputs(new TfliteOracle(model.bytes).inputs, model.inputs, 0x5eed + c.key.length);
      if (!wide) return;
      const w = compareWithTflite(model.bytes, wide);
      expect(w.pass, `wide inputs: ${describeFailure(w)}`).toBe(true);
    });
});
