/**
 * The TFLite op-set data (test-support's tflite-op-set.ts) against current LiteRT: every op and type
 * combination marked `after29` — TFLite 2.9, the tfjs-tflite-node oracle, refuses it — is built by its
 * recipe and run in LiteRT.js 2.5.3 (`@litertjs/core`, WASM CPU, one thread), which must load, compile
 * and run it without logging an error. (LiteRT.js logs kernel errors and still resolves `run()`, so the
 * test reads its stderr.) This is the oracle the later kernels for these combinations are compared with.
 *
 * What it does not prove: LiteRT.js delegates float ops to XNNPACK, so a combination XNNPACK takes
 * could run there without TFLite's own kernel taking it — the data lists float16 activations only where
 * the kernel's own type checks name float16 or no XNNPACK operator exists for the op. Custom ops are not
 * checked here: LiteRT.js reports success on custom ops it cannot resolve.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildRecipe, comboLabel } from '@micrort/test-support/tflite-op-recipes';
import { TFLITE_OPS, tfliteResolverKey } from '@micrort/test-support/tflite-op-set';
import { litertRuntime } from './runtimes/litert.js';

const hasLiteRt = (() => {
  try {
    createRequire(import.meta.url).resolve('@litertjs/core/package.json');
    return true;
  } catch {
    return false;
  }
})();
if (!hasLiteRt) console.log('@litertjs/core is not installed: the LiteRT.js check of the after-2.9 combinations is skipped (pnpm install)');

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

describe.skipIf(!hasLiteRt)('LiteRT.js runs every op-set combination TFLite 2.9 predates', () => {
  const cases = TFLITE_OPS.filter((op) => op.kind === 'builtin').flatMap((op) =>
    op.types
      .filter((c) => c.after29 ?? op.after29)
      .map((combo) => ({ key: `${tfliteResolverKey(op)} ${comboLabel(combo)}`, model: buildRecipe(op, combo) })),
  );

  it(`loads, compiles and runs the ${cases.length} combinations marked after29`, async () => {
    const runtime = litertRuntime();
    const failing: string[] = [];
    for (const c of cases) {
      const r = await withErrorLog(async () => {
        const runner = await runtime.load(c.model.bytes, c.key);
        try {
          runner.inputs.forEach((t, i) => runner.setInput(i, c.model.inputs[i]!));
          await runner.run();
          return (await runner.readOutputs()).length;
        } finally {
          runner.dispose();
        }
      });
      if (r.thrown || r.errors.length) failing.push(`${c.key}: ${r.errors[0] ?? r.thrown?.message}`);
    }
    expect(failing, 'after-2.9 combinations LiteRT.js refuses (a recipe bug, or not a type TFLite takes)').toEqual([]);
  });
});
