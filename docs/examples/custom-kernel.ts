// Run a third-party kernel (the custom op ACME_CLIP from @acme/micrort-clip-op) inside a model made by
// the model writer, next to the reference kernels: composed by hand, and through its KernelPackage.
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, composeRuntime, loadModel } from '@micrort/core';
import { referencePackage, registerReferenceOps } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';
import { acmeKernels, acmePackage, clipOptions } from './acme-clip-op/src/index.js';

export function main(): number[] {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 5] });
  const clipped = b.addTensor({ name: 'clipped', type: TensorType.FLOAT32, shape: [1, 5] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 5] });
  b.addOperator({ op: { custom: 'ACME_CLIP' }, inputs: [x], outputs: [clipped], customOptions: clipOptions(-1, 2) });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [clipped, clipped], outputs: [y] });
  const model = loadModel(b.setInputs([x]).setOutputs([y]).build());

  // By hand, TFLM-style: the reference kernels, then this package's.
  const resolver = registerReferenceOps(new OpResolver()).registerAll(acmeKernels);
  const it = new MicroInterpreter(model, resolver, { planner: new GreedyPlanner() }).allocateTensors();
  // The same runtime from the packages' KernelPackages.
  const composed = composeRuntime([referencePackage, acmePackage]).createInterpreter(model, { planner: new GreedyPlanner() });
  const outputs = [it, composed.allocateTensors()].map((interp) => {
    interp.setInput(0, Float32Array.of(-3, -0.5, 0, 1.5, 9));
    interp.invoke();
    return Array.from(interp.output(0).data as Float32Array);
  });
  if (outputs[0]!.join() !== outputs[1]!.join()) throw new Error('composed by hand and by composeRuntime, the outputs differ');
  return outputs[0]!; // [-2, -1, 0, 3, 4]
}
