import { describe, expect, it } from 'vitest';
import { composeRuntime, loadModel, withOptions } from '@micrort/core';
import { referencePackage } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';
import { GpuDelegate, GpuModeError, PROVIDER, buildFloatCnn, gpuPackage, type GpuContribution } from '../src/index.js';

describe('gpuPackage', () => {
  it('contributes one delegate in the mode asked for; the runtime destroys it', () => {
    expect(gpuPackage).toMatchObject({ name: 'ops-gpu', provider: PROVIDER, provides: ['delegate'] });
    const rt = composeRuntime([referencePackage, withOptions(gpuPackage, { mode: 'cpu' })]);
    const { delegate } = rt.packages[1]!.contribution as GpuContribution;
    expect(delegate).toBeInstanceOf(GpuDelegate);
    expect(rt.delegates).toEqual([delegate]);
    expect(rt.interpreterOptions.delegates).toEqual([delegate]);
    const it = rt.createInterpreter(loadModel(buildFloatCnn()), { planner: new GreedyPlanner() }).allocateTensors();
    expect(it.partitions()).toHaveLength(1);
    expect(it.nodes().map((n) => n.provider)).toEqual([PROVIDER]);
    it.dispose();
    rt.dispose();
    expect(() => delegate.prepare({} as never, delegate)).toThrow(/destroyed/);
  });

  it('a mode this platform lacks is GpuModeError at composition', () => {
    expect(() => composeRuntime([referencePackage, withOptions(gpuPackage, { mode: 'webgl2' })])).toThrow(GpuModeError);
  });
});
