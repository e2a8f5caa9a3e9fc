/**
 * What the harness needs from a runtime: load a model, set input bytes, run, read output bytes. Each
 * runtime (micrort with a kernel package, LiteRT.js, tfjs-tflite) is an adapter to this interface.
 */

/** A tensor as a runtime reports it. */
export interface TensorInfo {
  name: string;
  /** `float32`, `int8`, `uint8`, `int16`, `int32`, `int64`, `bool`, `float16`. */
  dtype: string;
  shape: number[];
  /** Bytes of the tensor. */
  bytes: number;
}

/** A model loaded and ready to run in one runtime. */
export interface Runner {
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  /** Writes input `i` (raw little-endian bytes, exactly `inputs[i].bytes` long). */
  setInput(i: number, bytes: Uint8Array): void;
  /**
   * One inference on the inputs last set. May return a promise (LiteRT.js); the timing loop awaits it
   * only then, so synchronous runtimes are timed without a microtask per invoke.
   */
  run(): void | Promise<void>;
  /** Copies of the outputs of the last run. */
  readOutputs(): Uint8Array[] | Promise<Uint8Array[]>;
  /** Frees what the runtime holds (WASM heap, arenas). */
  dispose(): void;
  /** micrort with a kernel package: the share (0-1) of the model's multiply-accumulates that package served. */
  readonly macShare?: number | null;
}

/** A runtime the harness can time. */
export interface RuntimeAdapter {
  /** Column label, e.g. `micrort simd`, `LiteRT.js`. */
  readonly id: string;
  /** What it is (package and version, build, threads). */
  readonly description: string;
  /** Loads a model; throws when the runtime cannot load it or refuses it (reported, never fatal). */
  load(model: Uint8Array, name: string): Promise<Runner>;
  /**
   * Runtimes that must run in a process of their own (a LiteRT.js build other than the default: one
   * LiteRT.js per process) name their group; absent: the default group.
   */
  readonly group?: string;
  /** Node flags the group's process needs (e.g. --experimental-wasm-relaxed-simd). */
  readonly nodeFlags?: readonly string[];
}

/** A runtime that could not be set up at all (package missing, no SIMD): reported for every model. */
export class RuntimeUnavailableError extends Error {
  constructor(
    readonly runtime: string,
    readonly reason: string,
  ) {
    super(`${runtime} unavailable: ${reason}`);
    this.name = 'RuntimeUnavailableError';
  }
}

/** Bytes per element of each dtype name. */
export const DTYPE_BYTES: Readonly<Record<string, number>> = {
  float32: 4,
  float16: 2,
  int8: 1,
  uint8: 1,
  bool: 1,
  int16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  float64: 8,
  uint16: 2,
  uint64: 8,
};

/** `ErrorName: message`, first line only (how a refusal is shown). */
export function errorLine(e: unknown): string {
  const err = e as { name?: string; message?: string };
  const msg = String(err?.message ?? e)
    .split('\n')[0]!
    .trim();
  return `${err?.name && err.name !== 'Error' ? `${err.name}: ` : ''}${msg}`;
}

/**
 * Runs `fn` with stderr captured (not printed): the peers' WASM runtimes log to stderr (INFO lines on
 * every load, and the only useful reason when they refuse a model). A failure is rethrown with the
 * first distinct `ERROR:` lines appended to its message.
 */
export async function withCapturedStderr<T>(fn: () => Promise<T>): Promise<T> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n'));
    return true;
  }) as typeof process.stderr.write;
  try {
    return await fn();
  } catch (e) {
    const errors = [
      ...new Set(lines.filter((l) => l.startsWith('ERROR: ') && !/^ERROR: \[[^\]]*\]$/.test(l)).map((l) => l.slice(7).trim())),
    ];
    const err = e instanceof Error ? e : new Error(String(e));
    const first = err.message.split('\n')[0]!;
    if (errors.length)
      err.message = `${errors.slice(0, 2).join('; ')}${errors.length > 2 ? ` (+${errors.length - 2} more)` : ''}${first.startsWith('ERROR: [') ? '' : ` [${first}]`}`;
    throw err;
  } finally {
    process.stderr.write = write;
  }
}
