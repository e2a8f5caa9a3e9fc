import { loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { composeOps } from '../runtime.js';
import { describe, expect, it } from 'vitest';
import { zooModels } from './zoo.js';

describe('fuzz seed zoo', () => {
  it.each(zooModels().map((m) => [m.name, m] as const))('%s loads, allocates and invokes', (_, m) => {
    const interp = composeOps('reference').createInterpreter(loadModel(m.bytes), { planner: createPlanner('greedy') });
    interp.allocateTensors();
    for (let i = 0; i < interp.inputsSize; i++) {
      const d = interp.input(i).bytes;
      for (let k = 0; k < d.length; k++) d[k] = (k * 37 + 11) & 0x3f;
    }
    interp.invoke();
    expect(interp.outputsSize).toBeGreaterThan(0);
  });
});
