import 'reflect-metadata';
import { container as rootContainer, inject, injectable, type DependencyContainer } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import type { MemoryPlanner, BufferRequirement, MemoryPlan } from '../planner/memory-planner.js';
import type { Registration } from '../kernel/api.js';
import { TestLinearPlanner, addConstKernel, chainModel } from '../interpreter/__fixtures__/tiny-models.js';
import { TOKENS, type OpProvider } from './tokens.js';
import { createInterpreterFromContainer, resolverFromProviders } from './compose.js';
import type { ModelDef } from '../model/model-def.js';

/** Places every buffer at its own offset, then reuses nothing but reports a name of its own. */
class TopDownPlanner implements MemoryPlanner {
  readonly name = 'top-down';
  plan(buffers: readonly BufferRequirement[]): MemoryPlan {
    const total = buffers.reduce((s, b) => s + b.size, 0);
    const offsets = new Int32Array(buffers.length);
    let end = total;
    buffers.forEach((b, i) => {
      end -= b.size;
      offsets[i] = end;
    });
    return { offsets, headBytes: total };
  }
}

const kernels: OpProvider = { name: 'test-kernels', kernels: [addConstKernel(1) as Registration] };

/** A service composed by constructor injection, as an application would write it. */
@injectable()
class InferenceService {
  constructor(
    @inject(TOKENS.MemoryPlanner) readonly planner: MemoryPlanner,
    @inject('container') private readonly c: DependencyContainer,
  ) {}
  run(model: ModelDef, x: number): number {
    const it = createInterpreterFromContainer(this.c, model).allocateTensors();
    (it.input(0).data as Float32Array).fill(x);
    it.invoke();
    return (it.output(0).data as Float32Array)[0]!;
  }
}

describe('DI composition (tsyringe)', () => {
  it('a child container per deployment swaps the planner; kernels come from the parent', () => {
    const root = rootContainer.createChildContainer();
    root.register(TOKENS.OpProvider, { useValue: kernels });
    root.register(TOKENS.MemoryPlanner, { useValue: new TestLinearPlanner() });
    const edge = root.createChildContainer();
    edge.register(TOKENS.MemoryPlanner, { useValue: new TopDownPlanner() });

    const a = createInterpreterFromContainer(root, chainModel()).allocateTensors();
    const b = createInterpreterFromContainer(edge, chainModel()).allocateTensors();
    expect(a.arenaUsage().planner).toBe('test-linear');
    expect(b.arenaUsage().planner).toBe('top-down');
    expect(a.memoryPlan().plan.offsets[0]).toBe(0);
    expect(b.memoryPlan().plan.offsets[0]).toBe(96);
    for (const it of [a, b]) {
      (it.input(0).data as Float32Array).fill(1);
      it.invoke();
      expect((it.output(0).data as Float32Array)[0]).toBe(4);
    }
  });

  it('constructor injection resolves the deployment planner', () => {
    const root = rootContainer.createChildContainer();
    root.register(TOKENS.OpProvider, { useValue: kernels });
    root.register(TOKENS.MemoryPlanner, { useValue: new TestLinearPlanner() });
    const child = root.createChildContainer();
    child.register(TOKENS.MemoryPlanner, { useValue: new TopDownPlanner() });
    child.register('container', { useValue: child });
    const svc = child.resolve(InferenceService);
    expect(svc.planner.name).toBe('top-down');
    expect(svc.run(chainModel(), 2)).toBe(5);
  });

  it('missing registrations are clear errors; providers compose in order with fallback mode', () => {
    const empty = rootContainer.createChildContainer();
    expect(() => createInterpreterFromContainer(empty, chainModel())).toThrow(/no MemoryPlanner registered/);
    empty.register(TOKENS.MemoryPlanner, { useValue: new TestLinearPlanner() });
    expect(() => createInterpreterFromContainer(empty, chainModel())).toThrow(/no OpProvider registered/);
    const r = resolverFromProviders([
      kernels,
      { name: 'b', kernels: [{ ...addConstKernel(2), provider: 'b' } as Registration], mode: 'fallback' },
    ]);
    expect(r.listRegistrations().map((x) => x.provider)).toEqual(['b', 'core-test']);
  });
});
