import { describe, expect, it } from 'vitest';
import { KernelHarness, TensorType, type HarnessTensorSpec } from '@micrort/core';
import { DEQUANTIZE } from './dequantize.js';

function run(reg: typeof DEQUANTIZE, input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: reg, tensors: [input, output], inputs: [0], outputs: [1] }).invoke();
}
const f32 = (data?: number[], shape = [data?.length ?? 1]): HarnessTensorSpec => ({ type: TensorType.FLOAT32, shape, data });
const q = (type: TensorType, shape: number[], scale: number | number[], zeroPoint: number | number[], data?: number[]): HarnessTensorSpec => ({ type, shape, scale, zeroPoint, data });

describe('DEQUANTIZE', () => {
  it('computes scale * (q - zero_point) in float32 for int8, uint8 and int16', () => {
    expect(run(DEQUANTIZE, q(TensorType.INT8, [3], 0.5, -1, [-128, -1, 127]), f32(undefined, [3])).outputArray()).toEqual([-63.5, 0, 64]);
    expect(run(DEQUANTIZE, q(TensorType.UINT8, [2], 0.25, 128, [0, 255]), f32(undefined, [2])).outputArray()).toEqual([-32, 31.75]);
    const h = run(DEQUANTIZE, q(TensorType.INT16, [2], 0.1, 0, [3, -32768]), f32(undefined, [2]));
    expect(h.outputArray()).toEqual([Math.fround(Math.fround(0.1) * 3), Math.fround(Math.fround(0.1) * -32768)]);
  });
  it('rejects per-channel inputs and non-float outputs', () => {
    expect(() => run(DEQUANTIZE, q(TensorType.INT8, [2], [0.5, 0.25], [0, 0], [1, 2]), f32(undefined, [2]))).toThrow(/per-tensor/);
    expect(() => run(DEQUANTIZE, q(TensorType.INT8, [2], 0.5, 0, [1, 2]), { type: TensorType.INT32, shape: [2] })).toThrow(/unsupported output type int32/);
    expect(() => run(DEQUANTIZE, f32([1]), f32(undefined, [1]))).toThrow(/unsupported input type float32/);
  });
});
