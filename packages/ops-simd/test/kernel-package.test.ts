import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType, composeRuntime, loadModel, withOptions } from '@micrort/core';
import { referencePackage } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';
import { PROVIDER, SimdCounters, simdPackage, type SimdContribution } from '../src/index.js';

/** y = x + x on int8 (ops-simd's ADD), z = relu(y) on float after a DEQUANTIZE (ops-reference's). */
function model() {
  const b = new ModelBuilder();
  const q = { scale: [0.1], zeroPoint: [0] };
  const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [1, 16], quantization: q });
  const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [1, 16], quantization: { scale: [0.2], zeroPoint: [0] } });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, x], outputs: [y] });
  return loadModel(b.setInputs([x]).setOutputs([y]).build());
}

describe('simdPackage', () => {
  it('goes in front of ops-reference; emulated, it counts into the counters it is given or makes', () => {
    expect(simdPackage).toMatchObject({ name: 'ops-simd', provider: PROVIDER, join: 'fallback' });
    const counters = new SimdCounters();
    const given = composeRuntime([referencePackage, withOptions(simdPackage, { mode: 'emulated', counters })]);
    expect((given.packages[1]!.contribution as SimdContribution).counters).toBe(counters);
    const it = given.createInterpreter(model(), { planner: new GreedyPlanner() }).allocateTensors();
    it.setInput(
      0,
      Int8Array.from({ length: 16 }, (_, i) => i - 8),
    );
    it.invoke();
    expect(it.nodes()[0]!.provider).toBe(PROVIDER);
    expect(counters.get(0)?.invocations).toBe(1);
    const made = composeRuntime([referencePackage, withOptions(simdPackage, { mode: 'emulated' })]);
    expect((made.packages[1]!.contribution as SimdContribution).counters).toBeInstanceOf(SimdCounters);
    expect((composeRuntime([referencePackage, simdPackage]).packages[1]!.contribution as SimdContribution).counters).toBeNull();
  });
});
