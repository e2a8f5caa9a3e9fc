// Compose runtimes with a tsyringe container (@micrort/di, over composeRuntime): kernel packages, planner
// and delegates under tokens; a child container per deployment swaps what differs (here: the planner).
import 'reflect-metadata';
import { container } from 'tsyringe';
import { BuiltinOperator, ModelBuilder, TensorType, loadModel } from '@micrort/core';
import { TOKENS, createInterpreterFromContainer } from '@micrort/di';
import { referencePackage } from '@micrort/ops-reference';
import { GreedyPlanner, LinearPlanner } from '@micrort/planners';

export function main(): { planner: string; headBytes: number; y: number[] }[] {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 64] });
  const r1 = b.addTensor({ name: 'r1', type: TensorType.FLOAT32, shape: [1, 64] });
  const r2 = b.addTensor({ name: 'r2', type: TensorType.FLOAT32, shape: [1, 64] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 64] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [r1] });
  b.addOperator({ op: BuiltinOperator.RELU6, inputs: [r1], outputs: [r2] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [r2, x], outputs: [y] });
  const model = loadModel(b.setInputs([x]).setOutputs([y]).build());

  // The application's root container: kernel packages and a default planner.
  const root = container.createChildContainer();
  root.register(TOKENS.KernelPackage, { useValue: referencePackage });
  root.register(TOKENS.MemoryPlanner, { useValue: new GreedyPlanner() });

  // A deployment that wants the no-reuse baseline planner.
  const baseline = root.createChildContainer();
  baseline.register(TOKENS.MemoryPlanner, { useValue: new LinearPlanner() });

  return [root, baseline].map((c) => {
    const it = createInterpreterFromContainer(c, model).allocateTensors();
    (it.input(0).data as Float32Array).fill(-1).set([1, 7], 0);
    it.invoke();
    return {
      planner: it.arenaUsage().planner,
      headBytes: it.arenaUsage().headBytes,
      y: Array.from(it.output(0).data as Float32Array).slice(0, 3),
    };
  });
}
