/**
 * tfjs-tflite (`@tensorflow/tfjs-tflite`): TFLite and XNNPACK compiled to WASM, one thread.
 *
 * Its Emscripten builds target web pages and workers, so in Node we shim a worker: `self`,
 * `self.location`, `navigator` and an `importScripts` that loads the non-threaded SIMD build from the
 * package's `wasm/` folder (the threaded build spawns web Workers from Blob URLs, which Node lacks) and
 * hands it the `.wasm` bytes read from there. The shims are in place before the package is required,
 * because it starts loading its WASM module at require time. Inputs are written into the
 * interpreter's input buffers (views on the WASM heap) and `infer()` is timed, without tfjs tensors
 * (tfjs has no int8 dtype).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { DTYPE_BYTES, RuntimeUnavailableError, withCapturedStderr, type RuntimeAdapter, type Runner, type TensorInfo } from '../runtime.js';

const require = createRequire(import.meta.url);

interface TfliteTensorInfo {
  name: string;
  shape: string;
  dataType: string;
  data(): ArrayBufferView;
}
interface ModelRunner {
  getInputs(): TfliteTensorInfo[];
  getOutputs(): TfliteTensorInfo[];
  infer(): boolean;
  cleanUp?(): void;
}
interface TfliteModule {
  loadTFLiteModel(model: ArrayBuffer, options?: { numThreads?: number }): Promise<{ modelRunner: ModelRunner }>;
}

/** The WASM build used: SIMD, single-threaded. */
const VARIANT = 'tflite_web_api_cc_simd';

let loaded: { tflite: TfliteModule; version: string } | null = null;

function loadOnce(): { tflite: TfliteModule; version: string } {
  if (loaded) return loaded;
  let pkgJson: string;
  try {
    pkgJson = require.resolve('@tensorflow/tfjs-tflite/package.json');
  } catch {
    throw new RuntimeUnavailableError(
      'tfjs-tflite',
      '@tensorflow/tfjs-tflite is not installed (a devDependency of benchmarks/: pnpm install)',
    );
  }
  const wasmDir = join(dirname(pkgJson), 'wasm');
  const g = globalThis as Record<string, unknown>;
  g['self'] ??= globalThis;
  g['location'] ??= { origin: 'file://', href: `file://${wasmDir}/`, protocol: 'file:' };
  g['navigator'] ??= { hardwareConcurrency: availableParallelism() };
  // whatever build the loader asks for (it prefers the threaded one), load the single-threaded SIMD build
  g['importScripts'] = () => {
    const factory = require(join(wasmDir, `${VARIANT}.js`)) as (opts: Record<string, unknown>) => unknown;
    const wasmBinary = readFileSync(join(wasmDir, `${VARIANT}.wasm`));
    g['tflite_web_api_ModuleFactory'] = (opts: Record<string, unknown> = {}) => factory({ ...opts, wasmBinary });
  };
  const tflite = require('@tensorflow/tfjs-tflite') as TfliteModule;
  loaded = { tflite, version: (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version };
  return loaded;
}

function info(t: TfliteTensorInfo): TensorInfo {
  const shape = t.shape
    .split(',')
    .filter((s) => s !== '')
    .map(Number);
  return { name: t.name, dtype: t.dataType, shape, bytes: shape.reduce((p, d) => p * d, 1) * (DTYPE_BYTES[t.dataType] ?? 0) };
}

const u8 = (v: ArrayBufferView) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** The tfjs-tflite adapter (SIMD build, one thread). */
export function tfjsTfliteRuntime(): RuntimeAdapter {
  return {
    id: 'tfjs-tflite',
    description: `@tensorflow/tfjs-tflite, ${VARIANT} (WASM SIMD, XNNPACK), 1 thread`,
    async load(bytes: Uint8Array): Promise<Runner> {
      const { tflite } = loadOnce();
      const copy = bytes.slice().buffer;
      const model = await withCapturedStderr(() => tflite.loadTFLiteModel(copy, { numThreads: 1 }));
      const mr = model.modelRunner;
      const inputs = mr.getInputs().map(info);
      const outputs = mr.getOutputs().map(info);
      return {
        inputs,
        outputs,
        setInput(i, data) {
          const view = u8(mr.getInputs()[i]!.data());
          if (view.byteLength !== data.byteLength)
            throw new Error(`tfjs-tflite: input ${i} takes ${view.byteLength} bytes, got ${data.byteLength}`);
          view.set(data);
        },
        run() {
          if (!mr.infer()) throw new Error('tfjs-tflite: infer() returned false');
        },
        readOutputs() {
          return mr.getOutputs().map((t) => u8(t.data()).slice());
        },
        dispose() {
          mr.cleanUp?.();
        },
      };
    },
  };
}
