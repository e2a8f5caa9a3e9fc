import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { dequantize, expectWithinSteps, f32, harness, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { ADD_N } from './add-n.js';

const I8 = TensorType.INT8;

describe('ADD_N', () => {
  it('float32: the sum in input order in float32 (TFLM add_n_test FloatAddNOpAddMultipleTensors)', () => {
    const f = Math.fround;
    const a = [-2.0, 0.2, 0.7, 0.8];
    const b = [0.1, 0.2, 0.3, 0.5];
    const c = [0.5, 0.1, 0.1, 0.2];
    const out = run(ADD_N, [f32([1, 2, 2, 1], a), f32([1, 2, 2, 1], b), f32([1, 2, 2, 1], c), f32([1, 2, 2, 1])], [0, 1, 2], [3]);
    expect(out).toEqual(a.map((v, i) => f(f(f(v) + f(b[i]!)) + f(c[i]!))));
  });

  it('int8 with zero point 0: within one step of the real sum', () => {
    const a = [-128, -20, 0, 7, 90, 127];
    const b = [-128, 30, 0, -7, 60, 127];
    const out = run(ADD_N, [q(I8, [6], 0.03, 0, a), q(I8, [6], 0.03, 0, b), q(I8, [6], 0.05, -3)], [0, 1], [2]);
    expectWithinSteps(
      out,
      quantize(
        a.map((v, i) => (v + b[i]!) * 0.03),
        0.05,
        -3,
      ),
    );
  });

  it('int8 with a non-zero input zero point carries one extra -zero point term, as TFLM (its accumulator starts at the input offset)', () => {
    const [s, z, so, zo] = [0.02, -5, 0.05, 2];
    const inputs = [
      [10, 20, -5, 100],
      [-30, 0, -5, 50],
      [7, 7, -5, -128],
    ];
    const out = run(ADD_N, [...inputs.map((d) => q(I8, [4], s, z, d)), q(I8, [4], so, zo)], [0, 1, 2], [3]);
    const real = [0, 1, 2, 3].map((i) => inputs.reduce((acc, d) => acc + dequantize([d[i]!], s, z)[0]!, 0));
    // TFLM: sum of (x - zp) plus one more (-zp), i.e. the real sum + 5 * 0.02.
    expectWithinSteps(
      out,
      quantize(
        real.map((r) => r - z * s),
        so,
        zo,
      ),
    );
    expect(out[2]).toBe(quantize([-z * s], so, zo)[0]); // three real zeros sum to -zp in input scale, not 0
  });

  it('refuses a single input, mixed shapes or types, int8 inputs with different quantization, and int16', () => {
    expect(kernelError(() => harness(ADD_N, [f32([1], [1]), f32([1])], [0], [1]).prepare()).message).toMatch(
      /expects at least 2 inputs, got 1/,
    );
    expect(kernelError(() => harness(ADD_N, [f32([2], [1, 2]), f32([1, 2], [1, 2]), f32([2])], [0, 1], [2]).prepare()).message).toMatch(
      /input 1 \(tensor 1\) has shape \[1,2\], input 0 has \[2\]/,
    );
    expect(
      kernelError(() => harness(ADD_N, [q(I8, [1], 0.1, 0, [1]), q(I8, [1], 0.1, 1, [1]), q(I8, [1], 0.1, 0)], [0, 1], [2]).prepare())
        .message,
    ).toMatch(/must share scale and zero point/);
    const h = harness(
      ADD_N,
      [q(TensorType.INT16, [1], 0.1, 0, [1]), q(TensorType.INT16, [1], 0.1, 0, [1]), q(TensorType.INT16, [1], 0.1, 0)],
      [0, 1],
      [2],
    );
    expect(h.supportsAnswer()).toBe('int16 input (handles float32, int8, int32)');
    expect(kernelError(() => h.prepare()).message).toMatch(/unsupported output type int16 \(tensor 2\); supported: float32, int8/);
  });

  it("requests TFLM's input-pointer scratch (8 bytes per input) and, for int8 only, its 40-byte OpData", () => {
    const hf = harness(ADD_N, [f32([1], [1]), f32([1], [1]), f32([1], [1]), f32([1])], [0, 1, 2], [3]).prepare();
    expect(hf.scratchSizes).toEqual([24]);
    expect(hf.persistentBytes).toBe(0);
    const hq = harness(ADD_N, [q(I8, [1], 0.1, 0, [1]), q(I8, [1], 0.1, 0, [1]), q(I8, [1], 0.1, 0)], [0, 1], [2]).prepare();
    expect(hq.scratchSizes).toEqual([16]);
    expect(hq.persistentBytes).toBe(48);
  });
});
