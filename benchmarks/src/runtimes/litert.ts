/**
 * LiteRT.js (`@litertjs/core`) in Node, on its WASM CPU path with one thread.
 *
 * LiteRT.js is written for browsers: it loads its Emscripten loader with `importScripts()` (in a
 * worker) and reads `self`. In Node we define `self` and `navigator`, and an `importScripts` that
 * evaluates the loader from the package's own `wasm/` folder as CommonJS (the package is
 * `"type": "module"`, so `require()` would refuse the file) and hands it the `.wasm` bytes read from
 * the same folder: nothing is fetched or downloaded. Without relaxed SIMD (Node 20 by default) LiteRT.js
 * picks its compat build, as a browser without relaxed SIMD would.
 *
 * The documented API (`loadAndCompile` + `Tensor`) refuses int8 tensors, so models are run through the
 * embind objects under it (`liteRtWasm.loadModel`, `compileModel`, `LiteRtTensorBuffer.createManaged`),
 * which take every element type. Like the public `CompiledModel.run`, each run returns new output
 * buffers, which the runner frees on the next run.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { RuntimeUnavailableError, withCapturedStderr, type RuntimeAdapter, type Runner } from '../runtime.js';
import { litertLoad, type LiteRtModule } from './litert-embind.js';

const require = createRequire(import.meta.url);

let loaded: Promise<{ litert: LiteRtModule; build: string; version: string }> | null = null;

/** The installed package's folder and version. */
function packageDir(): { dir: string; version: string } {
  let pkgJson: string;
  try {
    pkgJson = require.resolve('@litertjs/core/package.json');
  } catch {
    throw new RuntimeUnavailableError('LiteRT.js', '@litertjs/core is not installed (a devDependency of benchmarks/: pnpm install)');
  }
  return { dir: dirname(pkgJson), version: (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version };
}

/**
 * Loads LiteRT.js's threaded build once per process (it needs relaxed SIMD: Node 20 with
 * --experimental-wasm-relaxed-simd): its pthread workers `require()` the Emscripten loader, so the
 * package's wasm folder is copied into a CommonJS folder (in the temp dir) first.
 */
function loadThreadedOnce(): Promise<{ litert: LiteRtModule; build: string; version: string }> {
  loaded ??= (async () => {
    const { dir, version } = packageDir();
    const cjs = join(tmpdir(), `micrort-litert-wasm-cjs-${version}`);
    mkdirSync(cjs, { recursive: true });
    for (const f of readdirSync(join(dir, 'wasm'))) copyFileSync(join(dir, 'wasm', f), join(cjs, f));
    writeFileSync(join(cjs, 'package.json'), '{"type":"commonjs"}\n');
    const g = globalThis as Record<string, unknown>;
    g['self'] ??= globalThis;
    g['navigator'] ??= { hardwareConcurrency: availableParallelism() };
    let build = '';
    g['importScripts'] = (url: string) => {
      const file = url.startsWith('file:') ? new URL(url).pathname : url;
      build = basename(file, '.js');
      g['ModuleFactory'] = require(file) as unknown;
    };
    const litert = (await import('@litertjs/core')) as unknown as LiteRtModule;
    await litert.loadLiteRt(`${cjs}/`, { threads: true });
    return { litert, build, version };
  })();
  return loaded;
}

/** Loads LiteRT.js once per process (its wasm comes from the installed package). */
function loadOnce(): Promise<{ litert: LiteRtModule; build: string; version: string }> {
  loaded ??= (async () => {
    const { dir, version } = packageDir();
    const wasmDir = join(dir, 'wasm');
    const g = globalThis as Record<string, unknown>;
    g['self'] ??= globalThis;
    g['navigator'] ??= { hardwareConcurrency: availableParallelism() };
    let build = '';
    g['importScripts'] = (url: string) => {
      const file = url.startsWith('file:') ? new URL(url).pathname : url;
      build = basename(file, '.js');
      const source = readFileSync(file, 'utf8');
      const wrapper = runInThisContext(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
        filename: file,
      }) as (...a: unknown[]) => void;
      const module = { exports: {} as unknown };
      wrapper(module.exports, createRequire(file), module, file, dirname(file));
      g['ModuleFactory'] = module.exports;
      // Emscripten's log functions write through process.stdout/stderr (its default console.error is bound at
      // load time, out of reach of withCapturedStderr under a test runner's console).
      g['Module'] = {
        wasmBinary: readFileSync(file.replace(/\.js$/, '.wasm')),
        print: (text: string) => process.stdout.write(`${text}\n`),
        printErr: (text: string) => process.stderr.write(`${text}\n`),
      };
    };
    const litert = (await import('@litertjs/core')) as unknown as LiteRtModule;
    await litert.loadLiteRt(`${wasmDir}/`);
    return { litert, build, version };
  })();
  return loaded;
}

/** The LiteRT.js adapter (one thread). */
export function litertRuntime(): RuntimeAdapter {
  return {
    id: 'LiteRT.js',
    description: '@litertjs/core, WASM CPU (XNNPACK), 1 thread',
    load(bytes: Uint8Array): Promise<Runner> {
      return withCapturedStderr(async () => litertLoad((await loadOnce()).litert, bytes, 1));
    },
  };
}

/** The LiteRT.js build in use (after a load), e.g. `litert_wasm_compat_internal 2.5.3`. */
export async function litertBuild(): Promise<string> {
  const { build, version } = await loadOnce();
  return `${build} ${version}`;
}

/** The relaxed-SIMD flag LiteRT.js's threaded build needs in Node 20. */
export const RELAXED_SIMD_FLAG = '--experimental-wasm-relaxed-simd';

/**
 * LiteRT.js's threaded build (relaxed SIMD and WebAssembly threads) on `threads` threads: its own process
 * (one LiteRT.js per process), started with the relaxed-SIMD flag.
 */
export function litertThreadsRuntime(threads = 2): RuntimeAdapter {
  return {
    id: `LiteRT.js ${threads}t`,
    description: `@litertjs/core threaded build (relaxed SIMD, XNNPACK), ${threads} threads`,
    group: 'litert-threads',
    nodeFlags: [RELAXED_SIMD_FLAG],
    load(bytes: Uint8Array): Promise<Runner> {
      return withCapturedStderr(async () => litertLoad((await loadThreadedOnce()).litert, bytes, threads));
    },
  };
}
