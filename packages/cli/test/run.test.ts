import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CONFORMANCE_DIR,
  REPO_ROOT,
  SKIP_REASON,
  compareBytes,
  hasConformance,
  readManifest,
  tflmFigures,
} from '@micrort/test-support/conformance';
import { FLOWER_LABELS, buildLabelledUint8Classifier } from '@micrort/test-support/tflite-metadata';
import { main } from '../src/main.js';
import type { Out } from '../src/print.js';

const tmp = mkdtempSync(join(tmpdir(), 'micrort-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o: Out = { log: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, o);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('micrort run', () => {
  it('runs the built-in demo model with no argument', async () => {
    const r = await cli('run');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/built-in demo model/);
    expect(r.out).toMatch(/output 8 probs: float32\[1,4\]/);
  });

  it('--json prints outputs, arena and per-node providers', async () => {
    const r = await cli('run', '--json', '--outputs', join(tmp, 'demo'));
    const j = JSON.parse(r.out);
    expect(j.outputs[0]).toMatchObject({ dtype: 'float32', shape: [1, 4], file: join(tmp, 'demo', 'output_0.bin') });
    expect(j.arena.total).toBe(j.arena.head + j.arena.tail);
    expect(j.ops.map((o: { op: string }) => o.op)).toEqual(['QUANTIZE', 'FULLY_CONNECTED', 'FULLY_CONNECTED', 'SOFTMAX', 'DEQUANTIZE']);
    expect(new Set(j.ops.map((o: { provider: string }) => o.provider))).toEqual(new Set(['@micrort/ops-reference']));
    const probs = new Float32Array(readFileSync(join(tmp, 'demo', 'output_0.bin')).buffer.slice(0));
    expect(probs.reduce((a, b) => a + b, 0)).toBeGreaterThan(0.95);
  });

  it('names the classes of a classifier from the TFLite metadata in its top 5', async () => {
    const file = join(tmp, 'flowers.tflite');
    writeFileSync(file, buildLabelledUint8Classifier());
    const r = await cli('run', file);
    expect(r.code).toBe(0);
    const line = r.out.split('\n').find((l) => l.startsWith('top 5 of output 0 (probabilities): '));
    expect(line).toBeDefined();
    const named = line!
      .slice(line!.indexOf(': ') + 2)
      .split(', ')
      .map((e) => e.split(' ')[0]);
    expect([...named].sort()).toEqual([...FLOWER_LABELS].sort());
    const j = JSON.parse((await cli('run', file, '--json')).out);
    expect(j.outputs[0].top).toHaveLength(5);
    expect(FLOWER_LABELS).toContain(j.outputs[0].top[0].label);
    expect(j.outputs[0].top[0].score).toBeGreaterThan(j.outputs[0].top[1].score);
    // without metadata the classes are indices, and the line says so
    expect((await cli('run')).out).toMatch(/top 4 of output 0 \(probs\), classes by index \(the model names none\): #\d /);
  });

  it('errors are one line with the typed error name and a non-zero exit code', async () => {
    const bad = join(tmp, 'bad.tflite');
    writeFileSync(bad, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    const r = await cli('run', bad);
    expect(r.code).toBe(1);
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^ModelError: /);
    const small = await cli('run', '--arena', '64');
    expect(small.code).toBe(1);
    expect(small.err).toMatch(/^ArenaTooSmallError: .*an arena of \d+ bytes would fit/);
    const usage = await cli('run', '--bogus');
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^UsageError: unknown option --bogus/);
    const dbg = await cli('run', bad, '--debug');
    expect(dbg.err.split('\n').length).toBeGreaterThan(1);
  });
});

describe('micrort run --schedule', () => {
  it("gives the normal schedule's outputs and reports the stage and the in-place nodes", async () => {
    const normal = JSON.parse((await cli('run', 'demo:float-cnn', '--json')).out);
    for (const schedule of ['inplace', 'patch', 'patch+inplace']) {
      const r = await cli('run', 'demo:float-cnn', '--schedule', schedule, '--json');
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out);
      expect(j.outputs.map((o: { values: number[] }) => o.values)).toEqual(normal.outputs.map((o: { values: number[] }) => o.values));
      expect(j.schedule.name).toBe(schedule);
      expect(j.arena.head).toBeLessThanOrEqual(normal.arena.head);
      if (schedule.startsWith('patch')) expect(j.schedule.patch.grid).not.toBeNull();
    }
    const text = await cli('run', 'demo:float-cnn', '--schedule', 'patch+inplace');
    expect(text.out).toMatch(/^schedule patch\+inplace: nodes \d+-\d+ .* tiles of .*; \d+ nodes? runs? (its|their) in-place variants?$/m);
  });
});

describe.skipIf(!hasConformance)('micrort run on conformance models (issue 2 set)', () => {
  for (const model of ['hello_world_float', 'hello_world_int8', 'simple_add_model']) {
    it(`${model}: every case through run --json equals TFLM's outputs`, async () => {
      const m = readManifest(model);
      for (let c = 0; c < m.cases.length; c++) {
        const outDir = join(tmp, model, `case${c}`);
        const r = await cli(
          'run',
          join(CONFORMANCE_DIR!, model, 'model.tflite'),
          '--inputs',
          join(CONFORMANCE_DIR!, model, `case${c}`),
          '--outputs',
          outDir,
          '--json',
        );
        expect(r.code, r.err).toBe(0);
        const j = JSON.parse(r.out);
        m.cases[c]!.outputs.forEach((spec, k) => {
          const cmp = compareBytes(
            spec.dtype,
            readFileSync(join(outDir, `output_${k}.bin`)),
            readFileSync(join(CONFORMANCE_DIR!, model, `case${c}`, spec.file)),
          );
          expect(cmp.pass, `${model} case ${c} output ${k}: ${JSON.stringify(cmp)}`).toBe(true);
        });
        const t = tflmFigures(model)!;
        expect(j.arena.head).toBeLessThanOrEqual(t.head_bytes);
        expect(j.arena.total).toBeLessThanOrEqual(t.arena_used_bytes);
      }
    });
  }

  it('inspect lists operators, tensors and providers', async () => {
    const r = await cli('inspect', join(CONFORMANCE_DIR!, 'person_detect', 'model.tflite'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/DEPTHWISE_CONV_2D/);
    expect(r.out).toMatch(/per-channel ×8 \(dim 3\)/);
    expect(r.out).toMatch(/@micrort\/ops-reference/);
  });
});

if (!hasConformance) it.skip(SKIP_REASON, () => {});

describe('the built command (what `pnpm micrort` runs)', () => {
  it('node packages/cli/dist/bin.js run prints the demo and exits 0', () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/cli'], { cwd: REPO_ROOT });
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js'), 'run'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/probs: float32\[1,4\]/);
    const bad = spawnSync(process.execPath, [join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js'), 'frobnicate'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^UsageError: unknown command "frobnicate" \(commands: .*\brun\b.*\binspect\b/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const help = spawnSync(process.execPath, [join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js'), 'bench', '--help'], {
      encoding: 'utf8',
    });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: micrort bench \[options\] \[model\]/);
    const badValue = spawnSync(process.execPath, [join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js'), 'bench', '--iters', 'many'], {
      encoding: 'utf8',
    });
    expect(badValue.status).toBe(2);
    expect(badValue.stdout).toBe('');
    expect(badValue.stderr).toBe('UsageError: --iters must be an integer >= 1, got many\n');
  });

  it("every package's bin is a file git tracks (pnpm install links it before anything is built); the launcher runs the built CLI", () => {
    const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n'));
    const bins: string[] = [];
    for (const dir of readdirSync(join(REPO_ROOT, 'packages'))) {
      const manifest = join(REPO_ROOT, 'packages', dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
      for (const target of typeof bin === 'string' ? [bin] : Object.values(bin ?? {}))
        bins.push(`packages/${dir}/${target.replace(/^\.\//, '')}`);
    }
    expect(bins).toContain('packages/cli/bin/micrort.js');
    for (const b of bins) expect(tracked.has(b), `${b} is not tracked: pnpm install would print "Failed to create bin"`).toBe(true);
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'packages', 'cli', 'bin', 'micrort.js'), 'run'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/probs: float32\[1,4\]/);
  });
});
