import {
  MicroInterpreter,
  TensorType,
  loadModel,
  stringCount,
  stringHeaderBytes,
  stringStart,
  validateStringBuffer,
  type ArenaBacking,
  type ComposedRuntime,
  type ModelDef,
  type OpResolver,
} from '@micrort/core';
import { makeWhile } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { composeOps } from '../runtime.js';
import { findGuardWrite, guardTensors, isGuardArtifact } from './guards.js';
import { classifyError, type CaseOutcome, type Stage } from './outcome.js';
import { Rng } from './rng.js';

/** How one case is run. */
export interface ExecuteOptions {
  /** Kernel set, as `--ops` (default reference). */
  ops?: string;
  /** Memory planner name (default greedy). */
  planner?: string;
  /** The interpreter's maxArenaBytes for this case. */
  maxArenaBytes: number;
  /** Seed of the case's input values. */
  inputSeed: number;
  /**
   * Run the determinism and guard checks after the first invoke (default true). They cost two more
   * allocations and invokes; the fuzzer turns them off for heavy seed models.
   */
  checks?: boolean;
  /** Opt-in in-place planning (outputs may share a dying input's memory where the kernel allows). */
  inPlace?: boolean;
  /**
   * Resize every graph input whose `shape_signature` has -1 dimensions before allocating (default true):
   * each -1 dimension gets a small size drawn from `inputSeed` (the same for every interpreter of
   * the case; see resizeDynamicInputs), so dynamic-shape models run at shapes other than the stored ones.
   */
  resizeInputs?: boolean;
  /** A resolver factory instead of `ops` (in-process only: functions do not cross to workers). */
  resolver?: () => OpResolver;
}

/** Arena fill of the second interpreter; the first one's arena starts zeroed. */
const ARENA_FILL = 0x7b;

/**
 * Runs one model through the whole pipeline and checks what happened:
 *
 * 1. load (verifier) → 2. interpreter A, arena 'auto' under `maxArenaBytes`, dynamic inputs resized
 *    (see resizeDynamicInputs; B and C get the same shapes) → allocateTensors →
 * 3. inputs from `inputSeed` → 4. invoke, outputs saved.
 * 5. determinism: interpreter B over an arena of exactly A's reported size (in the kernels' own memory
 *    where they need one: see arenaOf), pre-filled with 0x7b (A's starts zeroed) → allocate, same
 *    inputs, invoke → outputs must equal A's byte for byte.
 * 6. guards (not with kernels that work in their own memory, ops-wasm: they never read the guarded
 *    views): a fresh interpreter C over an arena of the same size, every tensor of every subgraph
 *    rebound with guard bytes after it (see guardTensors), same inputs, invoke → outputs must equal A's
 *    and no guard byte may change. A native bounds error that only the guarded views cause ends the
 *    case ok, its detail saying the guard check was incomplete (see isGuardArtifact).
 *
 * Any typed micrort error ends the case as `rejected`; anything else is a `failure` (see FailureKind).
 * Never throws.
 */
export function executeCase(bytes: Uint8Array, options: ExecuteOptions): CaseOutcome {
  const t0 = performance.now();
  const outcome = run(bytes, options);
  outcome.ms = performance.now() - t0;
  return outcome;
}

function run(bytes: Uint8Array, options: ExecuteOptions): CaseOutcome {
  let stage: Stage = 'load';
  try {
    const model = loadModel(bytes);
    stage = 'allocate';
    const a = makeInterpreter(model, options, 'auto');
    a.allocateTensors();
    stage = 'input';
    fillInputs(a, options.inputSeed);
    stage = 'invoke';
    a.invoke();
    const expected = snapshotOutputs(a);
    if (options.checks === false) return { result: 'ok', stage };

    stage = 'determinism';
    const arena = arenaOf(options, a.arenaUsage().arenaBytes);
    new Uint8Array(arena).fill(ARENA_FILL);
    const b = makeInterpreter(model, options, arena);
    try {
      b.allocateTensors();
      fillInputs(b, options.inputSeed);
      b.invoke();
    } catch (e) {
      const o = classifyError(e, stage);
      if (o.result === 'failure') return o;
      return {
        ...o,
        result: 'failure',
        failure: 'inconsistent',
        detail: `the first interpreter ran; one with an arena of its reported size (${a.arenaUsage().arenaBytes} bytes${arena.byteLength > a.arenaUsage().arenaBytes ? ` in ${arena.byteLength} bytes of the kernels' memory` : ''}) failed`,
      };
    }
    const diff = compareOutputs(expected, snapshotOutputs(b));
    if (diff)
      return {
        result: 'failure',
        failure: 'nondeterministic',
        stage,
        detail: `${diff} (arena pre-filled with 0x00 vs 0x${ARENA_FILL.toString(16)})`,
      };

    stage = 'sanitizer';
    // Kernels that address their own memory (ops-wasm: arena offsets in WebAssembly memory) never see the
    // guarded views, so the guard check cannot say anything about them.
    if (kernelMemory(options)) return { result: 'ok', stage: 'invoke', detail: GUARD_SKIPPED };
    // A fresh interpreter, not b.reset(): as in TFLM, reset() does not run a CALL_ONCE again, so a reset
    // run of a model with one is not a first run and may rightly differ from A's.
    const g = makeInterpreter(model, options, new ArrayBuffer(arena.byteLength));
    g.allocateTensors();
    const guarded = guardTensors(
      g,
      model.subgraphs.map((sg) => sg.tensors.length),
    );
    fillInputs(g, options.inputSeed);
    try {
      g.invoke();
    } catch (e) {
      // The same interpreter ran these inputs without guards: an engine bounds error that only the
      // guarded views cause is theirs (see isGuardArtifact), not the model's; the outputs were checked.
      if (isGuardArtifact(e)) return { result: 'ok', stage: 'invoke', detail: `guard check incomplete: ${(e as Error).message}` };
      throw e;
    }
    const wrote = findGuardWrite(guarded);
    if (wrote) return { result: 'failure', failure: 'out-of-bounds-write', stage, detail: wrote };
    const readDiff = compareOutputs(expected, snapshotOutputs(g));
    if (readDiff) {
      const note = options.inPlace ? ' (in-place planning was on: aliasing an output with an input may also explain it)' : '';
      return {
        result: 'failure',
        failure: 'out-of-bounds-read',
        stage,
        detail: `${readDiff} once tensors had guard bytes after their end${note}`,
      };
    }
    return { result: 'ok', stage: 'invoke' };
  } catch (e) {
    return classifyError(e, stage);
  }
}

/**
 * Body runs a WHILE may make per invoke in a fuzz case. A mutated loop bound (or body) can make a valid
 * model loop for hours — TFLM, and micrort's default WHILE, loop as long as the model says — so the
 * fuzzer runs WHILE with this limit: such a case ends in a KernelError instead of a hang.
 */
export const FUZZ_MAX_WHILE_ITERATIONS = 10_000;

/**
 * A fixed arena of `bytes` for the determinism and guard interpreters: a plain ArrayBuffer of exactly
 * that size, or where the kernels need their own memory (ops-wasm's `arenaBacking`: WebAssembly linear
 * memory) a buffer of it — at least `bytes`, rounded up to whole pages — so that those kernels run
 * there rather than refusing (or taking the buffer for a measuring pass).
 */
function arenaOf(options: ExecuteOptions, bytes: number): ArrayBuffer {
  const backing = kernelMemory(options);
  return backing ? (backing.allocate(bytes) as ArrayBuffer) : new ArrayBuffer(bytes);
}

/** The arena backing the `ops` kernels need (their own memory), or undefined. */
function kernelMemory(options: ExecuteOptions): ArenaBacking | undefined {
  return options.resolver ? undefined : runtimeFor(options.ops ?? 'reference').interpreterOptions.arenaBacking;
}

/** Detail of an ok case whose guard check was not run (see outcomeKey). */
export const GUARD_SKIPPED = 'guard check skipped: the kernels work in their own memory (ops-wasm), not in the guarded views';

/** The composed `--ops` runtimes of this thread, one per kernel set (see runtimeFor). */
const runtimes = new Map<string, ComposedRuntime>();

/**
 * The runtime of kernel set `ops`, composed once per thread and shared by every case (a resolver and
 * packages serve any number of interpreters). Composing one per interpreter leaked: ops-wasm's
 * package instantiates its kernels (several MB) on every composition, released only by the runtime's
 * dispose() — a 600 s `--ops wasm` campaign grew to ~10 GB and died out of memory.
 */
function runtimeFor(ops: string): ComposedRuntime {
  let runtime = runtimes.get(ops);
  if (!runtime) {
    runtime = composeOps(ops);
    runtime.resolver.register(makeWhile({ maxIterations: FUZZ_MAX_WHILE_ITERATIONS }), { override: true });
    runtimes.set(ops, runtime);
  }
  return runtime;
}

function makeInterpreter(model: ModelDef, options: ExecuteOptions, arena: 'auto' | ArrayBuffer): MicroInterpreter {
  const runtime = options.resolver ? null : runtimeFor(options.ops ?? 'reference');
  const resolver = runtime ? runtime.resolver : options.resolver!();
  if (!runtime) resolver.register(makeWhile({ maxIterations: FUZZ_MAX_WHILE_ITERATIONS }), { override: true });
  const interp = new MicroInterpreter(model, resolver, {
    // what the kernels need (ops-wasm's arena backing), unless the case brings its own arena buffer
    ...(runtime && arena === 'auto' ? runtime.interpreterOptions : {}),
    planner: createPlanner(options.planner ?? 'greedy'),
    arena,
    maxArenaBytes: options.maxArenaBytes,
    inPlace: options.inPlace ?? false,
  });
  if (options.resizeInputs ?? true) resizeDynamicInputs(interp, options.inputSeed);
  return interp;
}

/**
 * Resizes every input of the entry subgraph whose `shape_signature` marks dimensions -1 (TFLite's
 * dynamic dimensions; the file stores placeholder sizes): in three cases of four each such dimension
 * gets a new size drawn from `seed` — 1 to 4, or where the stored size is above 1, in half the draws,
 * the stored size plus 0 to 3 — otherwise the stored shape stays. A signature whose rank
 * differs from the stored shape (a mutated file) is taken as the shape, its -1s replaced. Deterministic
 * in `seed`; returns the new shapes as text (for tests), or null when nothing was resized.
 */
export function resizeDynamicInputs(interp: MicroInterpreter, seed: number): string | null {
  const sg = interp.model.subgraphs[interp.options.subgraph ?? 0]!;
  const rng = new Rng(seed, 0x5e2);
  if (!rng.chance(0.75)) return null;
  const done: string[] = [];
  for (let i = 0; i < sg.inputs.length; i++) {
    const def = sg.tensors[sg.inputs[i]!];
    const signature = def?.shapeSignature;
    if (!def || !signature || !signature.includes(-1)) continue;
    const dims = signature.length === def.shape.length ? Array.from(def.shape) : Array.from(signature);
    for (let d = 0; d < signature.length; d++) {
      if (signature[d] !== -1) continue;
      const stored = dims[d] ?? 1;
      dims[d] = stored > 1 && rng.chance(0.5) ? stored + rng.int(4) : 1 + rng.int(4);
    }
    interp.resizeInputTensor(i, dims);
    done.push(`input ${i} [${dims.join(',')}]`);
  }
  return done.length ? done.join(', ') : null;
}

/**
 * Fills every input with values from `seed`: random bytes for integer types; for float32 mostly values
 * in [-2, 2), and in one case of eight also NaN, ±Infinity, -0, huge and denormal values; for STRING
 * inputs short random byte strings.
 */
export function fillInputs(interp: MicroInterpreter, seed: number): void {
  const rng = new Rng(seed, 0x1a9);
  const special = rng.chance(0.125);
  for (let i = 0; i < interp.inputsSize; i++) {
    const t = interp.input(i);
    if (t.type === TensorType.STRING) {
      // Random byte strings of 0 to 6 bytes (not always valid UTF-8), one per element.
      const strings = Array.from({ length: t.elementCount }, () => Uint8Array.from({ length: rng.int(7) }, () => rng.uint32() & 0xff));
      interp.setInputStrings(i, strings);
      continue;
    }
    const n = t.byteLength;
    const bytes = new Uint8Array(n);
    if (t.type === TensorType.FLOAT32) {
      const f = new Float32Array(bytes.buffer);
      for (let k = 0; k < f.length; k++) {
        f[k] =
          special && rng.chance(0.1)
            ? rng.pick([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 3.4e38, -3.4e38, 1e-45])
            : rng.float() * 4 - 2;
      }
    } else {
      for (let k = 0; k < n; k++) bytes[k] = rng.uint32() & 0xff;
    }
    interp.setInput(i, bytes.buffer);
  }
}

/**
 * Copies of every output's bytes. A STRING output's planned bytes are a capacity: only its serialized
 * strings (header and bytes) are its value, so those are what is copied when the buffer is well formed.
 */
function snapshotOutputs(interp: MicroInterpreter): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let j = 0; j < interp.outputsSize; j++) {
    const t = interp.output(j);
    const bytes = t.bytes.subarray(0, t.byteLength);
    if (t.type === TensorType.STRING && validateStringBuffer(bytes) === null) {
      const n = stringCount(bytes);
      out.push(bytes.slice(0, Math.max(stringHeaderBytes(n), stringStart(bytes, n))));
    } else out.push(bytes.slice());
  }
  return out;
}

/** null when equal, else where the first difference is. */
function compareOutputs(expected: readonly Uint8Array[], got: readonly Uint8Array[]): string | null {
  for (let j = 0; j < expected.length; j++) {
    const e = expected[j]!;
    const g = got[j]!;
    if (e.length !== g.length) return `output ${j} has ${g.length} bytes instead of ${e.length}`;
    for (let k = 0; k < e.length; k++) if (e[k] !== g[k]) return `output ${j} differs first at byte ${k} (${e[k]} vs ${g[k]})`;
  }
  return null;
}
