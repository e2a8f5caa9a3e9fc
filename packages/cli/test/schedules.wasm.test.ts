/**
 * Schedules with `--ops wasm`: the patch stage's tile nodes run ops-wasm's kernels on tile buffers in
 * WebAssembly memory (no kernel of ops-wasm knows about schedules), and person detection's output stays
 * TFLM's, in half the head on one thread. Each extra thread adds its scratch area, a page apart from the
 * others (ops-wasm's threadSlots), to the nodes that split: on two threads the output is the same bytes
 * in at most three pages more.
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
    const heads = new Map<string, number>();
    for (const [schedule, threads] of [
      ['patch', 1],
      ['patch+inplace', 1],
      ['patch', 2],
    ] as const) {
      const outDir = join(tmp, `${schedule.replace('+', '-')}-${threads}`);
      const r = await cli(
        'run',
        join(dir, 'model.tflite'),
        '--ops',
        'wasm',
        '--threads',
        String(threads),
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
      heads.set(`${schedule}/${threads}`, j.arena.head);
      expect(j.arena.head).toBeLessThanOrEqual(0.5 * 55296 + (threads - 1) * 3 * 4096);
      expect(readFileSync(join(outDir, 'output_0.bin'))).toEqual(readFileSync(join(dir, 'case0', 'output_0.bin')));
    }
    expect(heads.get('patch/2')!).toBeGreaterThan(heads.get('patch/1')!);
  });
});

if (!hasConformance) describe.skip(SKIP_REASON, () => {});
