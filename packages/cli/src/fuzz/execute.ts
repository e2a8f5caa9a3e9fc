import { MicroInterpreter, TensorType, loadModel, type ModelDef, type OpResolver } from '@micrort/core';
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
  /** A resolver factory instead of `ops` (in-process only: functions do not cross to workers). */
  resolver?: () => OpResolver;
}

/** Arena fill of the second interpreter; the first one's arena starts zeroed. */
const ARENA_FILL = 0x7b;

/**
 * Runs one model through the whole pipeline and checks what happened:
 *
 * 1. load (verifier) → 2. interpreter A, arena 'auto' under `maxArenaBytes` → allocateTensors →
 * 3. inputs from `inputSeed` → 4. invoke, outputs saved.
 * 5. determinism: interpreter B over an arena of exactly A's reported size, pre-filled with 0x7b (A's
 *    starts zeroed) → allocate, same inputs, invoke → outputs must equal A's byte for byte.
 * 6. guards: a fresh interpreter C over an arena of the same size, every tensor of every subgraph
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
    const arena = new ArrayBuffer(a.arenaUsage().arenaBytes);
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
        detail: `the first interpreter ran; one with an arena of exactly its reported size (${arena.byteLength} bytes) failed`,
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

function makeInterpreter(model: ModelDef, options: ExecuteOptions, arena: 'auto' | ArrayBuffer): MicroInterpreter {
  const runtime = options.resolver ? null : composeOps(options.ops ?? 'reference');
  const resolver = options.resolver ? options.resolver() : runtime!.resolver;
  resolver.register(makeWhile({ maxIterations: FUZZ_MAX_WHILE_ITERATIONS }), { override: true });
  return new MicroInterpreter(model, resolver, {
    // what the kernels need (ops-wasm's arena backing), unless the case brings its own arena buffer
    ...(runtime && arena === 'auto' ? runtime.interpreterOptions : {}),
    planner: createPlanner(options.planner ?? 'greedy'),
    arena,
    maxArenaBytes: options.maxArenaBytes,
    inPlace: options.inPlace ?? false,
  });
}

/**
 * Fills every input with values from `seed`: random bytes for integer types; for float32 mostly values
 * in [-2, 2), and in one case of eight also NaN, ±Infinity, -0, huge and denormal values.
 */
export function fillInputs(interp: MicroInterpreter, seed: number): void {
  const rng = new Rng(seed, 0x1a9);
  const special = rng.chance(0.125);
  for (let i = 0; i < interp.inputsSize; i++) {
    const t = interp.input(i);
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

/** Copies of every output's bytes. */
function snapshotOutputs(interp: MicroInterpreter): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let j = 0; j < interp.outputsSize; j++) {
    const t = interp.output(j);
    out.push(t.bytes.slice(0, t.byteLength));
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
