/**
 * micrort on one model over a composed runtime (core's `composeRuntime()`: ops-reference and the custom
 * ops, a kernel package in front): the part of the micrort runtime that runs in Node and in the browser
 * page alike.
 */
import { loadModel, tensorTypeName, type ComposedRuntime, type MicroInterpreter } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { macShare } from '../macs.js';
import type { Runner, TensorInfo } from '../runtime.js';

/**
 * Loads `bytes` on `runtime` (greedy planner, arena sized by what the model uses). With `provider` (the
 * front package's provider name) the runner reports the share of multiply-accumulates it served.
 */
export function micrortLoad(bytes: Uint8Array, runtime: ComposedRuntime, provider?: string): Runner {
  const interp = runtime.createInterpreter(loadModel(bytes), { planner: createPlanner('greedy'), arena: 'auto' }).allocateTensors();
  return micrortRunner(interp, provider ? macShare(interp, provider).share : undefined);
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
