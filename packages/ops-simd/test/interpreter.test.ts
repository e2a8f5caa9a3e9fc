/**
 * ops-simd inside the real interpreter on a small hand-made model chaining every kernel: same bytes as
 * ops-reference in both modes, scratch buffers placed by the planner, nothing allocated in invoke().
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { measureAllocation } from '@micrort/test-support/alloc';
import { PROVIDER, SimdCounters, createSimdKernels, estimateCycles, type SimdMode } from '../src/index.js';
import { LinearTestPlanner, tinyInt8Model } from '../src/__tests__/tiny-model.js';
import { randomInt8, rng } from '../src/__tests__/reference-math.js';

function interpreter(provider: 'reference' | SimdMode, counters?: SimdCounters, hw = 6): MicroInterpreter {
  const resolver = registerReferenceOps(new OpResolver());
  if (provider !== 'reference') resolver.registerAll(createSimdKernels({ mode: provider, counters }), { fallback: true });
  return new MicroInterpreter(tinyInt8Model(1, hw), resolver, { planner: new LinearTestPlanner(), arena: 'auto' }).allocateTensors();
}

function run(interp: MicroInterpreter, seed: number): [number[], number[]] {
  interp.setInput(0, randomInt8(rng(seed), 108));
  interp.invoke();
  return [Array.from(interp.output(0).data as Int8Array), Array.from(interp.output(1).data as Int8Array)];
}

describe('ops-simd in the interpreter', () => {
  it('serves every node and requests the CMSIS-NN scratch buffers', () => {
    const interp = interpreter('fast');
    expect(interp.nodes().every((n) => n.provider === PROVIDER)).toBe(true);
    const scratch = interp
      .arenaUsage()
      .perNode.filter((n) => n.scratchBytes > 0)
      .map((n) => [n.op, n.scratchBytes]);
    // im2col conv: 4 * aligned(3*3*3 = 27 -> 28); opt depthwise: 2 * 8 * 5 * 5; avgpool: 4 * 4
    expect(scratch).toEqual([
      ['CONV_2D', 112],
      ['DEPTHWISE_CONV_2D', 400],
      ['AVERAGE_POOL_2D', 16],
    ]);
  });

  it('gives the same bytes as ops-reference in both modes', () => {
    const ref = interpreter('reference');
    const fast = interpreter('fast');
    const counters = new SimdCounters();
    const emu = interpreter('emulated', counters);
    for (const seed of [1, 2, 3]) {
      const expected = run(ref, seed);
      expect(run(fast, seed)).toEqual(expected);
      expect(run(emu, seed)).toEqual(expected);
    }
    const e = estimateCycles(counters, { core: 'm4' });
    expect(e.nodes.map((n) => n.kernel)).toEqual([
      'arm_convolve_s8',
      'arm_depthwise_conv_3x3_s8',
      'arm_depthwise_conv_s8_opt',
      'arm_convolve_1x1_s8_fast',
      'arm_max_pool_s8',
      'arm_avgpool_s8',
      'arm_elementwise_add_s8',
      'arm_elementwise_mul_s8',
      'arm_fully_connected_s8',
      'arm_softmax_s8',
    ]);
    expect(e.nodes.every((n) => n.invocations === 3)).toBe(true);
  });

  it('invoke() allocates nothing [fast]', () => {
    const interp = interpreter('fast');
    interp.setInput(0, randomInt8(rng(5), 108));
    const m = measureAllocation(() => interp.invoke(), { warmup: 2000, trials: 7, iterations: 1000 });
    // one object per node per invoke would add > 100 KB per trial
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('invoke() allocates nothing [emulated]', () => {
    // The emulated call tree reaches V8's optimizing tier late (boxed numbers until then), so this runs a
    // 2x2 version of the model long enough to warm up, and requires the median trial to be clean.
    const interp = interpreter('emulated', undefined, 2);
    interp.setInput(0, randomInt8(rng(5), 12));
    const m = measureAllocation(() => interp.invoke(), { warmup: 3000, trials: 7, iterations: 500 });
    // one object per node per invoke would add > 50 KB per trial
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
