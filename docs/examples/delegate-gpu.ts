// Run a model through the gpu.js GPU delegate of @micrort/ops-gpu: it claims the float32 nodes it has GPU
// kernels for and runs each partition as a chain of gpu.js kernels. Here in gpu.js's 'cpu' mode, which
// exists everywhere; leave `mode` out to take the best one available (webgl2 in a browser, headlessgl
// in Node under xvfb-run, else webasm).
import { MicroInterpreter, OpResolver, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { buildFloatCnn, createGpuDelegate, lcgFloats } from '@micrort/ops-gpu';
import { GreedyPlanner } from '@micrort/planners';

export function main() {
  const model = loadModel(buildFloatCnn()); // conv, depthwise, pooling, FC, softmax, ... (writer-made)
  const gpu = createGpuDelegate({ mode: 'cpu' });
  try {
    const it = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), {
      planner: new GreedyPlanner(),
      delegates: [gpu], // several delegates apply in order
      delegateOptions: { minPartitionSize: 2 }, // also: maxPartitions, excludeNodes
    });
    it.allocateTensors();
    it.setInput(0, lcgFloats(12 * 12 * 3, 1, 1));
    it.invoke();
    return {
      mode: gpu.mode, // which gpu.js backend ran
      partitions: it.partitions().map((p) => p.nodes), // [[0, 1, ..., 15]]: the whole CNN
      leftOnCpu: gpu.decisions().filter((d) => !d.claimed), // [] here; else each node and why
      y: Array.from(it.output(0).data as Float32Array),
    };
  } finally {
    gpu.destroy(); // frees the compiled kernels and the gpu.js instance
  }
}
