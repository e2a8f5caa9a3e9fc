/**
 * `micrort deploy`: the summary on stdout, `--json` with the headline fields, `--out` writing the
 * resolver header, summary, JSON report and (with --planner/--embed) the model with its offline plan.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel, readOfflineMemoryAllocation } from '@micrort/core';
import { ssdPostProcessModel } from '@micrort/test-support/ssd-model';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import type { Out } from '../print.js';

async function cli(...argv: string[]) {
  const log: string[] = [];
  const err: string[] = [];
  const out: Out = { log: (l) => log.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')) };
  const code = await main(argv, out);
  return { code, out: log.join('\n'), err };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('micrort deploy', () => {
  it('prints the arena figures for both word sizes and the resolver', async () => {
    const r = await cli('deploy', 'demo:float-cnn');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/64-bit \(LP64\)\s+32-bit \(ARM EABI\)/);
    expect(r.out).toMatch(/kTensorArenaSize \(smallest that works\)\s+[\d,]+ B\s+[\d,]+ B/);
    expect(r.out).toMatch(/resolver: MicroMutableOpResolver<16> — AddPad\(\), AddConv2D\(\)/);
    expect(r.out).toContain('--out DIR writes');
  });

  it('--json has the headline fields; --word 32 switches them to the 32-bit target', async () => {
    const r64 = JSON.parse((await cli('deploy', 'demo', '--json')).out) as Record<string, unknown> & {
      targets: { word: number; arenaMinBytes: number }[];
    };
    for (const key of ['arenaMinBytes', 'arenaUsedBytes', 'headBytes', 'tailBytes', 'word', 'ops']) expect(r64, key).toHaveProperty(key);
    expect(r64.word).toBe(64);
    expect(r64.ops).toEqual(['QUANTIZE', 'FULLY_CONNECTED', 'SOFTMAX', 'DEQUANTIZE']);
    const r32 = JSON.parse((await cli('deploy', 'demo', '--json', '--word', '32')).out) as { word: number; arenaMinBytes: number };
    expect(r32.word).toBe(32);
    expect(r32.arenaMinBytes).toBe(r64.targets[1]!.arenaMinBytes);
  });

  it('--out writes the header, summary, JSON and, with --planner, the model with the offline plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'micrort-deploy-cli-'));
    dirs.push(dir);
    const r = await cli('deploy', 'demo', '--planner', 'optimal', '--out', dir);
    expect(r.code).toBe(0);
    const header = readFileSync(join(dir, 'demo_op_resolver.h'), 'utf8');
    expect(header).toContain('constexpr unsigned int kNumOps = 4;');
    expect(readFileSync(join(dir, 'summary.txt'), 'utf8')).toContain('offline plan (optimal');
    const json = JSON.parse(readFileSync(join(dir, 'deploy.json'), 'utf8')) as {
      files: { model: string };
      offlinePlan: { planner: string };
    };
    expect(json.offlinePlan.planner).toBe('optimal');
    expect(existsSync(json.files.model)).toBe(true);
    const embedded = new Uint8Array(readFileSync(json.files.model));
    expect(readOfflineMemoryAllocation(loadModel(embedded))).not.toBeNull();
  });

  it('names the header and its include guard after the model, not the folder, and defines kTensorArenaSize', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'micrort-deploy-cli-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'models'));
    writeFileSync(join(dir, 'models', 'ssd.tflite'), ssdPostProcessModel());
    const r = await cli('deploy', join(dir, 'models', 'ssd.tflite'), '--out', join(dir, 'build'), '--json');
    const report = JSON.parse(r.out) as { targets: { arenaMinBytes: number }[]; files: { header: string } };
    expect(report.files.header).toBe(join(dir, 'build', 'ssd_op_resolver.h'));
    const header = readFileSync(report.files.header, 'utf8');
    expect(header).toContain('#ifndef MICRORT_DEPLOY_SSD_OP_RESOLVER_H_');
    expect(header).not.toContain('MODELS_');
    expect(header).toContain(`constexpr size_t kTensorArenaSize = ${report.targets[0]!.arenaMinBytes};`);
    expect(header).toContain(`constexpr size_t kTensorArenaSize = ${report.targets[1]!.arenaMinBytes};`);
  });

  it('plans a node micrort cannot prepare with a stand-in and says why; --strict refuses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'micrort-deploy-cli-'));
    dirs.push(dir);
    const file = join(dir, 'ssd.tflite');
    writeFileSync(file, ssdPostProcessModel());
    const r = await cli('deploy', file);
    // Exit 1: TFLM would write the detections past the unshaped outputs (a finding), but the figures come.
    expect(r.code).toBe(1);
    expect(r.err).toEqual([]);
    expect(r.out).toMatch(/kTensorArenaSize \(smallest that works\)\s+[\d,]+ B\s+[\d,]+ B/);
    expect(r.out).toContain('note: CUSTOM:TFLite_Detection_PostProcess (node 0) is planned with a stand-in: micrort cannot prepare it');
    expect(r.out).toContain('output 0 (detection_boxes) has shape [] in the file');
    const strict = await cli('deploy', file, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.err.join('\n')).toMatch(/KernelError: TFLite_Detection_PostProcess \(node 0\)/);
  });

  it('rejects bad option values with a usage error', async () => {
    const r = await cli('deploy', '--target', 'tflite');
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toContain('--target must be one of tflm');
    const p = await cli('deploy', '--planner', 'offline');
    expect(p.code).toBe(2);
  });
});
