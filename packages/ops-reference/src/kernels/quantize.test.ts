import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { QUANTIZE } from './quantize.js';

function run(reg: typeof QUANTIZE, input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: reg, tensors: [input, output], inputs: [0], outputs: [1] }).invoke();
}
const f32 = (data?: number[], shape = [data?.length ?? 1]): HarnessTensorSpec => ({ type: TensorType.FLOAT32, shape, data });
const q = (
  type: TensorType,
  shape: number[],
  scale: number | number[],
  zeroPoint: number | number[],
  data?: number[],
): HarnessTensorSpec => ({ type, shape, scale, zeroPoint, data });

describe('QUANTIZE float32 → integer', () => {
  it('rounds half away from zero and clamps (int8)', () => {
    const h = run(QUANTIZE, f32([0, 0.25, -0.25, 0.75, 63.5, 64, -70]), q(TensorType.INT8, [7], 0.5, -1));
    expect(h.outputArray()).toEqual([-1, 0, -2, 1, 126, 127, -128]);
  });
  it('divides in float32 (int16, uint8)', () => {
    expect(run(QUANTIZE, f32([0.5, -1, 1, -0.25]), q(TensorType.INT16, [4], 1 / 32768, 0)).outputArray()).toEqual([
      16384, -32768, 32767, -8192,
    ]);
    // float32(1/255) is slightly above 1/255: 0.5 / it = 127.49999 → 127 (the exact 1/255 would give 127.5 → 128)
    expect(run(QUANTIZE, f32([0, 1, 0.5, -0.1]), q(TensorType.UINT8, [4], 1 / 255, 0)).outputArray()).toEqual([0, 255, 127, 0]);
    // 0.1 / 0.1f in float32 is exactly 1
    expect(run(QUANTIZE, f32([Math.fround(0.1)]), q(TensorType.INT8, [1], 0.1, 0)).outputArray()).toEqual([1]);
  });
  it('reproduces x86 TFLM for values outside int32 (cvttss2si gives INT32_MIN, then the zero point wraps)', () => {
    const zp0 = run(QUANTIZE, f32([1e10, -1e10, Number.NaN]), q(TensorType.INT8, [3], 0.5, 0));
    expect(zp0.outputArray()).toEqual([-128, -128, -128]);
    const zpm1 = run(QUANTIZE, f32([1e10]), q(TensorType.INT8, [1], 0.5, -1));
    expect(zpm1.outputArray()).toEqual([127]); // INT32_MIN + (-1) wraps to INT32_MAX
  });
});

describe('QUANTIZE requantization', () => {
  it('int8 → int8 halves with double rounding and shifts the zero point', () => {
    const h = run(QUANTIZE, q(TensorType.INT8, [4], 1, 0, [3, -3, 127, -128]), q(TensorType.INT8, [4], 2, 10));
    // 1.5 → 2; -1.5 → -1 (SRDHM rounds the negative tie up); 63.5 → 64; -64
    expect(h.outputArray()).toEqual([12, 9, 74, -54]);
  });
  it('int8 ↔ uint8 with the same scale and a 128 zero-point shift flips the sign bit', () => {
    expect(run(QUANTIZE, q(TensorType.INT8, [3], 0.1, 0, [-128, 0, 127]), q(TensorType.UINT8, [3], 0.1, 128)).outputArray()).toEqual([
      0, 128, 255,
    ]);
    expect(run(QUANTIZE, q(TensorType.UINT8, [3], 0.1, 128, [0, 128, 255]), q(TensorType.INT8, [3], 0.1, 0)).outputArray()).toEqual([
      -128, 0, 127,
    ]);
  });
  it('int16 → int32 and int32 → int16 / int8', () => {
    // keyword_scrambled's last op: int16 (1/65536-ish, zp -32768) → int32 (twice the scale, zp 0)
    const h = run(QUANTIZE, q(TensorType.INT16, [3], 1 / 65536, -32768, [-32768, 0, 32767]), q(TensorType.INT32, [3], 2 / 65536, 0));
    expect(h.outputArray()).toEqual([0, 16384, 32768]); // 65535 / 2 = 32767.5 → 32768
    expect(run(QUANTIZE, q(TensorType.INT32, [3], 1, 0, [100000, -100000, 7]), q(TensorType.INT16, [3], 1, 0)).outputArray()).toEqual([
      32767, -32768, 7,
    ]);
    expect(run(QUANTIZE, q(TensorType.INT32, [2], 0.25, 0, [10, -10]), q(TensorType.INT8, [2], 1, 0)).outputArray()).toEqual([3, -3]); // ±2.5 → ±3
  });
  it('int8 → int16 and int16 → int8 scale up and down', () => {
    expect(run(QUANTIZE, q(TensorType.INT8, [2], 0.5, -1, [127, -128]), q(TensorType.INT16, [2], 1 / 256, 0)).outputArray()).toEqual([
      16384, -16256,
    ]);
    expect(run(QUANTIZE, q(TensorType.INT16, [2], 1 / 256, 0, [16384, -16256]), q(TensorType.INT8, [2], 0.5, -1)).outputArray()).toEqual([
      127, -128,
    ]);
  });
  it('rejects unsupported pairs, per-channel outputs and size mismatches', () => {
    expect(() => run(QUANTIZE, f32([1]), { type: TensorType.INT32, shape: [1], scale: 1, zeroPoint: 0 })).toThrow(
      /float32 input with int32 output/,
    );
    expect(() => run(QUANTIZE, q(TensorType.INT16, [1], 1, 0, [1]), q(TensorType.UINT8, [1], 1, 0))).toThrow(/int16 to uint8/);
    expect(() => run(QUANTIZE, f32([1, 2]), q(TensorType.INT8, [2], [1, 2], [0, 0]))).toThrow(/per-tensor/);
    expect(() => run(QUANTIZE, f32([1, 2]), q(TensorType.INT8, [3], 1, 0))).toThrow(/element count/);
    expect(() => run(QUANTIZE, f32([1]), { type: TensorType.INT8, shape: [1] })).toThrow(/needs affine quantization/);
  });
  it('does not allocate in invoke', () => {
    const h = new KernelHarness({
      registration: QUANTIZE,
      tensors: [f32([0.5, -1, 3]), q(TensorType.INT8, [3], 0.5, 2)],
      inputs: [0],
      outputs: [1],
    }).prepare();
    const ctx = { ...h.context, getEvalTensor: (i: number) => h.tensors[i]! };
    expect(leastAllocation(() => QUANTIZE.invoke(ctx, h.node))).toBeLessThan(8);
  });
});

/** Bytes per invoke, the least of three measurements (JIT tiering on a busy machine can add a few bytes to one run). */
function leastAllocation(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= 8; i++)
    best = Math.min(best, measureAllocation(fn, { warmup: 5000, trials: 5, iterations: 2000 }).bytesPerCall);
  return best;
}
