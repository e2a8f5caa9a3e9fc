import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { buildDemoModel } from '@micrort/app-kit';
import { booleanMaskModel } from '@micrort/test-support/data-dependent-models';
import { dilatedConvModel } from '@micrort/test-support/dynamic-models';
import { main } from '../src/main.js';
import type { Out } from '../src/print.js';

const tmp = mkdtempSync(join(tmpdir(), 'micrort-check-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string; progress: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const o: Out = { log: (l) => out.push(l), err: (l) => err.push(l), progress: (l) => progress.push(l) };
  const code = await main(argv, o);
  return { code, out: out.join('\n'), err: err.join('\n'), progress };
}

/** Three problems at once: a CONV_2D no provider takes (int32), a custom op nobody registers, an ADD on bool (prepare fails). */
function brokenModel(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.INT32, shape: [1, 2, 2, 1] });
  const w = b.addTensor({ name: 'w', type: TensorType.INT32, shape: [1, 1, 1, 1], data: new Int32Array([2]) });
  const y = b.addTensor({ name: 'y', type: TensorType.INT32, shape: [1, 2, 2, 1] });
  const z = b.addTensor({ name: 'z', type: TensorType.INT32, shape: [1, 2, 2, 1] });
  const p = b.addTensor({ name: 'p', type: TensorType.BOOL, shape: [2] });
  const q = b.addTensor({ name: 'q', type: TensorType.BOOL, shape: [2] });
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [x, w, -1], outputs: [y], options: { strideW: 1, strideH: 1 } });
  b.addOperator({ op: { custom: 'NotAnOp' }, inputs: [y], outputs: [z] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [p, p], outputs: [q] });
  return b.setInputs([x, p]).setOutputs([z, q]).build();
}

/** CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV on int32, which no kernel package serves. */
function int32ConvModel(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.INT32, shape: [1, 2, 2, 1] });
  const w = b.addTensor({ name: 'w', type: TensorType.INT32, shape: [1, 1, 1, 1], data: new Int32Array([2]) });
  const y = b.addTensor({ name: 'y', type: TensorType.INT32, shape: [1, 2, 2, 1] });
  const z = b.addTensor({ name: 'z', type: TensorType.INT32, shape: [1, 2, 2, 1] });
  const shape = b.addTensor({ name: 'shape', type: TensorType.INT32, shape: [4], data: new Int32Array([1, 2, 2, 1]) });
  const t = b.addTensor({ name: 't', type: TensorType.INT32, shape: [1, 2, 2, 1] });
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [x, w, -1], outputs: [y], options: { strideW: 1, strideH: 1 } });
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [y, w, -1],
    outputs: [z],
    options: { strideW: 1, strideH: 1, depthMultiplier: 1 },
  });
  b.addOperator({ op: BuiltinOperator.TRANSPOSE_CONV, inputs: [shape, w, z], outputs: [t], options: { strideW: 1, strideH: 1 } });
  return b.setInputs([x]).setOutputs([t]).build();
}

/** Six int16 ADDs: ops-wasm declines each with a reason naming its own tensor, ops-reference takes them. */
function int16AddChain(): Uint8Array {
  const b = new ModelBuilder();
  const q = { scale: [0.5], zeroPoint: [0] };
  let x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [1, 8], quantization: q });
  const input = x;
  for (let i = 0; i < 6; i++) {
    const y = b.addTensor({ name: `y${i}`, type: TensorType.INT16, shape: [1, 8], quantization: q });
    b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, x], outputs: [y] });
    x = y;
  }
  return b.setInputs([input]).setOutputs([x]).build();
}

describe('micrort check', () => {
  it('a model that runs: exit 0, the grouped table and its arena', async () => {
    const r = await cli('check');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/FULLY_CONNECTED\s+4\s+int8,int8,int32 → int8\s+1\s+@micrort\/ops-reference/);
    expect(r.out).toMatch(/ok: every node resolves and prepares; arena [\d,]+ B/);
  });

  it("every problem at once, grouped by op, with each provider's reason; exit 1", async () => {
    const file = join(tmp, 'broken.tflite');
    writeFileSync(file, brokenModel());
    const r = await cli('check', file, '--ops', 'simd');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/CONV_2D\s+1\s+int32,int32,- → int32\s+0\s+MISSING \(declined\)/);
    expect(r.out).toMatch(/CUSTOM:NotAnOp\s+1\s+int32 → int32\s+1\s+MISSING \(no provider\)/);
    expect(r.out).toMatch(/ADD\s+1\s+bool,bool → bool\s+2\s+MISSING \(prepare failed\)/);
    // ops-simd is asked first (registered in front), then ops-reference
    expect(r.out).toMatch(/@micrort\/ops-simd \(CONV_2D.*\) declined/);
    expect(r.out).toMatch(/@micrort\/ops-reference \(CONV_2D\) declined/);
    expect(r.out).toMatch(/no provider registered for this op and version/);
    expect(r.out).toMatch(/@micrort\/ops-reference failed: .*bool/);
    expect(r.out).toMatch(/3 of 3 nodes cannot run/);
    const j = JSON.parse((await cli('check', file, '--json')).out);
    expect(j.ok).toBe(false);
    expect(j.nodes.map((n: { status: string }) => n.status)).toEqual(['declined', 'no-provider', 'prepare-failed']);
    expect(j.ops.map((o: { op: string }) => o.op)).toEqual(['ADD', 'CONV_2D', 'CUSTOM:NotAnOp']);
  });

  it('a folder: one line per model, progress on the terminal, exit 1 when one needs something', async () => {
    const dir = join(tmp, 'zoo');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'demo.tflite'), buildDemoModel());
    writeFileSync(join(dir, 'sub', 'broken.tflite'), brokenModel());
    writeFileSync(join(dir, 'notes.txt'), 'not a model');
    const r = await cli('check', dir);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/demo\.tflite\s+runs \(5 nodes, arena [\d,]+ B\)/);
    expect(r.out).toMatch(
      /sub\/broken\.tflite\s+missing: ADD ×1 \(prepare failed\), CONV_2D ×1 \(declined\), CUSTOM:NotAnOp ×1 \(no provider\)/,
    );
    expect(r.out).toMatch(/1 of 2 models run; 1 need something missing/);
    expect(r.progress).toHaveLength(3);
    expect(r.progress[0]).toMatch(/0%.*check demo\.tflite$/);
    expect(r.progress[1]).toMatch(/50%.*check sub\/broken\.tflite$/);
    expect(r.progress[2]).toBe('');
    expect((await cli('check', dir, '--json')).progress).toEqual([]);
    const j = JSON.parse((await cli('check', dir, '--json')).out);
    expect([j.models, j.failing]).toEqual([2, 1]);
    expect(j.results.map((x: { summary: string }) => x.summary)).toEqual([
      expect.stringMatching(/^runs \(5 nodes/),
      expect.stringMatching(/^missing: ADD ×1/),
    ]);
  });

  it('the text names the reason CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV decline with', async () => {
    const file = join(tmp, 'int32-conv.tflite');
    writeFileSync(file, int32ConvModel());
    const r = await cli('check', file);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/no reason given/);
    expect(r.out).toMatch(/@micrort\/ops-reference \(CONV_2D\) declined: unsupported input\/filter types int32\/int32/);
    expect(r.out).toMatch(/@micrort\/ops-reference \(DEPTHWISE_CONV_2D\) declined: unsupported input\/filter types int32\/int32/);
    expect(r.out).toMatch(/@micrort\/ops-reference \(TRANSPOSE_CONV\) declined: unsupported input\/filter types int32\/int32/);
  });

  it('the text shows why a provider in front declined nodes another one took, one row for reasons that differ in numbers', async () => {
    const file = join(tmp, 'add16.tflite');
    writeFileSync(file, int16AddChain());
    const r = await cli('check', file, '--ops', 'wasm');
    expect(r.code).toBe(0);
    // one row for the six nodes although each reason names another tensor
    expect(r.out.split('\n').filter((l) => /^ADD\s/.test(l))).toEqual([expect.stringMatching(/0,1,2,3,4,5\s+@micrort\/ops-reference$/)]);
    expect(r.out).toMatch(/fell back .*\n\s+ADD v1 \(int16,int16 → int16\), 6 nodes .*→ @micrort\/ops-reference:/);
    expect(r.out).toMatch(/@micrort\/ops-wasm \(ADD\/wasm-f32\) declined: int16 tensor \{0,1,2,3,…\} \(handles float32\)/);
    expect(r.out).toMatch(/@micrort\/ops-wasm \(ADD\/wasm-qs8\) declined: int16 input 1 \(handles int8\)/);
    // --json keeps each node's own reason
    const j = JSON.parse((await cli('check', file, '--ops', 'wasm', '--json')).out);
    expect(j.nodes[5].declined[0].reason).toBe('int16 tensor 5 (handles float32)');
  });

  it('a folder line says "1 node", not "1 nodes"', async () => {
    const dir = join(tmp, 'one-node');
    mkdirSync(dir, { recursive: true });
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
    writeFileSync(join(dir, 'relu.tflite'), b.setInputs([x]).setOutputs([y]).build());
    const r = await cli('check', dir);
    expect(r.out).toMatch(/relu\.tflite\s+runs \(1 node, arena/);
  });

  it('--list-ops lists the registered builtin and custom ops with their count', async () => {
    const r = await cli('check', '--list-ops');
    expect(r.code).toBe(0);
    const m = /(\d+) builtin ops and (\d+) custom ops registered \(--ops reference\)/.exec(r.out)!;
    const j = JSON.parse((await cli('check', '--list-ops', '--json')).out);
    expect([j.builtinCount, j.customCount]).toEqual([Number(m[1]), Number(m[2])]);
    expect(j.builtin.map((o: { op: string }) => o.op)).toEqual(
      expect.arrayContaining(['CONV_2D', 'IF', 'WHILE', 'CALL_ONCE', 'VAR_HANDLE']),
    );
    expect(j.builtin.length).toBe(j.builtinCount);
    expect((await cli('check', '--list-ops', 'x.tflite')).code).toBe(2);
  });

  it('lists the tensors whose shapes were inferred or folded in prepare (text and JSON)', async () => {
    const file = join(tmp, 'dilated.tflite');
    writeFileSync(file, dilatedConvModel([1, 9, 9, 2]));
    const r = await cli('check', file);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /shapes: 3 inferred in prepare, 8 folded \(computed in prepare\), 0 bounded \(data-dependent\), 0 resized inputs/,
    );
    expect(r.out).toMatch(/inferred .* y .*\[1, 1, 1, 3\] → \[1, 5, 5, 3\] +BATCH_TO_SPACE_ND #10/);
    expect(r.out).toMatch(/folded .* dilated\/paddings .*\[2, 2\] +PACK #6 +constant in arena tail/);
    const j = JSON.parse((await cli('check', file, '--json')).out) as { shapes: { kind: string; name: string }[] };
    expect(j.shapes.filter((n) => n.kind === 'folded').map((n) => n.name)).toContain('dilated/shape');
  });
  it('lists the tensors whose shapes depend on data as bounded, with the bound planned (text and JSON)', async () => {
    const file = join(tmp, 'boolean-mask.tflite');
    writeFileSync(file, booleanMaskModel(8));
    const r = await cli('check', file);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /shapes: 0 inferred in prepare, 0 folded \(computed in prepare\), 5 bounded \(data-dependent\), 0 resized inputs/,
    );
    expect(r.out).toMatch(/bounded .* coords .*\[8, 1\] → \[8, 1\] +WHERE #1 +planned at bound/);
    expect(r.out).toMatch(/bounded .* positives .* GATHER #4 +planned at bound/);
    const j = JSON.parse((await cli('check', file, '--json')).out) as { shapes: { kind: string; name: string; shape: number[] }[] };
    expect(j.shapes.filter((n) => n.kind === 'bounded').map((n) => [n.name, n.shape])).toEqual([
      ['coords', [8, 1]],
      ['coords/flat', [8]],
      ['coords/int32', [8]],
      ['positives', [8]],
      ['negated', [8]],
    ]);
  });
});
