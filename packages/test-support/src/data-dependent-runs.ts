/**
 * Data-dependent shapes against TFLite 2.9, one interpreter per side: `compareDataDependentRuns` runs a
 * model over several input sets through one micrort interpreter (ops-reference, greedy planner, arena
 * 'auto') and one TFLite interpreter (which allocates data-dependent tensors at invoke), and compares
 * every output after every invoke — TFLite's dims after the run, integer and bool bytes exactly, floats
 * within |a − b| ≤ 1e-5 + 1e-4·|TFLite| (`compareOutput`). micrort's outputs must stay views of their
 * planned bytes (nothing reallocated).
 */
import { MicroInterpreter, loadModel, tensorTypeName } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from './conformance.js';
import { compareOutput } from './output-compare.js';
import { TfliteOracle } from './tflite-oracle.js';

/** The outcome of {@link compareDataDependentRuns}. */
export interface DataDependentRuns {
  /** Per input set, output `watch`'s dims joined with `x` (`4x3`; `` for a scalar). */
  dims: string[];
  /** Largest float |micrort − TFLite| over every output and run (0 for integers). */
  maxAbsDiff: number;
  /** The first mismatch (`output 1 (name) on inputs #2: detail`), or null. */
  mismatch: string | null;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Runs `model` on each of `inputSets` through micrort and TFLite 2.9 and compares (see the module comment). */
export function compareDataDependentRuns(model: Uint8Array, inputSets: readonly ArrayBufferView[][], watch = 0): DataDependentRuns {
  const oracle = new TfliteOracle(model);
  const interp = new MicroInterpreter(loadModel(model), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
  interp.allocateTensors();
  const planned = Array.from({ length: interp.outputsSize }, (_, j) => interp.output(j).data);
  const result: DataDependentRuns = { dims: [], maxAbsDiff: 0, mismatch: null };
  try {
    for (const inputs of inputSets) {
      const raw = inputs.map(bytesOf);
      const want = oracle.run(raw);
      raw.forEach((b, i) => interp.setInput(i, b));
      interp.invoke();
      for (let j = 0; j < interp.outputsSize; j++) {
        const t = interp.output(j);
        const where = `output ${j} (${t.name}) on inputs #${result.dims.length}`;
        if (t.data !== planned[j]) result.mismatch ??= `${where}: the output is no longer a view of its planned bytes`;
        const got = { dtype: tensorTypeName(t.type), bytes: t.bytes.slice(0, t.byteLength), dims: Array.from(t.dims) };
        const d = compareOutput(got, { dtype: oracle.outputs[j]!.dtype, bytes: want[j]!, dims: oracle.lastOutputShapes[j]! });
        result.maxAbsDiff = Math.max(result.maxAbsDiff, d.maxAbsDiff);
        if (!d.ok) result.mismatch ??= `${where}: ${d.detail}`;
      }
      result.dims.push(Array.from(interp.output(watch).dims).join('x'));
    }
  } finally {
    interp.dispose();
  }
  return result;
}
