/**
 * micrort on one model with a kernel package in front of ops-reference (and the signal and MediaPipe
 * ops): the part of the micrort runtime that runs in Node and in the browser page alike.
 */
import { MicroInterpreter, OpResolver, loadModel, tensorTypeName, type InterpreterOptions, type Registration } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { registerMediapipeOps } from '@micrort/ops-mediapipe';
import { createPlanner } from '@micrort/planners';
import { macShare } from '../macs.js';
import type { Runner, TensorInfo } from '../runtime.js';

/** What a kernel package contributes to a runtime. */
export interface KernelSetup {
  /** Registrations put in front of ops-reference with `{ fallback: true }`. */
  registrations: readonly Registration[];
  /** Extra interpreter options (e.g. the arena backing of a WebAssembly package). */
  interpreterOptions?: Record<string, unknown>;
  /** The package's provider name: the runner reports the share of multiply-accumulates it served. */
  provider?: string;
}

/** Loads `bytes` on micrort with `s` (greedy planner, arena sized exactly). */
export function micrortLoad(bytes: Uint8Array, s: KernelSetup): Runner {
  const resolver = new OpResolver();
  registerReferenceOps(resolver);
  registerSignalOps(resolver);
  registerMediapipeOps(resolver); // MediaPipe's custom ops (selfie_segmentation's Convolution2DTransposeBias)
  if (s.registrations.length) resolver.registerAll(s.registrations as Registration[], { fallback: true });
  const model = loadModel(bytes);
  const options = { planner: createPlanner('greedy'), arena: 'auto', ...(s.interpreterOptions ?? {}) } as InterpreterOptions;
  const interp = new MicroInterpreter(model, resolver, options).allocateTensors();
  return micrortRunner(interp, s.provider ? macShare(interp, s.provider).share : undefined);
}

function info(t: { name: string; type: number; dims: ArrayLike<number>; byteLength: number }): TensorInfo {
  return { name: t.name, dtype: tensorTypeName(t.type), shape: Array.from(t.dims), bytes: t.byteLength };
}

/**
 * A runner over an allocated interpreter. The inputs are written back before every invoke: the memory
 * planner may reuse an input's bytes once it is consumed, so a second invoke would otherwise run on
 * what the first one left there (the copy is a memcpy of the input, small next to the invoke).
 */
function micrortRunner(interp: MicroInterpreter, share: number | null | undefined): Runner {
  const inputs = Array.from({ length: interp.inputsSize }, (_, i) => info(interp.input(i)));
  const outputs = Array.from({ length: interp.outputsSize }, (_, j) => info(interp.output(j)));
  const saved = inputs.map((t) => new Uint8Array(t.bytes));
  return {
    inputs,
    outputs,
    ...(share !== undefined ? { macShare: share } : {}),
    setInput(i, bytes) {
      saved[i]!.set(bytes);
    },
    run() {
      for (let i = 0; i < saved.length; i++) interp.input(i).bytes.set(saved[i]!);
      interp.invoke();
    },
    readOutputs() {
      return outputs.map((_, j) => interp.output(j).bytes.slice());
    },
    dispose() {},
  };
}
