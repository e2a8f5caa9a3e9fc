/**
 * A LiteRT.js model through the embind objects under its documented API (which refuses int8 tensors):
 * `liteRtWasm.loadModel`, `compileModel`, `LiteRtTensorBuffer.createManaged`, which take every element
 * type. Like the public `CompiledModel.run`, each run returns new output buffers, which the runner frees
 * on the next run. Shared by the Node adapters (litert.ts) and the browser page.
 */
import { DTYPE_BYTES, type Runner, type TensorInfo } from '../runtime.js';

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
export interface LiteRtModule {
  loadLiteRt(path: string, options?: { threads?: boolean }): Promise<unknown>;
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

function toArray<T>(v: EmVector<T>): T[] {
  const a: T[] = [];
  for (let i = 0; i < v.size(); i++) a.push(v.get(i));
  v.delete();
  return a;
}

/** Loads and compiles `bytes` on the loaded `litert` with `threads` CPU threads. */
export async function litertLoad(litert: LiteRtModule, bytes: Uint8Array, threads: number): Promise<Runner> {
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
      cpuOptions: { numThreads: threads },
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
