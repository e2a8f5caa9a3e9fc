/** `--ops wasm`: run, bench, inspect, check and plan compose ops-wasm in front of ops-reference, arena in WebAssembly memory. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import type { Out } from '../src/print.js';

const tmp = mkdtempSync(join(tmpdir(), 'micrort-cli-wasm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o: Out = { log: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, o);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('--ops wasm', () => {
  it('run: the demo model runs on ops-wasm (its tiny int8 FULLY_CONNECTED layers stay in JavaScript), with the outputs of --ops reference', async () => {
    const w = await cli('run', '--ops', 'wasm', '--json', '--outputs', join(tmp, 'wasm'));
    expect(w.code, w.err).toBe(0);
    const j = JSON.parse(w.out);
    const providers = (op: string) => j.ops.filter((o: { op: string }) => o.op === op).map((o: { provider: string }) => o.provider);
    expect(providers('QUANTIZE')).toEqual(['@micrort/ops-wasm']);
    // 512 and 128 multiply-accumulates: below ops-wasm's minMacs (4096), ops-reference serves them
    expect(providers('FULLY_CONNECTED')).toEqual(['@micrort/ops-reference', '@micrort/ops-reference']);
    const r = await cli('run', '--ops', 'reference', '--outputs', join(tmp, 'ref'));
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(join(tmp, 'wasm', 'output_0.bin'))).toEqual(readFileSync(join(tmp, 'ref', 'output_0.bin')));
  });

  it('bench and inspect accept it', async () => {
    const b = await cli('bench', '--ops', 'wasm', '--iters', '3', '--warmup', '1');
    expect(b.code, b.err).toBe(0);
    expect(b.out).toMatch(/^wasm\s/m);
    expect(b.out).toMatch(/@micrort\/ops-wasm \d/);
    const i = await cli('inspect', '--ops', 'wasm');
    expect(i.code, i.err).toBe(0);
    expect(i.out).toMatch(/@micrort\/ops-wasm/);
  });

  it('check and plan give the kernels their WebAssembly arena (the report is the allocated one)', async () => {
    const c = await cli('check', '--ops', 'wasm', '--json');
    expect(c.code, c.out + c.err).toBe(0);
    const report = JSON.parse(c.out);
    expect(report.ok).toBe(true);
    expect(report.arena.usedBytes).toBeGreaterThan(0);
    expect(report.nodes.filter((n: { provider?: string }) => n.provider === '@micrort/ops-wasm').length).toBeGreaterThan(0);
    const p = await cli('plan', '--ops', 'wasm', '--json');
    expect(p.code, p.out + p.err).toBe(0);
    expect(JSON.parse(p.out).ops).toBe('wasm');
  });
});
