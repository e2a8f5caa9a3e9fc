#!/usr/bin/env node
// Builds the ops-wasm kernels from assembly/ with AssemblyScript (an npm devDependency). First the ABI
// (scripts/abi.mjs: the parameter blocks between the TypeScript side and the kernels) is generated into
//   src/generated/abi.ts               word indices for the TypeScript side
//   assembly/generated/abi.ts          byte offsets for the kernels
// then each variant of the module (VARIANTS: SIMD128 and relaxed SIMD, each with its own memory or a
// shared one for threads) is compiled into
//   wasm/<variant>.wasm                the modules, committed
//   src/generated/kernels-wasm.ts      the same bytes as base64 (so bundlers and Node load them alike),
//                                      with the hash of the sources it was built from
// Usage: node scripts/build-wasm.mjs [--check] [--force]
//   (default)  compiles when the sources' hash differs from the recorded one, else does nothing;
//              under CI=true it never writes: a stale committed build fails the build instead
//   --check    compiles and fails when the committed files differ from the fresh build
//   --force    compiles and writes
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateAs, generateTs } from './abi.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const ASSEMBLY = join(pkg, 'assembly');
/** The SIMD128 module (the first variant). */
export const WASM_FILE = join(pkg, 'wasm', 'ops-wasm.wasm');
export const GENERATED_FILE = join(pkg, 'src', 'generated', 'kernels-wasm.ts');
export const ABI_TS_FILE = join(pkg, 'src', 'generated', 'abi.ts');
export const ABI_AS_FILE = join(pkg, 'assembly', 'generated', 'abi.ts');

/** The generated ABI files and their fresh contents. */
export function abiFiles() {
  return [
    [ABI_TS_FILE, generateTs()],
    [ABI_AS_FILE, generateAs()],
  ];
}

/** The ABI files that differ from a fresh generation (relative paths). */
export function abiStaleness() {
  return abiFiles()
    .filter(([f, text]) => !existsSync(f) || readFileSync(f, 'utf8') !== text)
    .map(([f]) => `${relative(pkg, f)} differs from a fresh generation of scripts/abi.mjs`);
}

/** Writes the ABI files that differ; returns whether any changed. */
function writeAbi() {
  let changed = false;
  for (const [f, text] of abiFiles()) {
    if (existsSync(f) && readFileSync(f, 'utf8') === text) continue;
    mkdirSync(dirname(f), { recursive: true });
    writeFileSync(f, text);
    console.log(`ops-wasm: generated ${relative(process.cwd(), f)}`);
    changed = true;
  }
  return changed;
}

/** asc flags every variant shares: memory imported (the arena), no runtime, no asserts, no abort import. */
export const ASC_FLAGS = [
  '--enable',
  'simd',
  '--runtime',
  'stub',
  '--importMemory',
  '--initialMemory',
  '0',
  '--noAssert',
  '--use',
  'abort=',
  '--optimizeLevel',
  '3',
  '--shrinkLevel',
  '0',
];

/**
 * The module's variants, one build each from the same sources: `name` is what src/wasm-module.ts asks
 * for, `constant` the base64 export of src/generated/kernels-wasm.ts. The threaded builds import a
 * shared memory (its maximum: the whole 32-bit space) so workers can instantiate the same module over it.
 */
export const VARIANTS = [
  { name: 'simd', file: 'ops-wasm.wasm', constant: 'KERNELS_WASM_BASE64', flags: [] },
  {
    name: 'simd-threads',
    file: 'ops-wasm-threads.wasm',
    constant: 'KERNELS_THREADS_WASM_BASE64',
    flags: ['--enable', 'threads', '--sharedMemory', '--maximumMemory', '65536'],
  },
  { name: 'relaxed', file: 'ops-wasm-relaxed.wasm', constant: 'KERNELS_RELAXED_WASM_BASE64', flags: ['--enable', 'relaxed-simd'] },
  {
    name: 'relaxed-threads',
    file: 'ops-wasm-relaxed-threads.wasm',
    constant: 'KERNELS_RELAXED_THREADS_WASM_BASE64',
    flags: ['--enable', 'relaxed-simd', '--enable', 'threads', '--sharedMemory', '--maximumMemory', '65536'],
  },
];

/** The committed module files, one per variant. */
export const WASM_FILES = VARIANTS.map((v) => join(pkg, 'wasm', v.file));

function sourceFiles(dir = ASSEMBLY) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts') || name.endsWith('.json')) out.push(p);
  }
  return out;
}

function ascVersion() {
  return JSON.parse(readFileSync(join(pkg, 'node_modules', 'assemblyscript', 'package.json'), 'utf8')).version;
}

/** Hash of every source file, the flags of every variant and the compiler version: what the committed build records. */
export function sourceHash() {
  const h = createHash('sha256');
  h.update(`asc ${ascVersion()}\n${ASC_FLAGS.join(' ')}\n`);
  for (const v of VARIANTS) h.update(`${v.name} ${v.flags.join(' ')}\n`);
  for (const f of sourceFiles()) {
    h.update(`${relative(pkg, f).split('\\').join('/')}\n`);
    h.update(readFileSync(f, 'utf8').replace(/\r\n/g, '\n'));
  }
  return h.digest('hex');
}

/** Compiles assembly/index.ts in memory with `flags` added; resolves to the module's bytes. */
async function compileWith(flags) {
  const asc = await import(pathToFileURL(join(pkg, 'node_modules', 'assemblyscript', 'dist', 'asc.js')).href);
  let wasm = null;
  const errors = [];
  const { error } = await asc.main([join(ASSEMBLY, 'index.ts'), ...ASC_FLAGS, ...flags, '--outFile', 'ops-wasm.wasm'], {
    writeFile(name, contents) {
      if (name.endsWith('.wasm')) wasm = contents;
    },
    stderr: { write: (s) => errors.push(String(s)) },
    stdout: { write: () => {} },
  });
  if (error || !wasm) throw new Error(`asc failed: ${error?.message ?? 'no output'}\n${errors.join('')}`);
  return new Uint8Array(wasm);
}

/** Compiles every variant; resolves to their bytes, in VARIANTS order. */
export async function compileKernels() {
  const out = [];
  for (const v of VARIANTS) out.push(await compileWith(v.flags));
  return out;
}

/** The generated TypeScript module for the variants' `modules` (VARIANTS order). */
export function generatedModule(modules, hash) {
  const lines = [
    '// Generated by packages/ops-wasm/scripts/build-wasm.mjs from assembly/: do not edit.',
    '// `pnpm build` rebuilds it when the sources change; a test fails when it is stale.',
    `/** sha256 of the AssemblyScript sources, flags and compiler version these modules were built from. */`,
    `export const KERNELS_SOURCE_HASH = '${hash}';`,
  ];
  VARIANTS.forEach((v, i) => {
    const bytes = modules[i];
    const b64 =
      Buffer.from(bytes)
        .toString('base64')
        .match(/.{1,100}/g) ?? [];
    const sha = v.constant.replace(/_BASE64$/, '_SHA256');
    lines.push(
      `/** sha256 of the ${v.name} module. */`,
      `export const ${sha} = '${createHash('sha256').update(bytes).digest('hex')}';`,
      `/** The ${v.name} module (${bytes.length} bytes, wasm/${v.file}), base64. */`,
      // an array of lines joined, not a chain of \`+\`: TypeScript's checker recurses once per \`+\`, and past about
      // 185 KB of module (2,500 concatenated lines) \`tsc -b\` died with "Maximum call stack size exceeded"
      `export const ${v.constant} = [`,
      ...b64.map((l) => `  '${l}',`),
      `].join('');`,
    );
  });
  lines.push('');
  return lines.join('\n');
}

/** Recorded source hash of the committed generated module, or null. */
export function recordedHash() {
  if (!existsSync(GENERATED_FILE)) return null;
  return /KERNELS_SOURCE_HASH = '([0-9a-f]+)'/.exec(readFileSync(GENERATED_FILE, 'utf8'))?.[1] ?? null;
}

/** Whether the committed files equal a fresh build; returns the differences. */
export async function staleness() {
  const problems = abiStaleness();
  const hash = sourceHash();
  const modules = await compileKernels();
  WASM_FILES.forEach((f, i) => {
    if (!existsSync(f) || !Buffer.from(readFileSync(f)).equals(Buffer.from(modules[i])))
      problems.push(`${relative(pkg, f)} differs from a fresh build`);
  });
  if (!existsSync(GENERATED_FILE) || readFileSync(GENERATED_FILE, 'utf8') !== generatedModule(modules, hash))
    problems.push(`${relative(pkg, GENERATED_FILE)} differs from a fresh build`);
  return problems;
}

async function cli() {
  const args = process.argv.slice(2);
  if (args.includes('--check') || (process.env.CI === 'true' && !args.includes('--force'))) {
    const problems = await staleness();
    if (problems.length) {
      console.error(
        `ops-wasm: the committed build is stale (${problems.join('; ')}): run \`pnpm build\` and commit packages/ops-wasm/wasm, src/generated and assembly/generated`,
      );
      process.exit(1);
    }
    return;
  }
  writeAbi();
  const hash = sourceHash();
  if (!args.includes('--force') && recordedHash() === hash && WASM_FILES.every((f) => existsSync(f))) return;
  const modules = await compileKernels();
  WASM_FILES.forEach((f, i) => writeFileSync(f, modules[i]));
  writeFileSync(GENERATED_FILE, generatedModule(modules, hash));
  console.log(`ops-wasm: built ${VARIANTS.map((v, i) => `wasm/${v.file} (${modules[i].length} bytes)`).join(', ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cli().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
