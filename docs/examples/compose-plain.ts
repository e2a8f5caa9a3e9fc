// Compose a runtime with plain calls: core + kernels + a planner, then run a model made by the writer.
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';

export function main(): number[] {
  // 1. A model: y = x + [1, 2, 3, 4] (any .tflite file works the same way: loadModel(bytes)).
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
  const c = b.addTensor({ name: 'c', type: TensorType.FLOAT32, shape: [4], data: Float32Array.of(1, 2, 3, 4) });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, c], outputs: [y] });
  const model = loadModel(b.setInputs([x]).setOutputs([y]).build());

  // 2. The runtime: reference kernels, TFLM's greedy planner, an arena sized exactly.
  const resolver = registerReferenceOps(new OpResolver());
  const interpreter = new MicroInterpreter(model, resolver, { planner: new GreedyPlanner(), arena: 'auto' });
  interpreter.allocateTensors();

  // 3. Run.
  interpreter.setInput(0, Float32Array.of(10, 20, 30, 40));
  interpreter.invoke();
  return Array.from(interpreter.output(0).data as Float32Array); // [11, 22, 33, 44]
}
