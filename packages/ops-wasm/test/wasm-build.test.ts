/**
 * The committed module is what the sources build to: AssemblyScript (the devDependency) compiles
 * assembly/ in memory with the flags of scripts/build-wasm.mjs, and wasm/ops-wasm.wasm and
 * src/generated/kernels-wasm.ts must equal the fresh build byte for byte. `pnpm build` rebuilds them
 * when the sources change; this test (and the build itself under CI=true) fails when they are stale.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain .mjs build script without types
import { VARIANTS, WASM_FILE, WASM_FILES, recordedHash, sourceHash, staleness } from '../scripts/build-wasm.mjs';
import {
  ABI_HASH,
  KERNELS_SOURCE_HASH,
  KERNELS_WASM_SHA256,
  checkModuleAbi,
  checkModuleLayout,
  detectFeatures,
  kernelsWasmBytes,
} from '../src/index.js';
import { isSharedVariant, type KernelsVariant } from '../src/wasm-module.js';

describe('the committed kernels module', () => {
  it('equals a fresh build of assembly/ (run `pnpm build` and commit wasm/ and src/generated/ when this fails)', async () => {
    expect(await staleness()).toEqual([]);
    expect(recordedHash()).toBe(sourceHash());
    expect(KERNELS_SOURCE_HASH).toBe(sourceHash());
    // compiling the four variants takes 70 s on an idle core of the CI's machine class, more beside the
    // other test files: the default 120 s is too tight
  }, 600_000);

  it('is the module the package loads, with no data or global section (the arena owns the whole memory)', () => {
    const bytes = kernelsWasmBytes();
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(KERNELS_WASM_SHA256);
    expect(Buffer.from(bytes).equals(readFileSync(WASM_FILE as string))).toBe(true);
    expect(() => checkModuleLayout(bytes, new WebAssembly.Module(bytes))).not.toThrow();
  });

  it('every variant is committed, loads, and owns no memory (the threaded one imports a shared memory)', () => {
    const relaxed = detectFeatures().relaxedSimd; // Node 20 compiles the relaxed builds only with the flag (test/relaxed.test.ts)
    (VARIANTS as { name: KernelsVariant; file: string }[]).forEach((v, i) => {
      const bytes = kernelsWasmBytes(v.name);
      expect(Buffer.from(bytes).equals(readFileSync((WASM_FILES as string[])[i]!)), v.name).toBe(true);
      if (v.name.startsWith('relaxed') && !relaxed) return;
      expect(() => checkModuleLayout(bytes, new WebAssembly.Module(bytes)), v.name).not.toThrow();
      expect(() => checkModuleAbi(new WebAssembly.Module(bytes), ABI_HASH, isSharedVariant(v.name)), v.name).not.toThrow();
    });
    expect(() => checkModuleAbi(new WebAssembly.Module(kernelsWasmBytes('simd-threads')), ABI_HASH, false)).toThrow();
  });

  it('the layout check refuses a module with a data segment', () => {
    // (module (import "env" "memory" (memory 1)) (data (i32.const 0) "x"))
    const withData = new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x02, 0x0f, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79,
      0x02, 0x00, 0x01, 0x0b, 0x07, 0x01, 0x00, 0x41, 0x00, 0x0b, 0x01, 0x78,
    ]);
    expect(() => checkModuleLayout(withData, new WebAssembly.Module(withData))).toThrow(/data section/);
  });
});
