// Run a third-party kernel (the custom op ACME_CLIP from @acme/micrort-clip-op) inside a model made by
// the model writer, next to the reference kernels.
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';
import { acmeKernels, clipOptions } from './acme-clip-op/src/index.js';

export function main(): number[] {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 5] });
  const clipped = b.addTensor({ name: 'clipped', type: TensorType.FLOAT32, shape: [1, 5] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 5] });
  b.addOperator({ op: { custom: 'ACME_CLIP' }, inputs: [x], outputs: [clipped], customOptions: clipOptions(-1, 2) });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [clipped, clipped], outputs: [y] });
  const model = loadModel(b.setInputs([x]).setOutputs([y]).build());

  const resolver = registerReferenceOps(new OpResolver()).registerAll(acmeKernels);
  const it = new MicroInterpreter(model, resolver, { planner: new GreedyPlanner() }).allocateTensors();
  it.setInput(0, Float32Array.of(-3, -0.5, 0, 1.5, 9));
  it.invoke();
  return Array.from(it.output(0).data as Float32Array); // [-2, -1, 0, 3, 4]
}
