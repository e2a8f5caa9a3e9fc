/**
 * The TFLM arena predictions against native TFLM's figures: for every model of ../shared/conformance
 * (13) and ../shared/conformance-ops (221), the 64-bit `arenaMinBytes` and `arenaUsedBytes` equal the
 * manifest's `arena_min_bytes` and `arena_used_bytes` exactly, and `tflmRefusals` reports no error for any
 * of them (TFLM ran them all).
 *
 * Every node is prepared by micrort's kernels (no planning stand-ins, `--strict`): a model micrort cannot
 * prepare fails with micrort's error; it is not skipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  OPS_SKIP_REASON,
  SKIP_REASON,
  hasConformance,
  hasConformanceOps,
  listModels,
  modelDir,
  readManifest,
  type Suite,
} from '@micrort/test-support/conformance';
import { deployTflm, type DeployReport } from './deploy.js';

const tally = { pass: 0, notPrepared: 0, differ: 0 };
const notPrepared: string[] = [];

function manifestFigures(name: string, suite: Suite): { used: number; min: number } {
  const m = readManifest(name, suite) as unknown as { arena_used_bytes: number; arena_min_bytes: number };
  return { used: m.arena_used_bytes, min: m.arena_min_bytes };
}

function modelBytes(name: string, suite: Suite): Uint8Array {
  const buf = readFileSync(join(modelDir(name, suite), 'model.tflite'));
  const bytes = new Uint8Array(buf.byteLength);
  bytes.set(buf);
  return bytes;
}

function figures(r: DeployReport): string {
  return `used ${r.arenaUsedBytes}, min ${r.arenaMinBytes} (head ${r.headBytes}, tail ${r.tailBytes}; ${r.targets[0]!.limitedBy})`;
}

function suiteTests(suite: Suite): void {
  for (const name of listModels(suite)) {
    it(name, () => {
      const want = manifestFigures(name, suite);
      let r: DeployReport;
      try {
        r = deployTflm(modelBytes(name, suite), { standIns: false, modelLabel: name });
      } catch (e) {
        tally.notPrepared++;
        notPrepared.push(name);
        throw new Error(`micrort cannot prepare ${name} yet: ${(e as Error).message}`, { cause: e });
      }
      const good = r.arenaUsedBytes === want.used && r.arenaMinBytes === want.min;
      if (good) tally.pass++;
      else tally.differ++;
      expect({ used: r.arenaUsedBytes, min: r.arenaMinBytes }, `${name}: ${figures(r)}`).toEqual(want);
      expect(r.word).toBe(64);
      expect(r.exact, `${name}: ${r.notes.join('; ')}`).toBe(true);
      // TFLM ran every one of these models: nothing in them may be reported as something TFLM refuses.
      expect(r.refusals.filter((f) => f.severity === 'error').map((f) => `${f.op}: ${f.reason}`)).toEqual([]);
    });
  }
}

describe.skipIf(!hasConformance)('deploy: TFLM arena figures, conformance models', () => suiteTests('models'));
describe.skipIf(!hasConformanceOps)('deploy: TFLM arena figures, conformance-ops models', () => suiteTests('ops'));

if (!hasConformance) describe('deploy: TFLM arena figures, conformance models', () => it.skip(SKIP_REASON, () => {}));
if (!hasConformanceOps) describe('deploy: TFLM arena figures, conformance-ops models', () => it.skip(OPS_SKIP_REASON, () => {}));

afterAll(() => {
  const s = tally;
  if (s.pass + s.notPrepared + s.differ === 0) return;
  console.log(
    [
      '',
      `deploy (TFLM arena, 64-bit): ${s.pass} exact, ${s.differ} differ, ${s.notPrepared} not preparable by micrort`,
      ...(notPrepared.length ? [`not preparable yet: ${notPrepared.join(', ')}`] : []),
    ].join('\n'),
  );
});
