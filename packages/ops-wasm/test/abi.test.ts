/**
 * The ABI between the TypeScript side and the kernels is declared once (scripts/abi.mjs) and both sides
 * are generated from it: this fails when a generated file was edited or not regenerated after the spec
 * changed, when the committed module was built from another ABI, and when a block's layout is not what
 * its declaration says (word indices in order, aliases on their target, sizes rounded to 16 bytes).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain .mjs build script without types
import { ABI_AS_FILE, ABI_TS_FILE, abiStaleness } from '../scripts/build-wasm.mjs';
// @ts-expect-error: a plain .mjs build script without types
import { BLOCKS, abiHash, blockBytes, generateAs, generateTs, layout, snake } from '../scripts/abi.mjs';
import * as abi from '../src/generated/abi.js';
import { ABI_HASH, checkModuleAbi, kernelsWasmBytes } from '../src/index.js';

interface Field {
  name: string;
  type: string;
  count: number | 'rest';
  word: number;
  alias?: string;
}
interface Block {
  name: string;
  fields: unknown[];
}

describe('the ops-wasm ABI (scripts/abi.mjs)', () => {
  it('generated files equal a fresh generation (run `pnpm build` and commit them when this fails)', () => {
    expect(abiStaleness()).toEqual([]);
    expect(readFileSync(ABI_TS_FILE as string, 'utf8')).toBe(generateTs());
    expect(readFileSync(ABI_AS_FILE as string, 'utf8')).toBe(generateAs());
  });

  it('the TypeScript enums are the declared word indices, the AssemblyScript constants their byte offsets', () => {
    const as = readFileSync(ABI_AS_FILE as string, 'utf8');
    for (const b of BLOCKS as Block[]) {
      const e = (abi as unknown as Record<string, Record<string, number>>)[b.name]!;
      const { fields, words } = layout(b) as { fields: Field[]; words: number };
      let next = 0;
      for (const f of fields) {
        expect(e[f.name], `${b.name}.${f.name}`).toBe(f.word);
        expect(as).toContain(`export const ${b.name}_${snake(f.name) as string} = ${f.word * 4};`);
        if (f.alias) expect(f.word).toBe(e[f.alias]);
        else {
          expect(f.word, `${b.name}.${f.name} follows the field before it`).toBe(next);
          next += f.count === 'rest' ? 0 : (f.type === 'i32x4' ? 4 : 1) * f.count;
        }
      }
      expect(e['Words']).toBe(words);
      expect((abi as unknown as Record<string, number>)[`${b.name}_BYTES`]).toBe(blockBytes(b));
      expect(blockBytes(b) % 16).toBe(0);
      expect(blockBytes(b)).toBeGreaterThanOrEqual(words * 4);
    }
  });

  it('the committed module was built with this ABI; a module from another is refused at load', () => {
    expect(ABI_HASH).toBe(abiHash());
    const module = new WebAssembly.Module(kernelsWasmBytes());
    expect(() => checkModuleAbi(module)).not.toThrow();
    expect(() => checkModuleAbi(module, ABI_HASH + 1)).toThrow(/built with another ABI/);
  });

  it('a change of any field changes the hash', () => {
    const blocks = BLOCKS as Block[];
    const moved = blocks.map((b, i) => (i === 0 ? { ...b, fields: [...b.fields.slice(1), b.fields[0]] } : b));
    expect(abiHash(moved)).not.toBe(abiHash());
  });
});
