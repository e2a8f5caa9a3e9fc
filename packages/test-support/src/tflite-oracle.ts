/**
 * TFLite oracle for tests: runs a `.tflite` model's bytes through TensorFlow Lite's own C library (the
 * `tfjs-tflite-node` N-API addon, a prebuilt `libtensorflowlite_c.so` 2.9 with its default XNNPACK
 * delegate) on one thread and returns the output bytes.
 *
 * What it is an oracle for: float32 (within tolerance: XNNPACK sums in another order) and uint8, except
 * uint8 CONV_2D and FULLY_CONNECTED: this x86 build runs those (and int8 CONV_2D and FULLY_CONNECTED)
 * through ruy, whose second rounding breaks ties upward where TFLite's reference kernels and TFLM break
 * them away from zero (one step apart on negative ties; its DEPTHWISE_CONV_2D rounds like TFLM; see
 * ops-reference's test/uint8-rounding.tflite-oracle.test.ts). It is NOT an int8 oracle for that reason.
 * It cannot take or return float16 tensors
 * (the addon refuses them as graph inputs/outputs; float16 constants inside the model are fine).
 *
 * Usage in a vitest file:
 *   import { oracleAvailable, ORACLE_SKIP_REASON, runTflite } from '@micrort/test-support/tflite-oracle';
 *   describe.skipIf(!oracleAvailable)('vs TFLite', () => {
 *     it('matches', () => { const { outputs } = runTflite(modelBytes, [inputBytes]); ... });
 *   });
 * `ORACLE_SKIP_REASON` says why the addon is unavailable (null when it loaded).
 * `compareWithTflite(modelBytes, inputs)` runs micrort (ops-reference by default) and TFLite on the same
 * inputs and compares every output (integers byte for byte, float32 within 1e-5 + 1e-4·|TFLite|).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MicroInterpreter, loadModel, tensorTypeName, type OpResolver } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { compareBytes, referenceResolver, type OutputComparison } from './conformance.js';

/** One graph input or output tensor as TFLite sees it. */
export interface OracleTensorInfo {
  /** Position among the graph's inputs (or outputs). */
  index: number;
  name: string;
  /** TFLite's type name: `float32`, `int32`, `uint8`, `int8`, `int16`, `bool`, `int64`, `float64`, … */
  dtype: string;
  shape: number[];
  /** Bytes TFLite expects (inputs) or returns (outputs). */
  byteLength: number;
}

/** The outputs of one run, in graph output order, with the tensors' descriptions. */
export interface OracleResult {
  inputs: OracleTensorInfo[];
  /** The outputs as described before the run (a dynamic output TFLite sizes at invoke: see `outputShapes`). */
  outputs: OracleTensorInfo[];
  /** Each output's shape after the run (TFLite resizes dynamic tensors — WHERE, UNIQUE… — at invoke). */
  outputShapes: number[][];
  /** Raw little-endian bytes of each output (fresh copies). */
  outputBytes: Uint8Array[];
}

/* The addon's classes (node_tflite_binding.cc): an interpreter over a copy of the model bytes, whose
   input/output TensorInfo objects own a local buffer copied in/out around each infer(). */
interface AddonTensorInfo {
  readonly name: string;
  readonly dataType: string;
  readonly shape: string;
  readonly id: number;
  data(): ArrayBufferView;
}
interface AddonInterpreter {
  getInputs(): AddonTensorInfo[];
  getOutputs(): AddonTensorInfo[];
  infer(): boolean;
}
interface Addon {
  Interpreter: new (model: ArrayBuffer, options: { threads?: number }) => AddonInterpreter;
}

function loadAddon(): { addon: Addon | null; reason: string | null; file?: string } {
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    pkgDir = dirname(require.resolve('tfjs-tflite-node/package.json'));
  } catch {
    return { addon: null, reason: 'tfjs-tflite-node is not installed: TFLite oracle tests skipped (run pnpm install)' };
  }
  // Loading the .node file directly avoids the package's index.js, which pulls in tfjs-core and node-fetch.
  const file = join(pkgDir, 'build', 'Release', 'node_tflite_binding.node');
  if (!existsSync(file)) {
    return {
      addon: null,
      reason: `tfjs-tflite-node's addon was not built (${file} is missing): TFLite oracle tests skipped (pnpm install with npm_config_nodedir=/usr and node-gyp's toolchain builds it)`,
    };
  }
  try {
    return { addon: require(file) as Addon, reason: null, file };
  } catch (e) {
    return {
      addon: null,
      reason: `tfjs-tflite-node's addon does not load (${(e as Error).message.split('\n')[0]}): TFLite oracle tests skipped`,
    };
  }
}

const loaded = loadAddon();
/** Whether the TFLite addon loaded in this process. */
export const oracleAvailable = loaded.addon !== null;
/** Why the oracle is unavailable, or null when it is available. */
export const ORACLE_SKIP_REASON: string | null = loaded.reason;
/** The addon's `.node` file when it loaded (for child processes that load it themselves), else null. */
export const ORACLE_ADDON_FILE: string | null = loaded.file ?? null;

const ELEMENT_BYTES: Record<string, number> = {
  float32: 4,
  int32: 4,
  uint32: 4,
  uint8: 1,
  int8: 1,
  bool: 1,
  int16: 2,
  int64: 8,
  uint64: 8,
  float64: 8,
};

/** The element size of a type the addon names (some by their C names: `kTfLiteInt64`), if fixed and known. */
function elementBytes(dataType: string): number | undefined {
  return ELEMENT_BYTES[dataType.startsWith('kTfLite') ? dataType.slice(7).toLowerCase() : dataType];
}

function describe(t: AddonTensorInfo, index: number): OracleTensorInfo {
  const shape = t.shape === '' ? [] : t.shape.split(',').map(Number);
  const elements = shape.reduce((a, b) => a * b, 1);
  return { index, name: t.name, dtype: t.dataType, shape, byteLength: elements * (elementBytes(t.dataType) ?? 1) };
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * A TFLite interpreter over one model (one thread), tensors allocated. Reuse it to run several input
 * sets on the same model. Throws when TFLite refuses the model (its error text is in the message).
 */
export class TfliteOracle {
  readonly inputs: OracleTensorInfo[];
  readonly outputs: OracleTensorInfo[];
  /** Each output's shape after the last `run` (dynamic outputs get theirs at invoke). */
  lastOutputShapes: number[][] = [];
  private readonly interp: AddonInterpreter;

  constructor(modelBytes: Uint8Array) {
    if (!loaded.addon) throw new Error(ORACLE_SKIP_REASON ?? 'TFLite oracle unavailable');
    const copy = modelBytes.slice().buffer;
    this.interp = new loaded.addon.Interpreter(copy, { threads: 1 });
    this.inputs = this.interp.getInputs().map(describe);
    this.outputs = this.interp.getOutputs().map(describe);
  }

  /** Runs the model on raw input bytes (graph input order; sizes checked) and returns copies of the output bytes. */
  run(inputBytes: readonly Uint8Array[]): Uint8Array[] {
    const ins = this.interp.getInputs();
    if (inputBytes.length !== ins.length) throw new Error(`TFLite oracle: model has ${ins.length} inputs, got ${inputBytes.length}`);
    ins.forEach((t, i) => {
      const dst = bytesOf(t.data());
      const src = inputBytes[i]!;
      if (src.byteLength !== dst.byteLength) {
        throw new Error(
          `TFLite oracle: input ${i} (${t.name}, ${t.dataType} [${t.shape}]) takes ${dst.byteLength} bytes, got ${src.byteLength}`,
        );
      }
      dst.set(src);
    });
    if (!this.interp.infer()) throw new Error('TFLite oracle: infer() returned false');
    // The addon sizes each output's buffer once, from its shape after AllocateTensors, and copies the
    // tensor's bytes at its shape after the run into it: a dynamic output (WHERE, UNIQUE…) holds its
    // actual elements first. A model whose dynamic output outgrows the file's shape would overflow it.
    const outs = this.interp.getOutputs();
    const live = outs.map((t, j) => describe(t, j));
    this.lastOutputShapes = live.map((d) => d.shape);
    return outs.map((t, j) => {
      const bytes = bytesOf(t.data());
      const resized = live[j]!.shape.join(',') !== this.outputs[j]!.shape.join(',') && elementBytes(t.dataType) !== undefined;
      if (!resized) return bytes.slice();
      const actual = live[j]!.byteLength;
      if (actual > bytes.byteLength)
        throw new Error(
          `TFLite oracle: output ${j} (${t.name}) has ${actual} bytes after the run, more than the ${bytes.byteLength} the addon holds: store a larger shape for it`,
        );
      return bytes.slice(0, actual);
    });
  }
}

/** One-shot: builds a TFLite interpreter for `modelBytes`, runs it once on `inputBytes`, returns the outputs. */
export function runTflite(modelBytes: Uint8Array, inputBytes: readonly Uint8Array[]): OracleResult {
  const oracle = new TfliteOracle(modelBytes);
  const outputBytes = oracle.run(inputBytes);
  return { inputs: oracle.inputs, outputs: oracle.outputs, outputShapes: oracle.lastOutputShapes, outputBytes };
}

/** micrort's outputs next to TFLite's, per output. */
export interface OracleComparison {
  pass: boolean;
  outputs: OutputComparison[];
  /** micrort's output bytes. */
  got: Uint8Array[];
  /** TFLite's output bytes. */
  expected: Uint8Array[];
}

/** Options of {@link compareWithTflite}. */
export interface CompareOptions {
  /** Kernels for micrort (default: ops-reference + ops-signal). */
  resolver?: () => OpResolver;
  /**
   * Float32 outputs of deep float models: also accept |a − b| ≤ `relativeToMax` · max|TFLite output|.
   * TFLite runs float models through XNNPACK, which sums in another order than the reference kernels;
   * after tens of layers an output that is a near-cancelling sum of large terms differs by more than
   * 1e-4 of itself while staying ~1e-7 of the tensor's range. Default 0 (the per-element rule only).
   * An array gives one value per graph output (in output order; a missing entry is 0), for models whose
   * outputs differ in conditioning (see the pose_landmark test in ops-reference's float16-models.test.ts).
   */
  relativeToMax?: number | readonly number[];
}

/**
 * Runs `modelBytes` through micrort (a fresh interpreter, greedy planner, ops-reference + ops-signal
 * unless `resolver` is given) and through TFLite on the same raw inputs, and compares each output with
 * `compareBytes` (integer and bool outputs byte for byte, float32 within 1e-5 + 1e-4·|TFLite|, see
 * `relativeToMax`).
 */
export function compareWithTflite(
  modelBytes: Uint8Array,
  inputBytes: readonly Uint8Array[],
  options: CompareOptions | (() => OpResolver) = {},
): OracleComparison {
  const opts = typeof options === 'function' ? { resolver: options } : options;
  const expected = runTflite(modelBytes, inputBytes).outputBytes;
  const interp = new MicroInterpreter(loadModel(modelBytes), (opts.resolver ?? referenceResolver)(), {
    planner: createPlanner('greedy'),
    arena: 'auto',
  }).allocateTensors();
  inputBytes.forEach((b, i) => interp.setInput(i, b));
  interp.invoke();
  // A data-dependent output holds its actual dims' elements at the start of its planned bytes.
  const got = expected.map((_, j) => interp.output(j).bytes.slice(0, interp.output(j).byteLength));
  const outputs = expected.map((e, j) => {
    const dtype = tensorTypeName(interp.output(j).type);
    const res = compareBytes(dtype, got[j]!, e, j);
    const relativeToMax = typeof opts.relativeToMax === 'number' ? opts.relativeToMax : (opts.relativeToMax?.[j] ?? 0);
    if (res.pass || dtype !== 'float32' || !relativeToMax || res.mismatches < 0) return res;
    const a = new Float32Array(got[j]!.slice().buffer);
    const b = new Float32Array(e.slice().buffer);
    let max = 0;
    for (let i = 0; i < b.length; i++) if (Math.abs(b[i]!) > max) max = Math.abs(b[i]!);
    const atol = 1e-5 + relativeToMax * max;
    let mismatches = 0;
    let first = -1;
    for (let i = 0; i < a.length; i++) {
      const d = Math.abs(a[i]! - b[i]!);
      if (d <= atol + 1e-4 * Math.abs(b[i]!) || (Number.isNaN(a[i]!) && Number.isNaN(b[i]!))) continue;
      mismatches++;
      if (first < 0) first = i;
    }
    return { ...res, pass: mismatches === 0, mismatches, firstMismatchAt: first };
  });
  interp.dispose();
  return { pass: outputs.every((o) => o.pass), outputs, got, expected };
}

/**
 * Deterministic inputs for a model (mulberry32, seed + input index, like ../shared/peers): float32
 * uniform in [lo, hi) (default [-1, 1)), integer and bool types uniform over their bytes' full range.
 */
export function randomInputs(inputs: readonly OracleTensorInfo[], seed = 0x5eed1234, range: [number, number] = [-1, 1]): Uint8Array[] {
  return inputs.map((t, i) => {
    let s = (seed + i) >>> 0;
    const next = () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 15), z | 1);
      z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
      return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
    };
    const out = new Uint8Array(t.byteLength);
    if (t.dtype === 'float32') {
      const f = new Float32Array(out.buffer);
      for (let k = 0; k < f.length; k++) f[k] = range[0] + (range[1] - range[0]) * next();
    } else if (t.dtype === 'bool') {
      for (let k = 0; k < out.length; k++) out[k] = next() < 0.5 ? 0 : 1;
    } else {
      for (let k = 0; k < out.length; k++) out[k] = Math.floor(next() * 256);
    }
    return out;
  });
}
