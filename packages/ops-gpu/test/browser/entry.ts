/**
 * Page script of the browser test: runs the float CNN with ops-reference alone and through the GPU
 * delegate in the best gpu.js mode the browser offers (WebGL2 in Chromium), and leaves the results on
 * `window.__micrortResult` for the test to read.
 */
import { MicroInterpreter, OpResolver, loadModel, type Delegate } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { FLOAT_CNN_INPUT_SHAPE, availableModes, buildFloatCnn, createGpuDelegate, lcgFloats } from '../../src/index.js';

/** What the page reports. */
export interface BrowserResult {
  modes: string[];
  mode: string;
  backends: string[];
  partitions: number[][];
  gpu: number[][];
  reference: number[][];
  error?: string;
}

const INPUT_SEEDS = [7, 8];

function outputsOf(delegates: Delegate[]): { outputs: number[][]; partitions: number[][] } {
  const model = loadModel(buildFloatCnn());
  const it = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
    delegates,
  }).allocateTensors();
  const n = FLOAT_CNN_INPUT_SHAPE.reduce<number>((s, d) => s * d, 1);
  const outputs = INPUT_SEEDS.map((seed) => {
    it.setInput(0, lcgFloats(n, seed, 1));
    it.invoke();
    return Array.from(it.output(0).data as Float32Array);
  });
  const partitions = it.partitions().map((p) => p.nodes);
  it.dispose();
  return { outputs, partitions };
}

function run(): BrowserResult {
  const delegate = createGpuDelegate();
  try {
    const gpu = outputsOf([delegate]);
    const reference = outputsOf([]);
    return {
      modes: availableModes(),
      mode: delegate.mode,
      backends: delegate.kernelStats().backends,
      partitions: gpu.partitions,
      gpu: gpu.outputs,
      reference: reference.outputs,
    };
  } finally {
    delegate.destroy();
  }
}

const w = window as unknown as { __micrortResult?: BrowserResult | { error: string } };
try {
  w.__micrortResult = run();
} catch (e) {
  w.__micrortResult = { error: e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e) };
}
