/**
 * The kernels of registrations/tflite-builtins.ts against TensorFlow Lite 2.9 (the tfjs-tflite-node
 * oracle) on the op-set recipes: every type combination of each op that TFLite 2.9 has is built by its
 * recipe (packages/test-support/src/tflite-op-recipes.ts), run by both, and compared output by output
 * (integers byte for byte, floats within 1e-5 + 1e-4·|TFLite|). Ops and combinations newer than 2.9 are
 * compared with LiteRT.js in benchmarks/src/tflite-builtins.litert.test.ts. Prints, per op, the largest
 * float difference.
 */
import { describe, expect, it } from 'vitest';
import { compareIntegerValues, compareOutput, dtypeName, runMicrort } from '@micrort/test-support/output-compare';
import { TFLITE29_INT32_OUTPUTS, builtinRecipeCases } from '@micrort/test-support/tflite-builtin-cases';
import { ORACLE_SKIP_REASON, oracleAvailable, runTflite } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const maxDiff = new Map<string, number>();

describe.skipIf(!oracleAvailable)('TFLite builtins of ops-reference vs TFLite 2.9 on the op-set recipes', () => {
  it.each(
    builtinRecipeCases(false)
      .filter((c) => !c.faulty)
      .map((c) => [`${c.key} ${c.label}`, c] as const),
  )('%s', (_, c) => {
    const want = runTflite(c.model.bytes, c.model.inputs);
    const got = runMicrort(c.model.bytes, c.model.inputs);
    expect(got.length).toBe(want.outputBytes.length);
    got.forEach((g, j) => {
      const w = {
        dtype: want.outputs[j]!.dtype,
        bytes: want.outputBytes[j]!,
        ...(c.bounded.includes(j) ? { dims: want.outputShapes[j]! } : {}),
      };
      const int32In29 = TFLITE29_INT32_OUTPUTS[c.key]?.includes(j) && dtypeName(w.dtype) === 'int32' && g.dtype !== 'int32';
      const d = int32In29 ? compareIntegerValues(g, w) : compareOutput(g, w);
      maxDiff.set(c.key, Math.max(maxDiff.get(c.key) ?? 0, d.maxAbsDiff));
      expect(d.ok, `output ${j}: ${d.detail}`).toBe(true);
    });
  });

  it('prints the largest float difference per op', () => {
    console.log([...maxDiff].map(([k, v]) => `${k}: max |Δ| ${v.toExponential(2)}`).join('\n'));
  });
});
