/**
 * The high-level model: load from a URL or bytes, run on typed arrays or an image, read named outputs
 * with their labels. Built on core's interpreter and `composeRuntime`; the TFLM-style API stays
 * underneath (`model.interpreter`) for those who want it.
 */
import {
  InputError,
  MicroInterpreter,
  MicrortError,
  TensorType,
  loadModel as loadModelDef,
  tensorTypeName,
  type ComposedRuntime,
  type MemoryPlanner,
  type ModelDef,
  type Tensor,
  type TensorData,
} from '@micrort/core';
import { readTfliteMetadata, type Normalization, type TfliteMetadata } from '@micrort/metadata';
import { GreedyPlanner } from '@micrort/planners';
import {
  imageLayout,
  isImageSource,
  readPixels,
  resizePixels,
  writePixels,
  type ImageLayout,
  type ImageSource,
  type PixelNormalization,
} from './image.js';
import { composeKernels, type KernelChoice } from './kernels.js';
import { ioNames, pickSignature } from './names.js';

/** Where a model comes from: a URL (fetched) or its bytes. */
export type ModelSource = string | URL | Uint8Array | ArrayBuffer;

/** Options of {@link loadModel}. */
export interface LoadOptions {
  /**
   * The kernel packages (default `'auto'`): ops-wasm (WebAssembly SIMD128) in front of ops-reference
   * where the engine runs it, ops-reference alone elsewhere; `'wasm'` (a `WasmUnsupportedError` without
   * SIMD128), `'reference'`, or a list of core compose entries (`[referencePackage, myPackage]`).
   */
  kernels?: KernelChoice;
  /** The memory planner (default: TFLM's greedy planner). */
  planner?: MemoryPlanner;
  /**
   * Let the planner reuse the inputs' memory once they are consumed, as TFLM does (default false):
   * the arena is not larger, but `invoke()` leaves the input tensors overwritten, so each `run()` must
   * be given every input. By default the inputs are kept in a copy of their own and written to the
   * tensors before every invoke: `run()` without inputs runs the last inputs again, with the same outputs.
   */
  reuseInputMemory?: boolean;
  /** The signature to run, by key (default: the model's first, when it has one); it names the inputs and outputs. */
  signature?: string;
  /**
   * How an image's pixels become input values (default: the model's TFLite metadata normalization,
   * else 0..1 — `{ mean: [0], std: [255] }` — for a float input and the whole integer range for a
   * quantized one).
   */
  imageNormalization?: PixelNormalization;
  /** The `fetch` used for URLs (default: globalThis.fetch). */
  fetch?: (url: string) => Promise<{ ok: boolean; status: number; statusText: string; arrayBuffer(): Promise<ArrayBuffer> }>;
}

/** A model could not be fetched. */
export class ModelFetchError extends MicrortError {
  constructor(
    readonly url: string,
    readonly status: number,
    detail: string,
  ) {
    super(`could not fetch the model from ${url}: ${detail}`);
  }
}

/** One input or output of the model. */
export interface TensorInfo {
  /** Its name (the signature's, else the tensor's). */
  name: string;
  /** The tensor's own name in the file. */
  tensorName: string;
  /** Its position among the inputs or outputs. */
  index: number;
  /** `float32`, `int8`, `uint8`, … */
  type: string;
  shape: number[];
  /** Per-tensor quantization (real = (q − zeroPoint) × scale), when quantized. */
  quantization: { scale: number; zeroPoint: number } | null;
  /** What the TFLite metadata says it is, when it says. */
  description: string;
}

/** An input, and how an image would be fed to it. */
export interface InputInfo extends TensorInfo {
  /** Its image layout, when it is image-shaped (4-D, batch 1, 1 or 3 channels). */
  image: ImageLayout | null;
  /** The normalization from the TFLite metadata, when it gives one. */
  normalization: Normalization | null;
}

/** An output, and the labels of its classes. */
export interface OutputInfo extends TensorInfo {
  /** Labels of its last axis (the TFLite metadata's TENSOR_AXIS_LABELS file), when the model has them. */
  labels: string[] | null;
}

/** One class of a top-k list. */
export interface Scored {
  index: number;
  score: number;
  /** Its label, when the model names its classes. */
  label?: string;
}

/** An output of a run: a copy of its values, which later runs do not change. */
export interface Output extends OutputInfo {
  /** The stored values (a copy): Float32Array for float32, Int8Array for int8, … */
  data: TensorData;
  /** Real values: dequantized ((q − zeroPoint) × scale) for a quantized output, the values as float32 otherwise. */
  values(): Float32Array;
  /** The `k` highest real values, highest first, with their labels. */
  top(k?: number): Scored[];
}

/** What `run()` returns: each output by name, in the model's output order. */
export type Outputs = Record<string, Output>;

/** A value for one input: a typed array, numbers, or an image (for an image-shaped input). */
export type InputValue = TensorData | ArrayLike<number> | ImageSource;

/** Inputs of a run: one value (a single-input model), a list by position, or an object by name. */
export type Inputs = InputValue | readonly InputValue[] | Readonly<Record<string, InputValue>>;

const QUANTIZED_RANGE: Partial<Record<number, [number, number]>> = {
  [TensorType.INT8]: [-128, 127],
  [TensorType.UINT8]: [0, 255],
  [TensorType.INT16]: [-32768, 32767],
};

function info(t: Tensor, name: string, index: number, description: string): TensorInfo {
  return {
    name,
    tensorName: t.name,
    index,
    type: tensorTypeName(t.type),
    shape: Array.from(t.dims),
    quantization: t.quantization && t.params.scale > 0 ? { scale: t.params.scale, zeroPoint: t.params.zeroPoint } : null,
    description,
  };
}

function topOf(values: Float32Array, k: number, labels: string[] | null): Scored[] {
  const order = Array.from(values, (_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
  return order
    .slice(0, k)
    .map((index) => ({ index, score: values[index]!, ...(labels?.[index] !== undefined ? { label: labels[index] } : {}) }));
}

/** A loaded model, ready to run. */
export class Model {
  /** The inputs, in order. */
  readonly inputs: readonly InputInfo[];
  /** The outputs, in order. */
  readonly outputs: readonly OutputInfo[];
  /** The staged input bytes (absent with `reuseInputMemory`): written to the tensors before every invoke. */
  private readonly staged: Uint8Array[] | null;

  /** @internal use {@link loadModel}. */
  constructor(
    /** The loaded model (core's `ModelDef`). */
    readonly def: ModelDef,
    /** The TFLM-style interpreter underneath (its tensors, `nodes()`, `arenaUsage()`). */
    readonly interpreter: MicroInterpreter,
    private readonly runtime: ComposedRuntime,
    /** The TFLite metadata (null when the model has none or it could not be read, see `metadataError`). */
    readonly metadata: TfliteMetadata | null,
    /** Why the metadata could not be read, when it could not (the model still runs). */
    readonly metadataError: string | null,
    /** Why ops-wasm is not used with `kernels: 'auto'`, when it is not. */
    readonly wasmUnavailable: string | null,
    private readonly options: LoadOptions,
    names: { inputs: string[]; outputs: string[]; labels: (string[] | null)[] },
  ) {
    const it = interpreter;
    this.inputs = names.inputs.map((name, i) => {
      const t = it.input(i);
      return {
        ...info(t, name, i, metadata?.input(i)?.description ?? ''),
        image: imageLayout(t.type, Array.from(t.dims)),
        normalization: metadata?.inputNormalization(i) ?? null,
      };
    });
    this.outputs = names.outputs.map((name, j) => ({
      ...info(it.output(j), name, j, metadata?.output(j)?.description ?? ''),
      labels: names.labels[j] ?? null,
    }));
    this.staged = options.reuseInputMemory ? null : this.inputs.map((_, i) => it.input(i).bytes.slice());
  }

  /** The packages composed, in order (`ops-reference`, …, `ops-wasm`). */
  get kernels(): string[] {
    return this.runtime.packages.map((p) => p.name);
  }

  /** How many nodes each package serves (a package in front that declines a node leaves it to the next). */
  servedBy(): { package: string; nodes: number }[] {
    const counts = new Map<string, number>();
    for (const n of this.interpreter.nodes()) {
      const count = n.delegate ? n.delegate.nodes.length : 1;
      counts.set(n.provider, (counts.get(n.provider) ?? 0) + count);
    }
    return this.runtime.packages
      .map((p) => ({ package: p.name, nodes: counts.get(p.provider) ?? 0 }))
      .filter((p, i) => p.nodes > 0 || this.runtime.packages[i]!.join !== 'register');
  }

  private inputIndex(name: string): number {
    const i = this.inputs.findIndex((x) => x.name === name || x.tensorName === name);
    if (i < 0) throw new InputError(`the model has no input "${name}" (its inputs: ${this.inputs.map((x) => x.name).join(', ')})`);
    return i;
  }

  /** The values by input position that `inputs` gives. */
  private byPosition(inputs: Inputs): Map<number, InputValue> {
    const out = new Map<number, InputValue>();
    const single = (v: InputValue) => {
      if (this.inputs.length !== 1)
        throw new InputError(
          `the model has ${this.inputs.length} inputs (${this.inputs.map((x) => x.name).join(', ')}): give a list or an object by name`,
        );
      out.set(0, v);
    };
    if (isImageSource(inputs) || ArrayBuffer.isView(inputs)) single(inputs as InputValue);
    else if (Array.isArray(inputs)) {
      if (inputs.length > 0 && typeof inputs[0] === 'number') single(inputs as ArrayLike<number>);
      else {
        if (inputs.length > this.inputs.length) throw new InputError(`${inputs.length} inputs given, the model has ${this.inputs.length}`);
        (inputs as InputValue[]).forEach((v, i) => out.set(i, v));
      }
    } else for (const [name, v] of Object.entries(inputs as Record<string, InputValue>)) out.set(this.inputIndex(name), v);
    return out;
  }

  /** Writes one input's value into its tensor (an image resized and normalized, real values quantized). */
  private write(i: number, value: InputValue): void {
    const t = this.interpreter.input(i);
    const desc = `input ${i} (${this.inputs[i]!.name}, ${tensorTypeName(t.type)}[${Array.from(t.dims).join(',')}])`;
    if (isImageSource(value)) {
      const lay = this.inputs[i]!.image;
      if (!lay) throw new InputError(`${desc} is not an image (4-D, batch 1, 1 or 3 channels): give its values`);
      const pixels = resizePixels(readPixels(value), lay.width, lay.height);
      const norm: PixelNormalization =
        this.options.imageNormalization ??
        this.inputs[i]!.normalization ??
        (t.type === TensorType.FLOAT32 ? { mean: [0], std: [255] } : 'tensor');
      writePixels(t, pixels, norm);
      return;
    }
    const v = value as ArrayLike<number>;
    if (v.length !== t.elementCount) throw new InputError(`${desc} has ${t.elementCount} elements, got ${v.length}`);
    const range = QUANTIZED_RANGE[t.type];
    const sameType = ArrayBuffer.isView(value) && value.constructor === t.data.constructor;
    if (
      range &&
      t.params.scale > 0 &&
      !sameType &&
      (value instanceof Float32Array || value instanceof Float64Array || Array.isArray(value))
    ) {
      // real values into a quantized input: q = round(r / scale) + zeroPoint, clamped
      const d = t.data as Int8Array | Uint8Array | Int16Array;
      const { scale, zeroPoint } = t.params;
      for (let k = 0; k < v.length; k++) {
        const r = v[k]! / scale;
        const q = (r < 0 ? -Math.round(-r) : Math.round(r)) + zeroPoint;
        d[k] = q < range[0] ? range[0] : q > range[1] ? range[1] : q;
      }
      return;
    }
    if (ArrayBuffer.isView(value) && !sameType)
      throw new InputError(
        `${desc} takes a ${t.data.constructor.name}${range ? ' (or real values as a Float32Array)' : ''}, got a ${value.constructor.name}`,
      );
    (t.data as unknown as { set(a: ArrayLike<number> | ArrayLike<bigint>): void }).set(v);
  }

  /**
   * Runs the model: writes `inputs` (all of them, or those named; the others keep their last values),
   * invokes, and returns every output by name. An image is resized to an image input and normalized
   * (the metadata's normalization, else 0..1 for float and the whole integer range for quantized
   * inputs); a Float32Array or number[] for a quantized input is quantized; a typed array of the
   * input's own type is copied as it is.
   */
  run(inputs?: Inputs): Outputs {
    const given = inputs === undefined ? new Map<number, InputValue>() : this.byPosition(inputs);
    const staged = this.staged;
    for (const [i, v] of given) {
      this.write(i, v);
      staged?.[i]!.set(this.interpreter.input(i).bytes);
    }
    if (staged) staged.forEach((b, i) => this.interpreter.input(i).bytes.set(b));
    this.interpreter.invoke();
    const out: Outputs = {};
    this.outputs.forEach((o, j) => {
      const t = this.interpreter.output(j);
      const data = t.data.slice() as TensorData;
      const values = (): Float32Array => {
        if (typeof data[0] === 'bigint') return Float32Array.from(data as BigInt64Array, (x) => Number(x));
        const q = o.quantization;
        const plain = data as Exclude<TensorData, BigInt64Array | BigUint64Array>;
        return q && t.type !== TensorType.FLOAT32 ? Float32Array.from(plain, (x) => (x - q.zeroPoint) * q.scale) : Float32Array.from(plain);
      };
      out[o.name] = { ...o, shape: Array.from(t.dims), data, values, top: (k = 5) => topOf(values(), k, o.labels) };
    });
    return out;
  }

  /** The top `k` classes of the first output shaped like class scores ([N] or [1, N]), after running on `inputs`. */
  classify(inputs?: Inputs, k = 5): Scored[] {
    const result = this.run(inputs);
    const o = this.outputs.find((x) => (x.shape.length === 1 || (x.shape.length === 2 && x.shape[0] === 1)) && (x.shape.at(-1) ?? 0) >= 2);
    if (!o)
      throw new InputError(
        `no output is shaped like class scores ([N] or [1, N]): ${this.outputs.map((x) => `${x.name} [${x.shape}]`).join(', ')}`,
      );
    return result[o.name]!.top(k);
  }

  /** Releases the interpreter and what the packages hold; the model cannot run afterwards. */
  dispose(): void {
    this.interpreter.dispose();
    this.runtime.dispose();
  }
}

async function bytesOf(source: ModelSource, options: LoadOptions): Promise<Uint8Array> {
  let buffer: ArrayBufferLike;
  let offset = 0;
  let length: number;
  if (typeof source === 'string' || source instanceof URL) {
    const url = String(source);
    const get = options.fetch ?? (globalThis.fetch as unknown as LoadOptions['fetch']);
    if (!get) throw new ModelFetchError(url, 0, 'no fetch here: read the file and pass its bytes');
    let res: Awaited<ReturnType<NonNullable<LoadOptions['fetch']>>>;
    try {
      res = await get(url);
    } catch (e) {
      throw new ModelFetchError(url, 0, (e as Error).message);
    }
    if (!res.ok) throw new ModelFetchError(url, res.status, `HTTP ${res.status} ${res.statusText}`.trim());
    buffer = await res.arrayBuffer();
    length = buffer.byteLength;
  } else if (source instanceof ArrayBuffer) {
    buffer = source;
    length = source.byteLength;
  } else {
    buffer = source.buffer;
    offset = source.byteOffset;
    length = source.byteLength;
  }
  // a copy of its own, aligned (a Node Buffer may sit at any offset of a shared pool), that the caller cannot change
  const copy = new Uint8Array(length);
  copy.set(new Uint8Array(buffer, offset, length));
  return copy;
}

/**
 * Loads a model from a URL or its bytes, composes its kernel packages, allocates its tensors (the
 * arena sized exactly) and reads its TFLite metadata (labels, normalization). Throws the loader's
 * `ModelError` for a bad file, `UnsupportedOpError` / `KernelError` when nodes cannot run (every one
 * named), `ModelFetchError` when the URL cannot be fetched.
 */
export async function loadModel(source: ModelSource, options: LoadOptions = {}): Promise<Model> {
  const bytes = await bytesOf(source, options);
  const def = loadModelDef(bytes);
  const signature = pickSignature(def, options.signature);
  const subgraph = signature?.subgraphIndex ?? 0;
  // The metadata never stops a model from loading: what cannot be read is said in metadataError.
  const errors: string[] = [];
  const attempt = <T>(read: () => T): T | null => {
    try {
      return read();
    } catch (e) {
      errors.push(`${(e as Error).name}: ${(e as Error).message}`);
      return null;
    }
  };
  const metadata = attempt(() => readTfliteMetadata(bytes, def));
  const outputs = def.subgraphs[subgraph]?.outputs.length ?? 0;
  const labels = Array.from({ length: outputs }, (_, j) => (metadata ? attempt(() => metadata.outputLabels(j, { subgraph })) : null));
  const metadataError = errors.length ? errors.join('; ') : null;
  const { runtime, fellBack } = await composeKernels(options.kernels ?? 'auto');
  let interpreter: MicroInterpreter;
  try {
    interpreter = runtime.createInterpreter(def, { planner: options.planner ?? new GreedyPlanner(), arena: 'auto', subgraph });
    interpreter.allocateTensors();
  } catch (e) {
    runtime.dispose();
    throw e;
  }
  const names = { inputs: ioNames(def, subgraph, 'input', signature), outputs: ioNames(def, subgraph, 'output', signature), labels };
  return new Model(def, interpreter, runtime, metadata, metadataError, fellBack ?? null, options, names);
}
