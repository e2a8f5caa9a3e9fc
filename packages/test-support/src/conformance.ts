/**
 * Conformance helpers for tests: run the models in ../shared/conformance (TFLM reference outputs) through
 * micrort and compare. Tests that use them must skip when `hasConformance` is false, saying why.
 *
 * Usage in a vitest file:
 *   import { hasConformance, listModels, runCase, firstDifferingIntermediate } from '@micrort/test-support/conformance';
 *   describe.skipIf(!hasConformance)('conformance', () => {
 *     it('person_detect case 0', () => expect(runCase('person_detect', 0).pass).toBe(true));
 *   });
 *   firstDifferingIntermediate('person_detect') → null when every intermediate of case 0 matches, else
 *   { index, name, producerOp, dtype, mismatches, firstMismatchAt, got, expected } for the first tensor
 *   (in execution order of its producer) that differs.
 * Pass `{ resolver: () => myResolver }` to test another kernel package (default: ops-reference).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MicroInterpreter,
  OpResolver,
  loadModel,
  type ArenaBacking,
  type ArenaUsage,
  type Delegate,
  type MemoryPlanner,
  type ModelDef,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { createPlanner } from '@micrort/planners';
import { createSchedule, type ScheduleName, type ScheduleOptions } from '@micrort/schedules';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const REPO_ROOT = resolve(here, '..', '..', '..');
/** ../shared/conformance beside the repository, or null when absent. */
export const CONFORMANCE_DIR: string | null = (() => {
  const d = resolve(REPO_ROOT, '..', 'shared', 'conformance');
  return existsSync(join(d, 'tflm_figures.json')) ? d : null;
})();
export const hasConformance = CONFORMANCE_DIR !== null;
export const SKIP_REASON = '../shared/conformance is absent: conformance tests skipped (they need the TFLM reference data beside the repo)';

/** ../shared/conformance-ops beside the repository (single-operator models), or null when absent. */
export const CONFORMANCE_OPS_DIR: string | null = (() => {
  const d = resolve(REPO_ROOT, '..', 'shared', 'conformance-ops');
  return existsSync(join(d, 'README.md')) ? d : null;
})();
export const hasConformanceOps = CONFORMANCE_OPS_DIR !== null;
export const OPS_SKIP_REASON =
  '../shared/conformance-ops is absent: per-operator conformance tests skipped (they need the TFLM reference data beside the repo)';

/** Which data set: the 13 whole models (`models`, default) or the single-operator cases (`ops`). */
export type Suite = 'models' | 'ops';

export interface IoSpec {
  file: string;
  dtype: string;
  shape: number[];
  scale: number | null;
  zero_point: number | null;
}
export interface Manifest {
  model: string;
  arena_used_bytes: number;
  /** Smallest arena (multiple of 16) with which AllocateTensors and the first Invoke succeed in TFLM. */
  arena_min_bytes?: number;
  /** conformance-ops only: the operator under test (`CUSTOM:<name>` for custom ops) and the variant. */
  op?: string;
  variant?: string;
  recording_arena_used_bytes?: number;
  ops: string[];
  cases: { name?: string; seed?: number; inputs: IoSpec[]; outputs: IoSpec[] }[];
}
export interface TflmFigures {
  arena_used_bytes: number;
  head_bytes: number;
  tail_bytes: number;
  persistent_buffer_bytes: number;
  variable_buffer_bytes: number;
  invoke_median_us_ref_O2: number;
  invoke_median_us_ref_O3: number;
  invoke_median_us_cmsis_O2: number;
}

function dir(suite: Suite = 'models'): string {
  if (suite === 'ops') {
    if (!CONFORMANCE_OPS_DIR) throw new Error(OPS_SKIP_REASON);
    return CONFORMANCE_OPS_DIR;
  }
  if (!CONFORMANCE_DIR) throw new Error(SKIP_REASON);
  return CONFORMANCE_DIR;
}

/** Model folder names of a suite, sorted. */
export function listModels(suite: Suite = 'models'): string[] {
  const root = suite === 'ops' ? CONFORMANCE_OPS_DIR : CONFORMANCE_DIR;
  if (!root) return [];
  return readdirSync(root)
    .filter((n) => existsSync(join(root, n, 'manifest.json')))
    .sort();
}

export function readManifest(name: string, suite: Suite = 'models'): Manifest {
  return JSON.parse(readFileSync(join(dir(suite), name, 'manifest.json'), 'utf8')) as Manifest;
}

/** The folder of a model of a suite. */
export function modelDir(name: string, suite: Suite = 'models'): string {
  return join(dir(suite), name);
}

export function tflmFigures(name: string): TflmFigures | undefined {
  const all = JSON.parse(readFileSync(join(dir(), 'tflm_figures.json'), 'utf8')) as { models: Record<string, TflmFigures> };
  return all.models[name];
}

/** Reads a file into a fresh (aligned) Uint8Array. */
export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  const out = new Uint8Array(b.byteLength);
  out.set(b);
  return out;
}

const modelCache = new Map<string, ModelDef>();
/** The loaded conformance model (cached per process). */
export function loadConformanceModel(name: string, suite: Suite = 'models'): ModelDef {
  const key = `${suite}/${name}`;
  let m = modelCache.get(key);
  if (!m) {
    m = loadModel(readBytes(join(dir(suite), name, 'model.tflite')));
    modelCache.set(key, m);
  }
  return m;
}

export interface RunOptions {
  /** Data set (default `models`: ../shared/conformance; `ops`: ../shared/conformance-ops). */
  suite?: Suite;
  resolver?: () => OpResolver;
  planner?: MemoryPlanner;
  arena?: number | 'auto';
  /** Delegates given to the interpreter (e.g. the GPU delegate). */
  delegates?: Delegate[];
  /** Interpreter option `schedule` (default: the normal schedule). */
  schedule?: ScheduleName | ScheduleOptions;
  /** Where the arena's memory comes from (InterpreterOptions.arenaBacking; ops-wasm needs its own). */
  arenaBacking?: ArenaBacking;
}

export function referenceResolver(): OpResolver {
  return registerSignalOps(registerReferenceOps(new OpResolver()));
}

export interface OutputComparison {
  index: number;
  dtype: string;
  pass: boolean;
  mismatches: number;
  elements: number;
  maxAbsDiff: number;
  firstMismatchAt: number;
}

export interface CaseResult {
  model: string;
  caseIndex: number;
  pass: boolean;
  outputs: OutputComparison[];
  arena: ArenaUsage;
}

/** Builds an allocated interpreter for a conformance model. */
export function makeInterpreter(name: string, opts: RunOptions = {}): MicroInterpreter {
  const model = loadConformanceModel(name, opts.suite);
  const resolver = (opts.resolver ?? referenceResolver)();
  return new MicroInterpreter(model, resolver, {
    planner: opts.planner ?? createPlanner('greedy'),
    arena: opts.arena ?? 'auto',
    ...(opts.delegates?.length ? { delegates: opts.delegates } : {}),
    ...(opts.schedule !== undefined ? { schedule: createSchedule(opts.schedule) } : {}),
    ...(opts.arenaBacking ? { arenaBacking: opts.arenaBacking } : {}),
  }).allocateTensors();
}

/** Sets a case's inputs on an interpreter (checking sizes). */
export function setCaseInputs(interp: MicroInterpreter, name: string, caseIndex: number, suite: Suite = 'models'): void {
  const m = readManifest(name, suite);
  const c = m.cases[caseIndex]!;
  c.inputs.forEach((spec, i) => {
    const bytes = readBytes(join(dir(suite), name, `case${caseIndex}`, spec.file));
    interp.setInput(i, bytes);
  });
}

/** Compares raw output bytes by dtype: integers byte-equal, float32 within 1e-5 + 1e-4*|expected|. */
export function compareBytes(dtype: string, got: Uint8Array, expected: Uint8Array, index = 0): OutputComparison {
  const res: OutputComparison = { index, dtype, pass: true, mismatches: 0, elements: 0, maxAbsDiff: 0, firstMismatchAt: -1 };
  if (got.byteLength !== expected.byteLength) {
    return { ...res, pass: false, mismatches: -1, firstMismatchAt: 0 };
  }
  const view = (b: Uint8Array) => {
    const copy = new Uint8Array(b.byteLength);
    copy.set(b);
    switch (dtype) {
      case 'float32':
        return new Float32Array(copy.buffer);
      case 'int8':
        return new Int8Array(copy.buffer);
      case 'int16':
        return new Int16Array(copy.buffer);
      case 'int32':
        return new Int32Array(copy.buffer);
      default:
        return copy;
    }
  };
  const a = view(got);
  const b = view(expected);
  res.elements = a.length;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const d = Math.abs(x - y);
    const ok = dtype === 'float32' ? d <= 1e-5 + 1e-4 * Math.abs(y) || (Number.isNaN(x) && Number.isNaN(y)) : x === y;
    if (!ok) {
      res.mismatches++;
      if (res.firstMismatchAt < 0) res.firstMismatchAt = i;
    }
    if (d > res.maxAbsDiff) res.maxAbsDiff = d;
  }
  res.pass = res.mismatches === 0;
  return res;
}

/** Runs one case through a fresh interpreter (first invoke after allocation, as TFLM did). */
export function runCase(name: string, caseIndex: number, opts: RunOptions = {}): CaseResult {
  const interp = makeInterpreter(name, opts);
  setCaseInputs(interp, name, caseIndex, opts.suite);
  interp.invoke();
  const m = readManifest(name, opts.suite);
  const outputs = m.cases[caseIndex]!.outputs.map((spec, j) =>
    compareBytes(spec.dtype, interp.output(j).bytes, readBytes(join(dir(opts.suite), name, `case${caseIndex}`, spec.file)), j),
  );
  return { model: name, caseIndex, pass: outputs.every((o) => o.pass), outputs, arena: interp.arenaUsage() };
}

export interface IntermediateEntry {
  index: number;
  file: string;
  name: string;
  dtype: string;
  shape: number[];
  scale: number | null;
  zero_point: number | null;
  producer_op: string | null;
  variable: boolean;
}

/**
 * Runs case 0 with a no-reuse (linear) plan so every tensor survives, then compares each intermediate
 * with TFLM's, in execution order of the producing node. Returns the first that differs, or null.
 */
export function firstDifferingIntermediate(name: string, opts: RunOptions = {}) {
  const interp = makeInterpreter(name, { ...opts, planner: createPlanner('linear') });
  setCaseInputs(interp, name, 0);
  interp.invoke();
  const entries = JSON.parse(readFileSync(join(dir(), name, 'intermediates_case0', 'tensors.json'), 'utf8')) as IntermediateEntry[];
  const order = new Map<number, number>();
  const nodes = interp.nodes().filter((n) => n.subgraph === 0);
  nodes.forEach((n, step) => n.outputs.forEach((t) => order.has(t) || order.set(t, step)));
  // the output of a PAD a convolution absorbed (context.absorbPad) is never written: nothing to compare
  const absorbed = new Set(nodes.filter((n) => n.absorbedInto !== undefined).flatMap((n) => n.outputs));
  const sorted = [...entries].filter((e) => !absorbed.has(e.index)).sort((a, b) => (order.get(a.index) ?? -1) - (order.get(b.index) ?? -1));
  for (const e of sorted) {
    const got = interp.tensor(e.index).bytes;
    const expected = readBytes(join(dir(), name, 'intermediates_case0', e.file));
    const cmp = compareBytes(e.dtype, got, expected, e.index);
    if (!cmp.pass) {
      return {
        ...e,
        step: order.get(e.index) ?? null,
        mismatches: cmp.mismatches,
        elements: cmp.elements,
        firstMismatchAt: cmp.firstMismatchAt,
        maxAbsDiff: cmp.maxAbsDiff,
      };
    }
  }
  return null;
}
