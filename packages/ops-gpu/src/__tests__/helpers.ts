/**
 * Test helpers of @micrort/ops-gpu: run a model with ops-reference alone and with the GPU delegate in
 * front of it, compare float outputs within the stated tolerance, and list the gpu.js modes to test.
 */
import { expect } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel, type Delegate, type DelegateOptions, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { availableModes, type GpuMode } from '../mode.js';

/** The tolerance of GPU results against ops-reference (and TFLM): |got - want| <= ABS + REL * |want|. */
export const TOLERANCE = { abs: 1e-5, rel: 1e-4 } as const;

/** Every gpu.js mode this machine offers (GL ones only with a display, e.g. under xvfb-run). */
export const MODES: GpuMode[] = availableModes();

let announced = false;
/** Logs once which modes the tests run in (and why GL modes are missing). */
export function announceModes(suite: string): void {
  if (announced) return;
  announced = true;
  const gl = MODES.filter((m) => m === 'webgl2' || m === 'webgl' || m === 'headlessgl');
  console.log(
    `[${suite}] gpu.js modes tested: ${MODES.join(', ')}` +
      (gl.length ? '' : ' (no GL context here: the GL modes are not tested; run under `xvfb-run -a` for headlessgl)'),
  );
}

export function toModel(model: ModelDef | Uint8Array): ModelDef {
  return model instanceof Uint8Array ? loadModel(model) : model;
}

/** An allocated interpreter with the reference kernels and the given delegates. */
export function interpreter(
  model: ModelDef | Uint8Array,
  delegates: Delegate[] = [],
  delegateOptions: DelegateOptions = {},
): MicroInterpreter {
  return new MicroInterpreter(toModel(model), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
    delegates,
    delegateOptions,
  }).allocateTensors();
}

/** Sets the inputs, invokes, returns copies of the float outputs. */
export function runWith(it: MicroInterpreter, inputs: readonly Float32Array[]): Float32Array[] {
  inputs.forEach((x, i) => it.setInput(i, x));
  it.invoke();
  return Array.from({ length: it.outputsSize }, (_, j) => (it.output(j).data as Float32Array).slice());
}

/** Outputs of the model on ops-reference alone. */
export function referenceOutputs(model: ModelDef | Uint8Array, inputs: readonly Float32Array[]): Float32Array[] {
  return runWith(interpreter(model), inputs);
}

/** Largest |got - want| and whether every element is within TOLERANCE. */
export function closeness(got: Float32Array, want: Float32Array): { ok: boolean; maxAbsDiff: number; firstBad: number } {
  let maxAbsDiff = 0;
  let firstBad = -1;
  if (got.length !== want.length) return { ok: false, maxAbsDiff: Infinity, firstBad: 0 };
  for (let i = 0; i < got.length; i++) {
    const d = Math.abs(got[i]! - want[i]!);
    if (d > maxAbsDiff) maxAbsDiff = d;
    if (!(d <= TOLERANCE.abs + TOLERANCE.rel * Math.abs(want[i]!)) && firstBad < 0) firstBad = i;
  }
  return { ok: firstBad < 0, maxAbsDiff, firstBad };
}

/** Expects every output within TOLERANCE of the reference, naming the first element that is not. */
export function expectClose(got: readonly Float32Array[], want: readonly Float32Array[], what: string): void {
  expect(got.length, `${what}: output count`).toBe(want.length);
  got.forEach((g, j) => {
    const c = closeness(g, want[j]!);
    const at = c.firstBad;
    expect(c.ok, `${what}: output ${j} element ${at}: got ${g[at]}, reference ${want[j]![at]} (max |diff| ${c.maxAbsDiff})`).toBe(true);
  });
}

/** Deterministic floats in [lo, hi). */
export function floats(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = lo + ((s >>> 8) / 16777216) * (hi - lo);
  }
  return out;
}
