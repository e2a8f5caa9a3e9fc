/**
 * Schedules with `--ops wasm`: the patch stage's tile nodes run ops-wasm's kernels on tile buffers in
 * WebAssembly memory (no kernel of ops-wasm knows about schedules), and person detection's output stays
 * TFLM's, in half the head.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, SKIP_REASON, hasConformance } from '@micrort/test-support/conformance';
import { main } from '../src/main.js';
import type { Out } from '../src/print.js';

const tmp = mkdtempSync(join(tmpdir(), 'micrort-cli-sched-wasm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const o: Out = { log: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, o);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe.skipIf(!hasConformance)('schedules with --ops wasm', () => {
  it("person_detect under patch and patch+inplace: TFLM's output bytes, ops-wasm kernels on the tiles", async () => {
    const dir = join(CONFORMANCE_DIR!, 'person_detect');
    for (const schedule of ['patch', 'patch+inplace']) {
      const outDir = join(tmp, schedule.replace('+', '-'));
      const r = await cli(
        'run',
        join(dir, 'model.tflite'),
        '--ops',
        'wasm',
        '--schedule',
        schedule,
        '--inputs',
        join(dir, 'case0'),
        '--outputs',
        outDir,
        '--json',
      );
      expect(r.code, r.err).toBe(0);
      const j = JSON.parse(r.out);
      expect(j.schedule.patch.grid).not.toBeNull();
      const tile = j.ops.filter((o: { op: string }) => o.op.endsWith('(tile)'));
      expect(tile.length).toBeGreaterThan(0);
      expect(tile.every((o: { provider: string }) => o.provider === '@micrort/ops-wasm')).toBe(true);
      expect(j.arena.head).toBeLessThanOrEqual(0.5 * 55296);
      expect(readFileSync(join(outDir, 'output_0.bin'))).toEqual(readFileSync(join(dir, 'case0', 'output_0.bin')));
    }
  });
});

if (!hasConformance) describe.skip(SKIP_REASON, () => {});
