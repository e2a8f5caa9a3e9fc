/**
 * docs/deploy.md stays true: its struct-size tables and its 32-bit figures of the conformance models are
 * the code's. On a mismatch the test prints the table the docs should hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, hasConformance, listModels, modelDir } from '@micrort/test-support/conformance';
import { ILP32, LP64, alignOf, ilp32, sizeOf, type StructDef } from './abi.js';
import { deployTflm, type DeployTarget } from './deploy.js';
import * as index from './index.js';
import { FRAMEWORK_STRUCTS } from './tflm/structs.js';

const DOC = join(REPO_ROOT, 'docs', 'deploy.md');
const INT_ENUMS = ilp32({ enumBytes: 4 });

function section(text: string, key: string): string {
  const m = new RegExp(`<!-- ${key} -->\\n([\\s\\S]*?)<!-- /${key} -->`).exec(text);
  if (!m) throw new Error(`docs/deploy.md has no <!-- ${key} --> section`);
  return m[1]!;
}

function isStruct(v: unknown): v is StructDef {
  return typeof v === 'object' && v !== null && Array.isArray((v as StructDef).fields) && typeof (v as StructDef).name === 'string';
}

function structTable(list: readonly StructDef[]): string {
  const cell = (s: StructDef, abi: typeof LP64) => `${sizeOf(s, abi)} / ${alignOf(s, abi)}`;
  return (
    [
      '| struct | declared in | LP64 size / align | ILP32 size / align | ILP32, 4-byte enums |',
      '|---|---|---|---|---|',
      ...list.map(
        (s) =>
          `| ${s.name} | ${s.source.replace(/^tensorflow\/lite\//, '')} | ${cell(s, LP64)} | ${cell(s, ILP32)} | ${cell(s, INT_ENUMS)} |`,
      ),
    ].join('\n') + '\n'
  );
}

describe('docs/deploy.md', () => {
  const doc = readFileSync(DOC, 'utf8');

  it('lists the framework structs with the sizes the arena model uses', () => {
    const want = structTable(FRAMEWORK_STRUCTS);
    expect(section(doc, 'framework-structs'), want).toBe(want);
  });

  it('lists the kernel structs (by name) with the sizes the arena model uses', () => {
    const framework = new Set<StructDef>(FRAMEWORK_STRUCTS);
    const list = Object.values(index).filter((v): v is StructDef => isStruct(v) && !framework.has(v));
    const want = structTable([...list].sort((a, b) => a.name.localeCompare(b.name, 'en')));
    expect(section(doc, 'kernel-structs'), want).toBe(want);
  });

  it.skipIf(!hasConformance)('gives the figures the code predicts for the conformance models', () => {
    const f = (t: DeployTarget) => `${t.arenaMinBytes} / ${t.arenaUsedBytes}`;
    const rows = listModels('models').map((name) => {
      const buf = readFileSync(join(modelDir(name), 'model.tflite'));
      const bytes = new Uint8Array(buf.byteLength);
      bytes.set(buf);
      const r = deployTflm(bytes, { standIns: false });
      const r4 = deployTflm(bytes, { standIns: false, enumBytes32: 4 });
      return `| ${name} | ${f(r.targets[0]!)} | ${f(r.targets[1]!)} | ${f(r4.targets[1]!)} | ${r.targets[0]!.headBytes} |`;
    });
    const want =
      [
        '| model | 64-bit min / used (= TFLM x86-64) | 32-bit min / used | 32-bit, 4-byte enums min / used | head |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n') + '\n';
    expect(section(doc, 'model-figures'), want).toBe(want);
  });
});
