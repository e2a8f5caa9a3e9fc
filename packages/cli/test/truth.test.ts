/**
 * The command line tells the truth (issue 21): a mistyped output path is a UsageError naming it, not an
 * internal ENOENT; `inspect` names each node's provider when another node fails; integer options say
 * one allowed range whatever the mistake; `--ops wasm` on a model it cannot serve says so in run,
 * bench, check and inspect instead of passing ops-reference's work off as its own.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { main } from '../src/main.js';
import type { Out } from '../src/print.js';

const tmp = mkdtempSync(join(tmpdir(), 'micrort-truth-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o: Out = { log: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, o);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A file where a folder is expected: `FILE/out` cannot be made. */
const aFile = join(tmp, 'a-file');
writeFileSync(aFile, 'not a folder');
const missing = join(tmp, 'no', 'such', 'dir');

describe('a path the command cannot write is a UsageError naming the option and the path (exit 2)', () => {
  it.each([
    [['plan', '--svg', join(missing, 'x.svg')], '--svg', join(missing, 'x.svg'), /does not exist/],
    [['plan', '--embed', join(missing, 'x.tflite')], '--embed', join(missing, 'x.tflite'), /does not exist/],
    [['plan', '--svg', join(aFile, 'x.svg')], '--svg', join(aFile, 'x.svg'), /is a file, not a folder/],
    [['plan', '--svg', tmp], '--svg', tmp, /is a folder/],
    [['run', '--outputs', join(aFile, 'out')], '--outputs', join(aFile, 'out'), /is a file, not a folder/],
    [['deploy', '--out', join(aFile, 'out')], '--out', join(aFile, 'out'), /is a file, not a folder/],
    [['deploy', '--out', aFile], '--out', aFile, /is a file, not a folder/],
  ])('%j', async (argv, option, path, why) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^UsageError: /);
    expect(r.err).toContain(`${option} ${JSON.stringify(path)}`);
    expect(r.err).toMatch(why);
    expect(r.err).not.toMatch(/ENOENT|ENOTDIR|EISDIR/);
  });

  it('plan prints the finished table before it reports a picture it could not write', async () => {
    // passes the checks made before the work (its folder exists), fails when written: a link into a missing folder
    const link = join(tmp, 'dangling.svg');
    symlinkSync(join(missing, 'x.svg'), link);
    const r = await cli('plan', '--svg', link);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^greedy\s+[\d,]+ B/m);
    expect(r.out).not.toMatch(/plan picture/);
    expect(r.err).toContain(`UsageError: --svg ${JSON.stringify(link)}: cannot be written (a folder on the path does not exist)`);
  });

  it('a folder that does not exist yet is made (run --outputs, deploy --out)', async () => {
    const dir = join(tmp, 'new', 'outputs');
    expect((await cli('run', '--outputs', dir)).code).toBe(0);
    expect(existsSync(join(dir, 'output_0.bin'))).toBe(true);
  });
});

describe('inspect names the provider of every node when one node fails', () => {
  it('the good nodes keep their provider, the failing one says why', async () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
    const p = b.addTensor({ name: 'p', type: TensorType.BOOL, shape: [2] });
    const q = b.addTensor({ name: 'q', type: TensorType.BOOL, shape: [2] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
    b.addOperator({ op: BuiltinOperator.ADD, inputs: [p, p], outputs: [q] }); // ADD has no bool kernel: prepare fails
    const file = join(tmp, 'one-bad-node.tflite');
    writeFileSync(file, b.setInputs([x, p]).setOutputs([y, q]).build());
    const r = await cli('inspect', file, '--json');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.operators.map((o: { provider: string }) => o.provider)).toEqual([
      '@micrort/ops-reference',
      '@micrort/ops-reference (prepare failed)',
    ]);
    expect(j.allocationError).toMatch(/ADD/);
    const text = await cli('inspect', file);
    expect(text.out).toMatch(/^0\s+RELU\s+1\s+0\s+1\s+@micrort\/ops-reference$/m);
    expect(text.out).not.toMatch(/\s\?$/m);
  });
});

describe('integer options state one allowed range', () => {
  it.each([['0'], ['abc'], ['-2'], ['1.5']])('run --profile %s', async (value) => {
    const r = await cli('run', '--profile', value);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`UsageError: --profile must be an integer >= 1, got ${value}`);
  });
});

/**
 * Two grouped int16 CONV_2Ds (TFLite's 16x8 quantization, filter depth half the input's): ops-reference runs
 * them; ops-wasm's convolutions decline grouped convolution.
 */
function int16ConvModel(): Uint8Array {
  const b = new ModelBuilder();
  const q = (scale: number) => ({ scale: [scale], zeroPoint: [0] });
  const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [1, 8, 8, 4], quantization: q(0.02) });
  const w = b.addTensor({
    name: 'w',
    type: TensorType.INT8,
    shape: [4, 3, 3, 2],
    quantization: q(0.01),
    data: Int8Array.from({ length: 72 }, (_, i) => ((i * 37) & 0xff) - 128),
  });
  const bias = b.addTensor({
    name: 'b',
    type: TensorType.INT64,
    shape: [4],
    quantization: q(0.0002),
    data: BigInt64Array.of(1n, -2n, 3n, -4n),
  });
  const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [1, 8, 8, 4], quantization: q(0.05) });
  const w2 = b.addTensor({
    name: 'w2',
    type: TensorType.INT8,
    shape: [4, 3, 3, 2],
    quantization: q(0.01),
    data: Int8Array.from({ length: 72 }, (_, i) => ((i * 53) & 0xff) - 128),
  });
  const b2 = b.addTensor({
    name: 'b2',
    type: TensorType.INT64,
    shape: [4],
    quantization: q(0.0005),
    data: BigInt64Array.of(0n, 1n, 2n, 3n),
  });
  const z = b.addTensor({ name: 'z', type: TensorType.INT16, shape: [1, 8, 8, 4], quantization: q(0.05) });
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [x, w, bias], outputs: [y], options: { strideW: 1, strideH: 1 } });
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [y, w2, b2], outputs: [z], options: { strideW: 1, strideH: 1 } });
  return b.setInputs([x]).setOutputs([z]).build();
}

/** A float32 CONV_2D of 36,864 multiply-accumulates: every node on ops-wasm (above its minMacs). */
function floatConvModel(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 8, 8, 8] });
  const w = b.addTensor({
    name: 'w',
    type: TensorType.FLOAT32,
    shape: [8, 3, 3, 8],
    data: Float32Array.from({ length: 576 }, (_, i) => ((i * 37) % 17) / 17 - 0.5),
  });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 8, 8, 8] });
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [x, w, -1], outputs: [y], options: { strideW: 1, strideH: 1 } });
  return b.setInputs([x]).setOutputs([y]).build();
}

describe('--ops wasm on a model it cannot serve says how many nodes each package served', () => {
  const file = join(tmp, 'int16-conv.tflite');
  writeFileSync(file, int16ConvModel());
  const extra: Record<string, string[]> = { bench: ['--iters', '2', '--warmup', '0'] };

  it.each([['run'], ['bench'], ['check'], ['inspect']])('%s', async (command) => {
    const r = await cli(command, file, '--ops', 'wasm', ...(extra[command] ?? []));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^served: ops-wasm 0 of 2 nodes \(0\.0% of MACs\), ops-reference 2 of 2 \(100\.0% of MACs\)$/m);
    expect(r.out).toMatch(/^ops-wasm: every node fell back to ops-reference — CONV_2D ×2 \(.*grouped convolution .*\)$/m);
    const j = JSON.parse((await cli(command, file, '--ops', 'wasm', '--json', ...(extra[command] ?? []))).out);
    const served = j.served as { package: string; nodes: number; totalNodes: number; fellBack: unknown[] }[];
    expect(served.map((s) => [s.package, s.nodes, s.totalNodes])).toEqual([
      ['ops-reference', 2, 2],
      ['ops-signal', 0, 2],
      ['ops-mediapipe', 0, 2],
      ['ops-coral', 0, 2],
      ['ops-wasm', 0, 2],
    ]);
    expect(served.find((s) => s.package === 'ops-wasm')!.fellBack).toEqual([expect.objectContaining({ op: 'CONV_2D', count: 2 })]);
  });

  it('a package that serves every node says so, and ops-reference alone is one line', async () => {
    const conv = join(tmp, 'float-conv.tflite');
    writeFileSync(conv, floatConvModel());
    const wasm = await cli('run', conv, '--ops', 'wasm');
    expect(wasm.out).toMatch(/^served: ops-wasm 1 of 1 nodes \(100\.0% of MACs\)$/m);
    expect(wasm.out).not.toMatch(/fell back/);
    expect((await cli('run')).out).toMatch(/^served: ops-reference 5 of 5 nodes \(100\.0% of MACs\)$/m);
  });

  it("layers below ops-wasm's minMacs fall back, and the line says why", async () => {
    const wasm = await cli('run', '--ops', 'wasm');
    expect(wasm.out).toMatch(/^served: ops-wasm 3 of 5 nodes \(0\.0% of MACs\), ops-reference 2 of 5 \(100\.0% of MACs\)$/m);
    expect(wasm.out).toMatch(/FULLY_CONNECTED ×2 \(.*fewer than minMacs 4096( \/ .*)?\)/);
  });

  it('check of a folder names a package in front that did not serve every node', async () => {
    const dir = join(tmp, 'served-folder');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'int16-conv.tflite'), int16ConvModel());
    const r = await cli('check', dir, '--ops', 'wasm');
    expect(r.out).toMatch(/int16-conv\.tflite\s+runs \(2 nodes, arena [\d,]+ B; ops-wasm served 0\)/);
  });
});
