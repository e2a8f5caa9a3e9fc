/**
 * The harness times a tiny model so it cannot rot: in this process (micrort only) and through the
 * per-model process with LiteRT.js when it is installed (peers are optional). Tiny timing settings;
 * no assertion on any time's size.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@micrort/test-support/conformance';
import { compareOutputs } from './compare.js';
import { benchModel, type ModelResult } from './harness.js';
import { findModel } from './models.js';
import { formatTable } from './report.js';
import { mergeRounds, processGroups } from './rounds.js';
import { CHROMIUM } from './browser/run-browser.js';
import { selectRuntimes } from './runtimes/index.js';
import { renderChart } from './svg.js';
import { timeInterleaved, timeRuns } from './timing.js';

const QUICK = { warmup: 1, samples: 3, minBatchMs: 0.2, budgetMs: 100, minSamples: 2 };

const hasLiteRt = (() => {
  try {
    createRequire(import.meta.url).resolve('@litertjs/core/package.json');
    return true;
  } catch {
    return false;
  }
})();

describe('benchModel (in this process)', () => {
  it('times micrort reference and simd on the same inputs and compares their outputs', async () => {
    const seen: string[] = [];
    const r = await benchModel(findModel('tiny_float_cnn'), selectRuntimes(['micrort-reference', 'micrort-simd']), {
      timing: QUICK,
      onResult: (x) => seen.push(x.runtime),
    });
    expect(seen).toEqual(['micrort reference', 'micrort simd']);
    expect(r.reference).toBe('micrort reference');
    expect(r.inputSource).toBe('splitmix64 seed 1');
    for (const rt of r.runtimes) {
      expect(rt.status, rt.error).toBe('ok');
      expect(rt.timing!.samples).toBeGreaterThanOrEqual(2);
      expect(rt.timing!.minMs).toBeLessThanOrEqual(rt.timing!.medianMs);
      expect(rt.outputs).toEqual([{ name: 'y', dtype: 'float32', shape: [1, 4], bytes: 16 }]);
    }
    expect(r.runtimes[0]!.agreement).toBeUndefined();
    expect(r.runtimes[1]!.agreement).toEqual({ verdict: 'exact', maxAbsDiff: 0, meanAbsDiff: 0 });
  });

  it('times the runtimes interleaved by default and one after another with interleave: false', async () => {
    const rts = selectRuntimes(['micrort-reference', 'micrort-simd']);
    const events: string[] = [];
    const hooks = {
      onStart: (x: string) => events.push(`start ${x}`),
      onResult: (x: { runtime: string }) => events.push(`result ${x.runtime}`),
    };
    const a = await benchModel(findModel('tiny_float_cnn'), rts, { timing: QUICK, ...hooks });
    // both first runs, then the timing of both, then the results
    expect(events).toEqual(['start micrort reference', 'start micrort simd', 'result micrort reference', 'result micrort simd']);
    expect(a.runtimes.map((r) => r.timing!.samples)).toEqual([a.runtimes[0]!.timing!.samples, a.runtimes[0]!.timing!.samples]);
    events.length = 0;
    const b = await benchModel(findModel('tiny_float_cnn'), rts, { timing: QUICK, interleave: false, ...hooks });
    expect(events).toEqual(['start micrort reference', 'result micrort reference', 'start micrort simd', 'result micrort simd']);
    for (const rt of [...a.runtimes, ...b.runtimes]) expect(rt.status, rt.error).toBe('ok');
  });

  it('a kernel package that is not there is reported, not fatal', async () => {
    const r = await benchModel(findModel('tiny_float_cnn'), selectRuntimes(['micrort-reference', 'micrort-wasm']), { timing: QUICK });
    expect(r.runtimes[0]!.status).toBe('ok');
    const wasm = r.runtimes[1]!;
    // once @micrort/ops-wasm lands it runs; until then it is unavailable with the reason
    if (wasm.status === 'ok') expect(wasm.agreement?.verdict).toMatch(/exact|close/);
    else expect(wasm).toMatchObject({ status: 'unavailable', error: expect.stringContaining('@micrort/ops-wasm') });
  });
});

describe('bench:peers through the per-model process', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'benchmarks'], { cwd: REPO_ROOT });
  });

  it(`times a tiny model on micrort and ${hasLiteRt ? 'LiteRT.js' : '(LiteRT.js not installed)'}, prints the table, writes the chart`, async () => {
    const { benchInChild } = (await import(join(REPO_ROOT, 'benchmarks', 'dist', 'child.js'))) as typeof import('./child.js');
    const runtimes = selectRuntimes(['micrort-reference', ...(hasLiteRt ? ['litert-js'] : [])]);
    const r = await benchInChild(findModel('tiny_float_cnn'), runtimes, { timing: QUICK, timeoutMs: 60_000 });
    expect(r.runtimes.map((x) => x.runtime)).toEqual(runtimes.map((x) => x.id));
    expect(r.runtimes[0]).toMatchObject({ runtime: 'micrort reference', status: 'ok' });
    if (hasLiteRt) {
      const lr = r.runtimes[1]!;
      expect(lr.status, lr.error).toBe('ok');
      expect(lr.agreement?.verdict).toMatch(/exact|close/);
    }
    const table = formatTable([r], 'LiteRT.js').join('\n');
    expect(table).toMatch(/^model\s+runtime\s+median ms\s+min ms\s+× LiteRT\.js\s+max \|Δ\|\s+note$/m);
    expect(table).toMatch(/^tiny_float_cnn\s+micrort reference\s+\d/m);
    const svg = renderChart(
      [r],
      'LiteRT.js',
      runtimes.map((x) => x.id),
      'test',
    );
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('tiny_float_cnn');
    expect(svg.match(/<rect /g)!.length).toBe(1 + r.runtimes.filter((x) => x.timing).length);
  });
});

describe('alternating rounds and process groups', () => {
  it('runs each group per round, merges the medians and compares outputs across groups', async () => {
    const { benchInChild } = (await import(join(REPO_ROOT, 'benchmarks', 'dist', 'child.js'))) as typeof import('./child.js');
    const runtimes = selectRuntimes(['micrort-reference', 'micrort-wasm', ...(hasLiteRt ? ['litert-js-2t'] : [])]);
    const groups = processGroups(runtimes);
    expect(groups.map((g) => g.group)).toEqual(hasLiteRt ? ['default', 'litert-threads'] : ['default']);
    const parts: ModelResult[] = [];
    for (let r = 0; r < 2; r++)
      for (const g of groups)
        parts.push(
          await benchInChild(findModel('tiny_float_cnn'), g.runtimes, {
            timing: QUICK,
            timeoutMs: 60_000,
            keepOutputs: r === 0,
            nodeFlags: g.flags,
          }),
        );
    const m = mergeRounds(parts, runtimes);
    expect(m.runtimes.map((x) => x.runtime)).toEqual(runtimes.map((x) => x.id));
    expect(m.reference).toBe('micrort reference');
    for (const x of m.runtimes) {
      expect(x.status, x.error).toBe('ok');
      expect(x.rounds).toBe(2);
      expect(x.outputsB64).toBeUndefined();
    }
    // the tiny CNN's smallest layers stay in JavaScript (below ops-wasm's minMacs)
    expect(m.runtimes[1]!.macShare).toBeGreaterThan(0);
    expect(m.runtimes[1]!.macShare).toBeLessThanOrEqual(1);
    expect(m.runtimes[1]!.agreement?.verdict).toMatch(/exact|close/);
    if (hasLiteRt) expect(m.runtimes[2]!.agreement?.verdict).toMatch(/exact|close/);
    expect(formatTable([m], 'LiteRT.js').join('\n')).toMatch(/ops-wasm served \d+% of MACs/);
  });
});

describe.skipIf(!existsSync(CHROMIUM))('bench:peers --browser', () => {
  it('runs micrort (one and two threads) and LiteRT.js in headless Chromium, pages cross-origin isolated', async () => {
    const { benchInBrowser } = (await import(
      join(REPO_ROOT, 'benchmarks', 'dist', 'browser', 'run-browser.js')
    )) as typeof import('./browser/run-browser.js');
    const ids = ['micrort reference', 'micrort wasm', 'micrort wasm 2t', ...(hasLiteRt ? ['LiteRT.js'] : [])];
    const { results, browser } = await benchInBrowser([findModel('tiny_float_cnn')], { rounds: 1, timing: QUICK, runtimes: ids });
    expect(browser).toMatch(/^Chromium/);
    const m = results[0]!;
    expect(m.runtimes.map((x) => x.runtime)).toEqual(ids);
    for (const x of m.runtimes) expect(x.status, x.error).toBe('ok');
    expect(m.runtimes[2]!.macShare).toBeGreaterThan(0); // two threads need SharedArrayBuffer: the page is isolated
    for (const x of m.runtimes.slice(1)) expect(x.agreement?.verdict).toMatch(/exact|close/);
  });
});
if (!existsSync(CHROMIUM)) it.skip(`bench:peers --browser: ${CHROMIUM} is absent`, () => {});

describe('compareOutputs', () => {
  const f32 = (...v: number[]) => new Uint8Array(Float32Array.from(v).buffer);
  const i8 = (...v: number[]) => new Uint8Array(Int8Array.from(v).buffer);
  const info = (name: string, dtype: string, bytes: number) => ({ name, dtype, shape: [bytes], bytes });

  it('exact, close (1e-4 of the output scale; one integer step), rounding (integers), differs', () => {
    const fi = [info('y', 'float32', 12)];
    expect(compareOutputs(fi, [f32(1, -2, 100)], fi, [f32(1, -2, 100)])).toEqual({ verdict: 'exact', maxAbsDiff: 0, meanAbsDiff: 0 });
    expect(compareOutputs(fi, [f32(1, -2, 100)], fi, [f32(1.005, -2, 100)]).verdict).toBe('close');
    expect(compareOutputs(fi, [f32(1, -2, 100)], fi, [f32(1.02, -2, 100)]).verdict).toBe('differs');
    const ii = [info('q', 'int8', 4)];
    expect(compareOutputs(ii, [i8(5, -128, 127, 0)], ii, [i8(6, -128, 126, 0)])).toEqual({
      verdict: 'close',
      maxAbsDiff: 1,
      meanAbsDiff: 0.5,
    });
    expect(compareOutputs(ii, [i8(5, -128, 127, 0)], ii, [i8(8, -128, 127, 0)])).toEqual({
      verdict: 'rounding',
      maxAbsDiff: 3,
      meanAbsDiff: 0.75,
    });
    expect(compareOutputs(ii, [i8(5, -128, 127, 0)], ii, [i8(30, -128, 127, 0)]).verdict).toBe('differs');
    expect(compareOutputs(ii, [i8(5, -128, 127, 0)], ii, [i8(10, -123, 122, 5)]).verdict).toBe('differs'); // mean 5 steps
  });

  it('all-zero outputs where the reference has values, and mismatched outputs', () => {
    const fi = [info('y', 'float32', 8)];
    expect(compareOutputs(fi, [f32(0.5, 0.25)], fi, [f32(0, 0)]).verdict).toBe('zeros');
    expect(compareOutputs(fi, [f32(0.5, 0.25)], [info('y', 'float32', 4)], [f32(0.5)]).verdict).toBe('mismatch');
    expect(compareOutputs(fi, [f32(0.5, 0.25)], [], []).verdict).toBe('mismatch');
  });

  it('matches outputs by name when a runtime orders them differently', () => {
    const want = [info('a', 'int8', 1), info('b', 'float32', 4)];
    const got = [info('b', 'float32', 4), info('a', 'int8', 1)];
    expect(compareOutputs(want, [i8(3), f32(2)], got, [f32(2), i8(3)]).verdict).toBe('exact');
  });
});

describe('timeRuns', () => {
  it('times synchronous runs in batches and reports per-invoke times', async () => {
    let n = 0;
    const t = await timeRuns(() => void n++, QUICK);
    expect(t.samples).toBeGreaterThanOrEqual(2);
    expect(t.batch).toBeGreaterThanOrEqual(1);
    expect(n).toBeGreaterThanOrEqual(1 + t.samples * t.batch);
    expect(t.minMs).toBeLessThanOrEqual(t.medianMs);
  });
  it('timeInterleaved takes one batch of each run in turn, the same number of samples of each', async () => {
    const log: string[] = [];
    const runs = ['a', 'b', 'c'].map((x) => () => void log.push(x));
    // minBatchMs 0: no calibration past the first run, one invoke per batch
    const t = await timeInterleaved(runs, { ...QUICK, warmup: 0, minBatchMs: 0, samples: 4 });
    expect(t.map((x) => x.samples)).toEqual([4, 4, 4]);
    expect(t.map((x) => x.batch)).toEqual([1, 1, 1]);
    // each run's first (calibrating) invoke, then the samples cycling a, b, c
    expect(log.join('')).toBe('abc' + 'abc'.repeat(4));
  });
  it('awaits runs that return promises', async () => {
    let n = 0;
    const t = await timeRuns(async () => void n++, { ...QUICK, samples: 2 });
    expect(t.samples).toBe(2);
    expect(n).toBeGreaterThan(2);
  });
});

describe('table and chart', () => {
  const result: ModelResult = {
    model: 'm',
    kind: 'corpus',
    description: '',
    inputSource: 'splitmix64 seed 1',
    reference: 'LiteRT.js',
    runtimes: [
      {
        runtime: 'micrort reference',
        description: '',
        status: 'refused',
        error: 'KernelError: DEQUANTIZE (node 0): unsupported input type float16',
      },
      { runtime: 'micrort wasm', description: '', status: 'unavailable', error: '@micrort/ops-wasm is not installed or built yet' },
      { runtime: 'LiteRT.js', description: '', status: 'ok', timing: { medianMs: 2, minMs: 1.5, batch: 1, samples: 5 } },
      {
        runtime: 'tfjs-tflite',
        description: '',
        status: 'ok',
        timing: { medianMs: 3, minMs: 2.5, batch: 1, samples: 5 },
        agreement: { verdict: 'zeros', maxAbsDiff: 0.5 },
      },
    ],
  };
  it('says why a runtime has no time, the ratio to LiteRT.js, and distrusts all-zero outputs', () => {
    const t = formatTable([result], 'LiteRT.js');
    expect(t[2]).toMatch(
      /^m\s+micrort reference\s+-\s+-\s+-\s+-\s+not runnable yet: KernelError: DEQUANTIZE \(node 0\): unsupported input type float16$/,
    );
    expect(t[3]).toMatch(/micrort wasm\s+.*unavailable: @micrort\/ops-wasm is not installed or built yet$/);
    expect(t[4]).toMatch(/LiteRT\.js\s+2\.00\s+1\.50\s+1\.00x\s+-\s+reference outputs$/);
    expect(t[5]).toMatch(/tfjs-tflite\s+3\.00\s+2\.50\s+1\.50x\s+5\.0e-1\s+ALL-ZERO outputs/);
    const svg = renderChart([result], 'LiteRT.js', ['micrort reference', 'micrort wasm', 'LiteRT.js', 'tfjs-tflite'], 'x');
    expect(svg).toContain('not runnable yet: KernelError: DEQUANTIZE');
    expect(svg).toContain('3.00 ms, 1.50× LiteRT.js (outputs differ)');
  });
});
