import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { describe, expect, it } from 'vitest';
import { int, pick, rng, runBoth, wasm } from '../__tests__/single-op.js';
import { PROVIDER } from '../provider.js';

/** An int8 RSQRT of `n` elements with the given quantizations. */
function model(n: number, inQ: { scale: number; zeroPoint: number }, outQ: { scale: number; zeroPoint: number }): ModelDef {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [1, n], quantization: inQ });
  const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [1, n], quantization: outQ });
  b.addOperator({ op: BuiltinOperator.RSQRT, inputs: [x], outputs: [y] });
  b.setInputs([x]).setOutputs([y]);
  return b.buildDef();
}

/** The error message of invoking `def` on `input` (ops-wasm in front of ops-reference, or ops-reference alone), or null. */
function invokeError(def: ModelDef, input: Int8Array, withWasm: boolean): { message: string | null; provider: string } {
  const resolver = registerReferenceOps(new OpResolver());
  if (withWasm) resolver.registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(withWasm ? { arenaBacking: wasm().arenaBacking } : {}),
  }).allocateTensors();
  it_.input(0).bytes.set(new Uint8Array(input.buffer));
  try {
    it_.invoke();
    return { message: null, provider: it_.nodes()[0]!.provider };
  } catch (e) {
    return { message: (e as Error).message, provider: it_.nodes()[0]!.provider };
  }
}

describe('RSQRT int8 (wasm qs8_rsqrt, a table of kernel-support rsqrtQuantized) equals ops-reference byte for byte', () => {
  it('100 random input and output quantizations, every input value at or above the input zero point', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const r = rng(seed);
      const inQ = {
        scale: pick(r, [0.1, 0.0234, 1 / 16, 0.5, 0.003, 2.5, 40]),
        zeroPoint: pick(r, [-128, -128, 0, 127, int(r, -128, 127)]),
      };
      const outQ = { scale: pick(r, [0.01, 0.05, 1 / 128, 0.3, 0.002]), zeroPoint: pick(r, [-128, 0, 127, int(r, -128, 127)]) };
      const n = pick(r, [1, 7, 16, 17, 100, int(r, 1, 600)]);
      // every value from the zero point up first (v = 0 gives 127), then random ones
      const input = Int8Array.from({ length: n }, (_, i) => (inQ.zeroPoint + i <= 127 ? inQ.zeroPoint + i : int(r, inQ.zeroPoint, 127)));
      const desc = JSON.stringify({ seed, inQ, outQ, n });
      const res = runBoth(model(n, inQ, outQ), [input]);
      expect(res.served, desc).toBe(1);
      expect(res.got[0], desc).toEqual(res.ref[0]);
    }
  });

  it('an input below the input zero point fails the invoke with ops-reference’s error, naming the first such element', () => {
    const inQ = { scale: 0.05, zeroPoint: -3 };
    const outQ = { scale: 0.02, zeroPoint: -128 };
    for (const [n, at] of [
      [40, 0],
      [40, 17],
      [40, 39],
      [5, 3],
      [300, 160],
    ] as const) {
      const input = Int8Array.from({ length: n }, (_, i) => (i * 7) % 100);
      input[at] = -4;
      if (at + 3 < n) input[at + 3] = -128; // a later one is not reported
      const ref = invokeError(model(n, inQ, outQ), input, false);
      const got = invokeError(model(n, inQ, outQ), input, true);
      expect(got.provider).toBe(PROVIDER);
      expect(ref.message).toContain(`element ${at} is -4, below the input zero point -3`);
      expect(got.message).toBe(ref.message);
    }
  });

  it('int16 stays on ops-reference', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [9], quantization: { scale: 0.01, zeroPoint: 0 } });
    const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [9], quantization: { scale: 0.001, zeroPoint: 0 } });
    b.addOperator({ op: BuiltinOperator.RSQRT, inputs: [x], outputs: [y] });
    b.setInputs([x]).setOutputs([y]);
    const input = new Int8Array(Int16Array.from({ length: 9 }, (_, i) => i * 3000).buffer);
    const res = runBoth(b.buildDef(), [input]);
    expect(res.served).toBe(0);
    expect(res.got[0]).toEqual(res.ref[0]);
  });
});
