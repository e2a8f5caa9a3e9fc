/**
 * A uint8 model with ops-simd registered in front of ops-reference (`{ fallback: true }`): ops-simd
 * declines every uint8 node with a reason and ops-reference runs them, with the same bytes as
 * ops-reference alone.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createSimdKernels } from '@micrort/ops-simd';
import { createPlanner } from '@micrort/planners';
import { mobilenetBlock } from './uint8-models.js';

describe('uint8 with ops-simd in front of ops-reference', () => {
  it('falls back to ops-reference for every uint8 node and gives its bytes', () => {
    const model = loadModel(mobilenetBlock(7));
    const run = (resolver: OpResolver) => {
      const interp = new MicroInterpreter(model, resolver, { planner: createPlanner('greedy'), arena: 'auto' }).allocateTensors();
      (interp.input(0).data as Uint8Array).set(Uint8Array.from({ length: interp.input(0).elementCount }, (_, i) => (i * 97) & 255));
      interp.invoke();
      return interp;
    };
    const reference = run(registerReferenceOps(new OpResolver()));
    const stacked = registerReferenceOps(new OpResolver());
    stacked.registerAll(createSimdKernels(), { fallback: true });
    const both = run(stacked);
    expect(Array.from(both.output(0).bytes)).toEqual(Array.from(reference.output(0).bytes));
    const nodes = both.nodes();
    expect(nodes.every((n) => n.provider === '@micrort/ops-reference')).toBe(true);
    const declined = nodes.filter((n) => n.declinedBy?.includes('@micrort/ops-simd')).map((n) => n.op);
    expect(declined).toEqual(['CONV_2D', 'DEPTHWISE_CONV_2D', 'CONV_2D', 'AVERAGE_POOL_2D', 'CONV_2D', 'SOFTMAX']);
  });
});
