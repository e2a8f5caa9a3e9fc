/**
 * `micrort run` on a LiteRT model whose constants live in an external file (schema 3d external buffers):
 * the file is read from the model's folder; without it the error says which file and where to put it;
 * a name leading out of the folder is never read.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType, writeModel } from '@micrort/core';
import { main } from '../src/main.js';
import type { Out } from '../src/print.js';

const tmp = mkdtempSync(join(tmpdir(), 'micrort-ext-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o: Out = { log: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, o);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** y = x + w, w's 16 bytes at offset 8 of the external file `fileName`. */
function externalModel(fileName: string): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, w], outputs: [y] });
  const def = b.setInputs([x]).setOutputs([y]).buildDef();
  def.subgraphs[0]!.tensors[w]!.externalBuffer = 1;
  def.externalBufferGroups = [{ name: fileName }];
  def.externalBuffers = [{ id: 1, group: 0, offset: 8, length: 16, packing: 'unpacked' }];
  return writeModel(def);
}

describe('micrort run with external buffers', () => {
  it('reads the external file next to the model, and says where to put it when it is missing', async () => {
    const dir = join(tmp, 'model');
    mkdirSync(dir);
    const model = join(dir, 'add.tflite');
    writeFileSync(model, externalModel('weights.bin'));
    const missing = await cli('run', model);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(
      /^UsageError: .*outside the \.tflite file, in "weights\.bin" \(1 tensors: "w"\): put it in .*model, next to the model$/,
    );

    const weights = new Uint8Array(32);
    new Float32Array(weights.buffer, 8, 4).set([10, 20, 30, 40]);
    writeFileSync(join(dir, 'weights.bin'), weights);
    writeFileSync(join(dir, 'input_0.bin'), new Uint8Array(Float32Array.of(1, 2, 3, 4).buffer));
    const out = join(tmp, 'out');
    const r = await cli('run', model, '--json', '--inputs', dir, '--outputs', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const y = new Float32Array(new Uint8Array(readFileSync(join(out, 'output_0.bin'))).buffer);
    expect(Array.from(y)).toEqual([11, 22, 33, 44]);
  });

  it('never reads a file outside the model folder', async () => {
    writeFileSync(join(tmp, 'secret.bin'), new Uint8Array(32));
    const dir = join(tmp, 'inner');
    mkdirSync(dir);
    const model = join(dir, 'escape.tflite');
    writeFileSync(model, externalModel('../secret.bin'));
    const r = await cli('run', model);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/in "\.\.\/secret\.bin"/);
  });
});
