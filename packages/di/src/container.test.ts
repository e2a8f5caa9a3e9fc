import 'reflect-metadata';
import { container as rootContainer, inject, injectable, type DependencyContainer } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  ModelBuilder,
  TensorType,
  loadModel,
  type KernelPackage,
  type MemoryPlanner,
  type ModelDef,
  type Registration,
} from '@micrort/core';
import { referencePackage } from '@micrort/ops-reference';
import { GreedyPlanner, LinearPlanner } from '@micrort/planners';
import { TOKENS } from './tokens.js';
import { createInterpreterFromContainer, runtimeFromContainer } from './container.js';

/** y = relu(x) + x, 16 floats per tensor. */
function model(): ModelDef {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 16] });
  const r = b.addTensor({ name: 'r', type: TensorType.FLOAT32, shape: [1, 16] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 16] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [r] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [r, x], outputs: [y] });
  return loadModel(b.setInputs([x]).setOutputs([y]).build());
}

/** A package in front of ops-reference whose RELU serves float32 and doubles instead. */
const doubling: KernelPackage = {
  name: 'doubling',
  provider: 'doubling',
  summary: 'a RELU that doubles',
  provides: ['builtin-ops'],
  join: 'fallback',
  create: () => ({
    register: (resolver, options) =>
      void resolver.register(
        {
          builtinCode: BuiltinOperator.RELU,
          provider: 'doubling',
          invoke(ctx, node) {
            const x = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array;
            const y = ctx.getEvalTensor(node.outputs[0]!).data as Float32Array;
            for (let i = 0; i < x.length; i++) y[i] = 2 * x[i]!;
          },
        } as Registration,
        options,
      ),
  }),
};

function run(c: DependencyContainer, x: number): { planner: string; y: number; providers: string[] } {
  const it = createInterpreterFromContainer(c, model()).allocateTensors();
  (it.input(0).data as Float32Array).fill(x);
  it.invoke();
  return { planner: it.arenaUsage().planner, y: (it.output(0).data as Float32Array)[0]!, providers: it.nodes().map((n) => n.provider) };
}

/** A service composed by constructor injection, as an application would write it. */
@injectable()
class InferenceService {
  constructor(
    @inject(TOKENS.MemoryPlanner) readonly planner: MemoryPlanner,
    @inject('container') private readonly c: DependencyContainer,
  ) {}
  run(x: number): number {
    return run(this.c, x).y;
  }
}

describe('DI composition (tsyringe) over composeRuntime', () => {
  it('a child container per deployment swaps the planner and its packages; the rest comes from the parent', () => {
    const root = rootContainer.createChildContainer();
    root.register(TOKENS.KernelPackage, { useValue: referencePackage });
    root.register(TOKENS.MemoryPlanner, { useValue: new GreedyPlanner() });
    const edge = root.createChildContainer();
    edge.register(TOKENS.MemoryPlanner, { useValue: new LinearPlanner() });
    // a child's KernelPackage list replaces its parent's (tsyringe's resolveAll takes the nearest container's)
    edge.register(TOKENS.KernelPackage, { useValue: referencePackage });
    edge.register(TOKENS.KernelPackage, { useValue: doubling });

    expect(run(root, 3)).toEqual({ planner: 'greedy', y: 6, providers: ['@micrort/ops-reference', '@micrort/ops-reference'] });
    expect(run(edge, 3)).toEqual({ planner: 'linear', y: 9, providers: ['doubling', '@micrort/ops-reference'] });
    expect(runtimeFromContainer(edge).packages.map((p) => p.name)).toEqual(['ops-reference', 'doubling']);
  });

  it('constructor injection resolves the deployment planner', () => {
    const root = rootContainer.createChildContainer();
    root.register(TOKENS.KernelPackage, { useValue: referencePackage });
    root.register(TOKENS.MemoryPlanner, { useValue: new GreedyPlanner() });
    const child = root.createChildContainer();
    child.register(TOKENS.MemoryPlanner, { useValue: new LinearPlanner() });
    child.register('container', { useValue: child });
    const svc = child.resolve(InferenceService);
    expect(svc.planner.name).toBe('linear');
    expect(svc.run(-2)).toBe(-2);
  });

  it('missing registrations are clear errors', () => {
    const empty = rootContainer.createChildContainer();
    expect(() => createInterpreterFromContainer(empty, model())).toThrow(/no MemoryPlanner registered/);
    empty.register(TOKENS.MemoryPlanner, { useValue: new GreedyPlanner() });
    expect(() => createInterpreterFromContainer(empty, model())).toThrow(/no KernelPackage registered/);
  });
});
