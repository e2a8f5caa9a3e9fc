import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR } from '@micrort/test-support/conformance';
import { main } from '../main.js';
import { loadModelArg } from '../model-arg.js';
import type { Out } from '../print.js';
import { buildInterpreter, composeChoice, runtimeChoice } from '../runtime.js';
import { summarize, timeInvokes, type BenchRun } from './bench.js';

/** An Out that records what a command printed. */
function capture() {
  const log: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const out: Out = { log: (l) => log.push(l), err: (l) => err.push(l), progress: (l) => progress.push(l) };
  return { out, log, err, progress, text: () => log.join('\n') };
}

describe('summarize', () => {
  it('takes the mean of the two middle samples for an even count and the nearest-rank p90', () => {
    const s = summarize([4, 1, 3, 2], 2);
    expect(s).toEqual({ iterations: 4, warmup: 2, medianMs: 2.5, meanMs: 2.5, minMs: 1, maxMs: 4, p90Ms: 4 });
  });
  it('takes the middle sample for an odd count', () => {
    const s = summarize([10, 1, 5, 7, 2, 9, 3, 8, 6, 4, 11], 0);
    expect(s.medianMs).toBe(6);
    expect(s.p90Ms).toBe(10); // rank ceil(0.9 * 11) = 10
    expect(s.minMs).toBe(1);
    expect(s.maxMs).toBe(11);
  });
  it('refuses an empty sample list', () => {
    expect(() => summarize([], 0)).toThrow(RangeError);
  });
});

describe.skipIf(!CONFORMANCE_DIR)('timeInvokes (person_detect, whose planner reuses the input bytes)', () => {
  it("writes the inputs back before every invoke, so each one computes the first one's result", () => {
    const { model } = loadModelArg(join(CONFORMANCE_DIR!, 'person_detect', 'model.tflite'));
    const choice = runtimeChoice({ positional: [], flags: new Map([['ops', 'simd']]) });
    const interp = buildInterpreter(composeChoice(choice), model, choice).allocateTensors();
    interp.input(0).bytes.forEach((_, i, a) => (a[i] = (i * 37) & 0xff));
    const input = interp.input(0).bytes.slice();
    interp.invoke();
    const first = interp.output(0).bytes.slice();
    // The input's memory is reused during the invoke: invoking again as is would compute something else.
    expect(interp.input(0).bytes).not.toEqual(input);
    interp.input(0).bytes.set(input);
    expect(timeInvokes(interp, 2, 1)).toHaveLength(2);
    expect(interp.output(0).bytes).toEqual(first);
  });
});

describe('micrort bench (built-in demo model)', () => {
  it('--json prints one object with the statistics, the runtime and no progress', async () => {
    const c = capture();
    expect(await main(['bench', '--iters', '3', '--warmup', '1', '--json'], c.out)).toBe(0);
    expect(c.log).toHaveLength(1);
    const r = JSON.parse(c.log[0]!);
    expect(r).toMatchObject({ ops: 'reference', mode: 'reference', iterations: 3, warmup: 1, planner: 'greedy' });
    expect(r.minMs).toBeLessThanOrEqual(r.medianMs);
    expect(r.medianMs).toBeLessThanOrEqual(r.p90Ms);
    expect(r.p90Ms).toBeLessThanOrEqual(r.maxMs);
    expect(r.arenaBytes).toBeGreaterThan(0);
    expect(r.providers).toEqual({ '@micrort/ops-reference': r.nodes });
    expect(c.progress).toEqual([]);
  });

  it('--ops simd runs ops-simd kernels in front of ops-reference', async () => {
    const c = capture();
    expect(await main(['bench', '--ops', 'simd', '--iters', '2', '--warmup', '0', '--json'], c.out)).toBe(0);
    const r = JSON.parse(c.log[0]!);
    expect(r).toMatchObject({ ops: 'simd', mode: 'simd-fast', iterations: 2, warmup: 0 });
    expect(r.providers['@micrort/ops-simd']).toBeGreaterThan(0);
  });

  it('--compare times reference and simd and reports the ratio of their medians', async () => {
    const c = capture();
    expect(await main(['bench', '--compare', '--simd-mode', 'emulated', '--iters', '2', '--warmup', '0', '--json'], c.out)).toBe(0);
    const r = JSON.parse(c.log[0]!);
    expect(r.runs.map((x: { mode: string }) => x.mode)).toEqual(['reference', 'simd-emulated']);
    expect(r.ratio).toBeCloseTo(r.runs[0].medianMs / r.runs[1].medianMs, 10);
    expect(r).toMatchObject({ iterations: 2, warmup: 0 });
  });

  it('prints a table, progress per invoke, and the ratio line with --compare', async () => {
    const c = capture();
    expect(await main(['bench', '--compare', '--iters', '2', '--warmup', '1'], c.out)).toBe(0);
    const text = c.text();
    expect(text).toMatch(/2 timed invokes after 1 warm-up/);
    expect(text).toMatch(/^reference\s+\d+\.\d{3}/m);
    expect(text).toMatch(/^simd-fast\s+\d+\.\d{3}/m);
    expect(text).toMatch(/simd-fast vs reference: \d+\.\d\dx/);
    // 3 invokes per runtime, then one line clearing the progress.
    expect(c.progress).toHaveLength(7);
    expect(c.progress[2]).toMatch(/\[reference\] 3\/3$/);
    expect(c.progress[5]).toMatch(/\[simd-fast\] 3\/3$/);
    expect(c.progress[6]).toBe('');
  });

  it('--in-place benches the interpreter with in-place outputs (an arena no larger)', async () => {
    const plain = capture();
    const inPlace = capture();
    expect(await main(['bench', '--iters', '1', '--warmup', '0', '--json'], plain.out)).toBe(0);
    expect(await main(['bench', '--in-place', '--iters', '1', '--warmup', '0', '--json'], inPlace.out)).toBe(0);
    expect(JSON.parse(inPlace.log[0]!).arenaBytes).toBeLessThanOrEqual(JSON.parse(plain.log[0]!).arenaBytes);
  });

  it('--schedule all times every schedule on the same inputs, with its arena head', async () => {
    const c = capture();
    expect(await main(['bench', 'demo:float-cnn', '--schedule', 'all', '--iters', '1', '--warmup', '0', '--json'], c.out)).toBe(0);
    const r = JSON.parse(c.log[0]!) as { runs: BenchRun[] };
    expect(r.runs.map((x) => x.schedule)).toEqual(['normal', 'inplace', 'patch', 'patch+inplace']);
    for (const x of r.runs) expect(x.headBytes).toBeLessThanOrEqual(r.runs[0]!.headBytes);
    const text = capture();
    expect(await main(['bench', 'demo:float-cnn', '--schedule', 'all', '--iters', '1', '--warmup', '0'], text.out)).toBe(0);
    expect(text.text()).toMatch(/^reference\s+patch\s+[\d,]+ B\s/m);
    expect(text.text()).toMatch(/^patch: head [\d,]+ B \([\d.]+x normal\), median [\d.]+ ms \([\d.]+x normal\)$/m);
  });

  it.each([
    [['--schedule', 'all', '--compare'], /--schedule all and --compare each run several runtimes/],
    [['--schedule', 'fast'], /--schedule must be one of all, normal, inplace, patch, patch\+inplace/],
    [['--recompute-budget', '-3'], /--recompute-budget must be a non-negative number of percent, got -3/],
    [['--iters', '0'], /--iters must be an integer >= 1/],
    [['--iters', 'x'], /--iters must be an integer >= 1/],
    [['--compare', '--ops', 'simd'], /leave out --ops/],
    [['--ops', 'fancy'], /--ops must be one of reference, simd/],
    [['--simd-mode', 'turbo', '--ops', 'simd'], /--simd-mode must be one of fast, emulated/],
    [['--simd-mode', 'fast'], /--simd-mode applies to --ops simd only/],
    [['--threads', '2'], /--threads applies to --ops wasm only \(got --ops reference\)/],
    [['--ops', 'wasm', '--threads', '0'], /--threads must be a positive integer or auto, got 0/],
    [['--ops', 'wasm', '--threads', '1.5'], /--threads must be a positive integer or auto, got 1\.5/],
    [['--cycles'], /unknown option --cycles/],
  ])('rejects %j with a usage error', async (flags, message) => {
    const c = capture();
    expect(await main(['bench', ...flags], c.out)).toBe(2);
    expect(c.err.join('\n')).toMatch(message);
  });
});

describe('--threads', () => {
  const threadsOf = (flags: [string, string][]) => {
    const runtime = composeChoice(runtimeChoice({ positional: [], flags: new Map(flags) }));
    try {
      const wasm = runtime.packages.find((p) => p.name === 'ops-wasm')!;
      return (wasm.contribution as unknown as { threads: number }).threads;
    } finally {
      runtime.dispose();
    }
  };

  it("gives ops-wasm's threads: 1 is one thread, auto and no flag its default", () => {
    expect(
      threadsOf([
        ['ops', 'wasm'],
        ['threads', '1'],
      ]),
    ).toBe(1);
    const auto = threadsOf([
      ['ops', 'wasm'],
      ['threads', 'auto'],
    ]);
    expect(threadsOf([['ops', 'wasm']])).toBe(auto);
    expect(
      threadsOf([
        ['ops', 'wasm'],
        ['threads', '2'],
      ]),
    ).toBe(2); // Node has shared WebAssembly memory
  });

  it('bench and run take it', async () => {
    for (const command of ['bench', 'run']) {
      const c = capture();
      const extra = command === 'bench' ? ['--iters', '2', '--warmup', '0'] : [];
      expect(await main([command, '--ops', 'wasm', '--threads', '1', ...extra], c.out), c.err.join('\n')).toBe(0);
    }
  });
});
