import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { pick, rng, runBoth } from '../__tests__/single-op.js';

/**
 * The ADD's (and SUB's) affine rounding is chosen at prepare to equal TFLM's three roundings on every input pair:
 * here each random configuration runs ops-wasm and ops-reference on all 65,536 pairs at once (a
 * 256 x 256 tensor of x1 against its transpose), byte for byte. The configurations include equal
 * scales (exact ties, rounded away from zero), scale ratios far from one, every zero point extreme and
 * the fused activations; some admit no affine rounding (the kernel then takes TFLM's steps).
 */
describe('ADD and SUB int8 and uint8: every input pair', () => {
  it.each([
    ['ADD int8', BuiltinOperator.ADD, TensorType.INT8, 0],
    ['ADD uint8', BuiltinOperator.ADD, TensorType.UINT8, 128],
    ['SUB int8', BuiltinOperator.SUB, TensorType.INT8, 0],
    ['SUB uint8', BuiltinOperator.SUB, TensorType.UINT8, 128],
  ] as const)('%s equals ops-reference on all 65,536 pairs for 24 random quantizations', (_, op, type, zs) => {
    const x1 = new Int8Array(65536);
    const x2 = new Int8Array(65536);
    for (let i = 0; i < 65536; i++) {
      x1[i] = (i >> 8) - 128;
      x2[i] = (i & 255) - 128;
    }
    for (let seed = 1; seed <= 24; seed++) {
      const r = rng(seed * 7919);
      const s1 = 0.005 + r() * 0.1;
      const s2 = pick(r, [s1, s1 * 2, 0.005 + r() * 0.1, s1 * 37]);
      const so = Math.max(s1, s2) * pick(r, [1, 2, 0.5, 1.37, 8, 0.04]);
      const zp = () => pick(r, [-128, 127, 0, Math.floor(r() * 256) - 128]) + zs;
      const activation = pick(r, [
        ActivationFunctionType.NONE,
        ActivationFunctionType.NONE,
        ActivationFunctionType.RELU,
        ActivationFunctionType.RELU6,
      ]);
      const b = new ModelBuilder();
      const a = b.addTensor({ name: 'a', type, shape: [256, 256], quantization: { scale: s1, zeroPoint: zp() } });
      const c = b.addTensor({ name: 'b', type, shape: [256, 256], quantization: { scale: s2, zeroPoint: zp() } });
      const o = b.addTensor({ name: 'o', type, shape: [256, 256], quantization: { scale: so, zeroPoint: zp() } });
      b.addOperator({
        op,
        version: 2,
        inputs: [a, c],
        outputs: [o],
        options: { fusedActivationFunction: activation },
      });
      b.setInputs([a, c]).setOutputs([o]);
      const res = runBoth(b.buildDef(), [x1, x2]);
      expect(res.served).toBe(1);
      expect(res.got[0], JSON.stringify({ seed, s1, s2, so, activation })).toEqual(res.ref[0]);
    }
  });
});
