// Compose a runtime with plain calls: kernel packages through composeRuntime(), a planner, then run a
// model made by the writer.
import { BuiltinOperator, MicroInterpreter, ModelBuilder, TensorType, composeRuntime, loadModel, withOptions } from '@micrort/core';
import { referencePackage } from '@micrort/ops-reference';
import { SimdCounters, simdPackage } from '@micrort/ops-simd';
import { GreedyPlanner } from '@micrort/planners';

export function main(): { y: number[]; providers: string[]; packages: string[] } {
  // 1. A model: y = x + [1, 2, 3, 4] (any .tflite file works the same way: loadModel(bytes)).
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
  const c = b.addTensor({ name: 'c', type: TensorType.FLOAT32, shape: [4], data: Float32Array.of(1, 2, 3, 4) });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, c], outputs: [y] });
  const model = loadModel(b.setInputs([x]).setOutputs([y]).build());

  // 2. The runtime: ops-reference, with ops-simd's int8 kernels in front (emulated, counting instructions);
  //    composeRuntime() returns what the interpreter needs.
  const runtime = composeRuntime([referencePackage, withOptions(simdPackage, { mode: 'emulated', counters: new SimdCounters() })]);
  const interpreter = new MicroInterpreter(model, runtime.resolver, {
    ...runtime.interpreterOptions,
    planner: new GreedyPlanner(),
    arena: 'auto',
  });
  interpreter.allocateTensors();

  // 3. Run. The float ADD is declined by ops-simd (int8 only) and served by ops-reference.
  interpreter.setInput(0, Float32Array.of(10, 20, 30, 40));
  interpreter.invoke();
  return {
    y: Array.from(interpreter.output(0).data as Float32Array), // [11, 22, 33, 44]
    providers: interpreter.nodes().map((n) => n.provider), // ['@micrort/ops-reference']
    packages: runtime.packages.map((p) => `${p.name} (${p.join})`), // ['ops-reference (register)', 'ops-simd (fallback)']
  };
}
