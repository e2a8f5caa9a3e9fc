import { describe, expect, it } from 'vitest';
import { ActivationFunctionType } from '@micrort/core';
import { buildSvdfF32, runSteps } from '../../__tests__/single-op-svdf.js';
import { firstMismatch } from '../../__tests__/single-op-float.js';
import { int, pick, rng, wasm } from '../../__tests__/single-op.js';

const STEPS = 6;
const f32 = (bytes: Int8Array) => new Float32Array(Int8Array.from(bytes).buffer);

describe('SVDF float32 (wasm)', () => {
  it(`agrees with ops-reference within 1e-5 + 1e-4·|b| on 80 random layers over ${STEPS} invokes each (state carried): ranks 1-3, batches 1-2, odd input and memory sizes, with and without bias, every fused activation`, () => {
    const seen = { rank2: 0, batch2: 0, noBias: 0, oddMemory: 0, oddInput: 0, activation: 0 };
    for (let seed = 1; seed <= 80; seed++) {
      const r = rng(seed + 2000);
      const c = {
        batches: int(r, 1, 2),
        inputSize: pick(r, [int(r, 1, 20), int(r, 1, 70), 96]),
        units: int(r, 1, 13),
        rank: int(r, 1, 3),
        memory: pick(r, [int(r, 1, 12), 8, 16, int(r, 17, 40)]),
        bias: r() < 0.75,
        activation: pick(r, [
          ActivationFunctionType.NONE,
          ActivationFunctionType.RELU,
          ActivationFunctionType.RELU_N1_TO_1,
          ActivationFunctionType.RELU6,
          ActivationFunctionType.TANH,
          ActivationFunctionType.SIGN_BIT,
        ]),
        seed,
      };
      const { def, inputs } = buildSvdfF32(c, STEPS);
      const steps = inputs.map((x) => [x]);
      const ref = runSteps(def, steps, null);
      const got = runSteps(def, steps, wasm());
      expect(got.served, JSON.stringify(c)).toBe(1);
      ref.outs.forEach((o, step) =>
        expect(firstMismatch(f32(got.outs[step]![0]!), f32(o[0]!)), `${JSON.stringify(c)} step ${step}`).toBeNull(),
      );
      if (c.rank > 1) seen.rank2++;
      if (c.batches > 1) seen.batch2++;
      if (!c.bias) seen.noBias++;
      if (c.memory % 4) seen.oddMemory++;
      if (c.inputSize % 8) seen.oddInput++;
      if (c.activation !== ActivationFunctionType.NONE) seen.activation++;
    }
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(10);
  });
});
