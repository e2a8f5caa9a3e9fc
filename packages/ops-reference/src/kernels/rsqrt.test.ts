import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { expectWithinSteps, f32, harness, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { RSQRT } from './rsqrt.js';

const I8 = TensorType.INT8;
const I16 = TensorType.INT16;

describe('RSQRT', () => {
  it('float32: 1 / sqrtf(x) (TFLM elementwise_test Rsqrt)', () => {
    expect(run(RSQRT, [f32([4], [1, 2, 4, 9]), f32([4])], [0], [1])).toEqual([
      1,
      Math.fround(1 / Math.fround(Math.SQRT2)),
      0.5,
      Math.fround(1 / 3),
    ]);
    const special = run(RSQRT, [f32([3], [0, -1, Infinity]), f32([3])], [0], [1]);
    expect(special[0]).toBe(Infinity);
    expect(special[1]).toBeNaN();
    expect(special[2]).toBe(0);
  });

  it('int8: within one output step of 1/sqrt(x) (TFLM elementwise_test RsqrtInt8 values)', () => {
    const input = [15, 46, 78, 142, 1, 17, 49, 113];
    // A scale that represents every input well and an output scale covering [0, 1].
    const inScale = 0.6;
    const outScale = 1 / 255;
    const raw = quantize(input, inScale, -128);
    const out = run(RSQRT, [q(I8, [1, 8], inScale, -128, raw), q(I8, [1, 8], outScale, -128)], [0], [1]);
    const real = raw.map((v) => 1 / Math.sqrt((v + 128) * Math.fround(inScale)));
    expectWithinSteps(out, quantize(real, outScale, -128));
  });

  it('int8: an input equal to the zero point (real 0) gives 127, the type maximum', () => {
    expect(run(RSQRT, [q(I8, [2], 0.02, -128, [-128, -128]), q(I8, [2], 0.03, -128)], [0], [1])).toEqual([127, 127]);
  });

  it('int8: a value below the zero point fails the invoke, as TFLM, and the kernel stays usable', () => {
    const h = harness(RSQRT, [q(I8, [3], 0.1, 0, [4, -1, 9]), q(I8, [3], 0.1, 0)], [0], [1]).prepare();
    expect(kernelError(() => h.invoke()).message).toMatch(
      /RSQRT \(node 0\): Rsqrt is only defined for positive values \(element 1 is -1, below the input zero point 0\)/,
    );
    h.setInput(0, [4, 1, 9]);
    // 1/sqrt(0.4) = 1.58, 1/sqrt(0.1) = 3.16, 1/sqrt(0.9) = 1.05 at output scale 0.1
    expectWithinSteps(h.invoke().outputArray(), [16, 32, 11]);
  });

  it('int16 (zero points 0): within one step of 1/sqrt(x) (TFLM accepts int16, see the conformance README)', () => {
    const inScale = 1 / 1024;
    const outScale = 1 / 256;
    const raw = [1, 2, 100, 1024, 4096, 32767, 0];
    const out = run(RSQRT, [q(I16, [7], inScale, 0, raw), q(I16, [7], outScale, 0)], [0], [1]);
    expect(out[6]).toBe(32767);
    expectWithinSteps(
      out.slice(0, 6),
      quantize(
        raw.slice(0, 6).map((v) => 1 / Math.sqrt(v * inScale)),
        outScale,
        0,
        I16,
      ),
    );
    expect(kernelError(() => harness(RSQRT, [q(I16, [1], inScale, 1, [5]), q(I16, [1], outScale, 0)], [0], [1]).prepare()).message).toMatch(
      /zero point must be 0, got 1/,
    );
  });

  it('refuses unquantized int16 and other types; keeps TFLM OpDataAbsRsqrt (28 bytes) in the arena', () => {
    expect(
      kernelError(() =>
        harness(
          RSQRT,
          [
            { type: I16, shape: [1], data: [4] },
            { type: I16, shape: [1] },
          ],
          [0],
          [1],
        ).prepare(),
      ).message,
    ).toMatch(/needs affine quantization/);
    const h = harness(
      RSQRT,
      [
        { type: TensorType.INT32, shape: [1], data: [4] },
        { type: TensorType.INT32, shape: [1] },
      ],
      [0],
      [1],
    );
    expect(h.supportsAnswer()).toBe('int32 input (handles float32, int8, int16)');
    expect(() => h.prepare()).toThrow(/unsupported input type int32/);
    expect(harness(RSQRT, [f32([1], [1]), f32([1])], [0], [1]).prepare().persistentBytes).toBe(32);
  });
});
