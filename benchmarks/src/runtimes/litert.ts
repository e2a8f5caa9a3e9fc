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
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { DTYPE_BYTES, RuntimeUnavailableError, withCapturedStderr, type RuntimeAdapter, type Runner, type TensorInfo } from '../runtime.js';

const require = createRequire(import.meta.url);

/* The embind objects LiteRT.js wraps, as far as this adapter uses them. */
interface Deletable {
  delete(): void;
}
interface EmVector<T> extends Deletable {
  size(): number;
  get(i: number): T;
  push_back(v: T): void;
}
interface EmLayout extends Deletable {
  dimensions(): EmVector<number>;
}
interface EmTensorType extends Deletable {
  elementType(): { value: number };
  layout(): EmLayout;
}
interface EmTensorBuffer extends Deletable {
  lock(mode: unknown): number;
  unlock(): void;
  offset(): number;
  packedSize(): number;
}
interface EmSignature extends Deletable {
  inputNames(): EmVector<string>;
  outputNames(): EmVector<string>;
}
interface EmModel extends Deletable {
  getSignature(i: number): EmSignature;
  getInputTensorType(sig: number, i: number): EmTensorType;
  getOutputTensorType(sig: number, i: number): EmTensorType;
}
interface EmCompiledModel extends Deletable {
  run(sig: number, inputs: EmTensorBuffer[]): Promise<EmTensorBuffer[]> | EmTensorBuffer[];
}
interface LiteRtWasm {
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(p: number): void;
  loadModel(env: unknown, ptr: number, n: number): EmModel;
  compileModel(env: unknown, model: EmModel, options: unknown): Promise<EmCompiledModel>;
  VectorInt32: new () => EmVector<number>;
  LiteRtLayout: { create(dims: EmVector<number>): EmLayout };
  LiteRtRankedTensorType: { create(et: { value: number }, layout: EmLayout): EmTensorType };
  LiteRtTensorBuffer: { createManaged(env: unknown, type: unknown, t: EmTensorType, bytes: number): EmTensorBuffer };
  LiteRtTensorBufferType: { HOST_MEMORY: unknown };
  LiteRtTensorBufferLockMode: { READ: unknown; WRITE: unknown };
}
interface LiteRtModule {
  loadLiteRt(path: string): Promise<unknown>;
  getGlobalLiteRt(): { liteRtWasm: LiteRtWasm; getDefaultEnvironment(): { liteRtEnvironment: unknown } };
  supportsFeature(f: string): Promise<boolean>;
}

/** LiteRT element type codes (TfLiteType values). */
const ELEMENT_TYPES: Readonly<Record<number, string>> = {
  1: 'float32',
  2: 'int32',
  3: 'uint8',
  4: 'int64',
  6: 'bool',
  7: 'int16',
  9: 'int8',
  10: 'float16',
  11: 'float64',
  13: 'uint64',
  16: 'uint32',
  17: 'uint16',
};

let loaded: Promise<{ litert: LiteRtModule; build: string; version: string }> | null = null;

/** Loads LiteRT.js once per process (its wasm comes from the installed package). */
function loadOnce(): Promise<{ litert: LiteRtModule; build: string; version: string }> {
  loaded ??= (async () => {
    let pkgJson: string;
    try {
      pkgJson = require.resolve('@litertjs/core/package.json');
    } catch {
      throw new RuntimeUnavailableError('LiteRT.js', '@litertjs/core is not installed (a devDependency of benchmarks/: pnpm install)');
    }
    const wasmDir = join(dirname(pkgJson), 'wasm');
    const version = (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version;
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

function toArray<T>(v: EmVector<T>): T[] {
  const a: T[] = [];
  for (let i = 0; i < v.size(); i++) a.push(v.get(i));
  v.delete();
  return a;
}

/** The LiteRT.js adapter (one thread). */
export function litertRuntime(): RuntimeAdapter {
  return {
    id: 'LiteRT.js',
    description: '@litertjs/core, WASM CPU (XNNPACK), 1 thread',
    load(bytes: Uint8Array): Promise<Runner> {
      return withCapturedStderr(() => loadModel(bytes));
    },
  };
}

/** Loads and compiles a model through the embind objects (one thread). */
async function loadModel(bytes: Uint8Array): Promise<Runner> {
  const { litert } = await loadOnce();
  const lr = litert.getGlobalLiteRt();
  const wasm = lr.liteRtWasm;
  const env = lr.getDefaultEnvironment();
  const ptr = wasm._malloc(bytes.byteLength);
  wasm.HEAPU8.set(bytes, ptr);
  const owned: Deletable[] = [];
  try {
    const model = wasm.loadModel(env.liteRtEnvironment, ptr, bytes.byteLength);
    owned.push(model);
    const compiled = await wasm.compileModel(env.liteRtEnvironment, model, {
      environment: env,
      accelerator: 'wasm',
      cpuOptions: { numThreads: 1 },
      gpuOptions: {},
      webNNOptions: {},
    });
    owned.push(compiled);
    const sig = model.getSignature(0);
    owned.push(sig);
    const describe = (t: EmTensorType, name: string): TensorInfo & { elementType: number } => {
      const elementType = t.elementType().value;
      const layout = t.layout();
      const shape = toArray(layout.dimensions()).map((d) => (d < 0 ? 1 : d));
      layout.delete();
      t.delete();
      const dtype = ELEMENT_TYPES[elementType] ?? `type${elementType}`;
      return { name, dtype, shape, bytes: shape.reduce((p, d) => p * d, 1) * (DTYPE_BYTES[dtype] ?? 0), elementType };
    };
    const inputs = toArray(sig.inputNames()).map((name, i) => describe(model.getInputTensorType(0, i), name));
    const outputs = toArray(sig.outputNames()).map((name, j) => describe(model.getOutputTensorType(0, j), name));
    const buffers = inputs.map((t) => {
      const dims = new wasm.VectorInt32();
      for (const d of t.shape) dims.push_back(d);
      const layout = wasm.LiteRtLayout.create(dims);
      dims.delete();
      const type = wasm.LiteRtRankedTensorType.create({ value: t.elementType }, layout);
      layout.delete();
      const buf = wasm.LiteRtTensorBuffer.createManaged(env.liteRtEnvironment, wasm.LiteRtTensorBufferType.HOST_MEMORY, type, t.bytes);
      type.delete();
      return buf;
    });
    owned.push(...buffers);
    let last: EmTensorBuffer[] | null = null;
    const freeLast = () => {
      if (last) for (const b of last) b.delete();
      last = null;
    };
    return {
      inputs: inputs.map(({ elementType: _e, ...t }) => t),
      outputs: outputs.map(({ elementType: _e, ...t }) => t),
      setInput(i, data) {
        const p = buffers[i]!.lock(wasm.LiteRtTensorBufferLockMode.WRITE);
        try {
          wasm.HEAPU8.set(data, p);
        } finally {
          buffers[i]!.unlock();
        }
      },
      async run() {
        freeLast();
        last = await compiled.run(0, buffers);
      },
      readOutputs() {
        if (!last) throw new Error('LiteRT.js: no run yet');
        return last.map((b) => {
          if (b.offset() !== 0) throw new Error('LiteRT.js: output buffer with a non-zero offset');
          const size = b.packedSize();
          const p = b.lock(wasm.LiteRtTensorBufferLockMode.READ);
          try {
            return wasm.HEAPU8.slice(p, p + size);
          } finally {
            b.unlock();
          }
        });
      },
      dispose() {
        freeLast();
        for (const o of owned.reverse()) o.delete();
        wasm._free(ptr);
      },
    };
  } catch (e) {
    for (const o of owned.reverse()) o.delete();
    wasm._free(ptr);
    throw e;
  }
}

/** The LiteRT.js build in use (after a load), e.g. `litert_wasm_compat_internal 2.5.3`. */
export async function litertBuild(): Promise<string> {
  const { build, version } = await loadOnce();
  return `${build} ${version}`;
}
