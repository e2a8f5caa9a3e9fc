import { describe, expect, it } from 'vitest';
import { measureAllocation } from '@micrort/test-support/alloc';
import { OpResolver } from '../resolver/op-resolver.js';
import { BuiltinOperator } from '../builtin-ops.js';
import type { Registration } from '../kernel/api.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { TestLinearPlanner, addConstKernel, chainModel } from './__fixtures__/tiny-models.js';

describe('invoke() allocates nothing', () => {
  it('the interpreter loop, eval tensors and scratch lookups allocate no heap memory', () => {
    const it_ = new MicroInterpreter(chainModel(6, 64), new OpResolver().register(addConstKernel(0.5, 64) as Registration), {
      planner: new TestLinearPlanner(),
    }).allocateTensors();
    const m = measureAllocation(() => it_.invoke());
    // 2000 invokes of 6 nodes: any per-invoke object would add tens of kilobytes.
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
    console.log(`no-allocation: median heap delta per 2000 invokes = ${m.medianTrialBytes} bytes`);
  });

  it('the measurement catches a kernel that allocates (the check can fail)', () => {
    const leaky: Registration = {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'ADD_CONST',
      invoke(ctx, node) {
        const x = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array;
        const tmp = new Float32Array(x.length); // allocation in invoke
        (ctx.getEvalTensor(node.outputs[0]!).data as Float32Array).set(tmp);
      },
    };
    const it_ = new MicroInterpreter(chainModel(2, 16), new OpResolver().register(leaky), {
      planner: new TestLinearPlanner(),
    }).allocateTensors();
    const m = measureAllocation(() => it_.invoke(), { warmup: 200, trials: 5, iterations: 500 });
    expect(m.medianTrialBytes).toBeGreaterThan(10_000);
  });
});
