import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, SKIP_REASON, hasConformance } from '@micrort/test-support/conformance';
import { main } from '../src/main.js';

async function cli(argv: string[]) {
  const lines: string[] = [];
  const code = await main(argv, { log: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { code, text: lines.join('\n') };
}

describe('micrort run --profile', () => {
  it('prints one mean time per node of the demo model, summing to the per-invoke total', async () => {
    const { code, text } = await cli(['run', 'demo', '--profile', '3', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(text);
    expect(r.profile.invokes).toBe(3);
    expect(r.profile.nodes.map((n: { nodeIndex: number }) => n.nodeIndex)).toEqual(r.ops.map((o: { index: number }) => o.index));
    expect(r.profile.nodes.every((n: { count: number; meanMs: number }) => n.count === 3 && n.meanMs >= 0)).toBe(true);
    const sum = r.profile.nodes.reduce((s: number, n: { meanMs: number }) => s + n.meanMs, 0);
    expect(sum).toBeCloseTo(r.profile.totalMs, 9);
  });

  it('counts every invoke of a long profile (more events than the profiler keeps at once)', async () => {
    // 5 nodes x 1000 invokes = 5000 events, past the profiler's 4096
    const { code, text } = await cli(['run', 'demo', '--profile', '1000', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(text);
    expect(r.profile.dropped).toBe(0);
    expect(r.profile.nodes.every((n: { count: number }) => n.count === 1000)).toBe(true);
    expect(r.profile.totalMs).toBeLessThanOrEqual(r.profile.wallMs);
  });

  it('text output has a profile table; --profile 0 is a usage error', async () => {
    const { code, text } = await cli(['run', 'demo', '--profile', '2']);
    expect(code).toBe(0);
    expect(text).toMatch(/profile: mean of 2 invokes/);
    expect(text).toMatch(/mean ms\s+share/);
    const bad = await cli(['run', 'demo', '--profile', '0']);
    expect(bad.code).toBe(2);
    expect(bad.text).toMatch(/--profile/);
  });
});

describe.skipIf(!hasConformance)('micrort run --profile on a stateful model', () => {
  it("prints the first invoke's outputs (trained_lstm carries its LSTM state from invoke to invoke)", async () => {
    const model = join(CONFORMANCE_DIR ?? '', 'trained_lstm', 'model.tflite');
    const plain = JSON.parse((await cli(['run', model, '--json'])).text);
    const profiled = JSON.parse((await cli(['run', model, '--profile', '4', '--json'])).text);
    expect(profiled.profile.invokes).toBe(4);
    expect(profiled.outputs.map((o: { values: number[] }) => o.values)).toEqual(plain.outputs.map((o: { values: number[] }) => o.values));
  });
  if (!hasConformance) it.skip(SKIP_REASON, () => {});
});
