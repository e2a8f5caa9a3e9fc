import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, OpResolver, ResolverError, TensorType, composeRuntime, loadModel } from '@micrort/core';
import { GreedyPlanner } from '@micrort/planners';
import { PROVIDER, referenceKernels, referencePackage, registerReferenceOps } from '../src/index.js';

describe('referencePackage', () => {
  it('composes the same resolver registerReferenceOps builds, and runs a model', () => {
    const rt = composeRuntime([referencePackage]);
    expect(referencePackage).toMatchObject({ name: 'ops-reference', provider: PROVIDER, join: 'register' });
    expect(rt.resolver.listRegistrations()).toEqual(registerReferenceOps(new OpResolver()).listRegistrations());
    expect(rt.resolver.listRegistrations()).toHaveLength(referenceKernels.length);
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 3] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 3] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
    const it = rt
      .createInterpreter(loadModel(b.setInputs([x]).setOutputs([y]).build()), { planner: new GreedyPlanner() })
      .allocateTensors();
    it.setInput(0, Float32Array.of(-1, 0, 2));
    it.invoke();
    expect(Array.from(it.output(0).data as Float32Array)).toEqual([0, 0, 2]);
    expect(it.nodes()[0]!.provider).toBe(PROVIDER);
  });

  it('is complete: composed twice, the resolver says who registered the op first', () => {
    expect(() => composeRuntime([referencePackage, referencePackage])).toThrow(ResolverError);
  });
});
