import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { Registration } from '@micrort/core';
import type { HarnessTensorSpec } from '@micrort/core/testing';
import { PAD } from './pad.js';
import { PADV2 } from './pad-v2.js';

function pad(
  type: TensorType,
  inShape: number[],
  input: number[],
  paddings: number[],
  outShape: number[],
  opts: {
    q?: { scale: number; zeroPoint: number };
    value?: HarnessTensorSpec;
    reg?: Registration;
    paddingsSpec?: Partial<HarnessTensorSpec>;
  } = {},
): KernelHarness {
  const tensors: HarnessTensorSpec[] = [
    { type, shape: inShape, data: input, ...(opts.q ?? {}) },
    { type: TensorType.INT32, shape: [inShape.length, 2], data: paddings, constant: true, ...(opts.paddingsSpec ?? {}) },
    { type, shape: outShape, ...(opts.q ?? {}) },
  ];
  const inputs = [0, 1];
  if (opts.value) {
    tensors.push(opts.value);
    inputs.push(3);
  }
  return new KernelHarness({ registration: opts.reg ?? PAD, tensors, inputs, outputs: [2], builtinData: {} });
}

describe('PAD uint8 (TFLite pad.cc EvalInt)', () => {
  it("pads with the output zero point, or PADV2's value, which must be quantized like the output", () => {
    const q = { scale: 0.5, zeroPoint: 133 };
    expect(pad(TensorType.UINT8, [2], [7, 255], [1, 2], [5], { q }).invoke().outputArray()).toEqual([133, 7, 255, 133, 133]);
    const value = { type: TensorType.UINT8, shape: [], data: [9], constant: true, ...q };
    expect(pad(TensorType.UINT8, [2], [7, 255], [0, 1], [3], { q, value, reg: PADV2 }).invoke().outputArray()).toEqual([7, 255, 9]);
    expect(() => pad(TensorType.UINT8, [2], [7, 255], [0, 1], [3], { q, value: { ...value, zeroPoint: 0 }, reg: PADV2 }).prepare()).toThrow(
      /must equal/,
    );
  });
});

describe('PAD', () => {
  it('float32 2-D pads with 0', () => {
    const out = pad(TensorType.FLOAT32, [2, 3], [1, 2, 3, 4, 5, 6], [1, 0, 0, 2], [3, 5]).invoke().outputArray();
    expect(out).toEqual([0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0]);
  });

  it('int8 4-D H,W padding uses the output zero point (mobilenet-style)', () => {
    const q = { scale: 0.02, zeroPoint: -14 };
    const out = pad(TensorType.INT8, [1, 2, 2, 1], [1, 2, 3, 4], [0, 0, 1, 1, 1, 1, 0, 0], [1, 4, 4, 1], { q }).invoke().outputArray();
    const z = -14;
    expect(out).toEqual([z, z, z, z, z, 1, 2, z, z, 3, 4, z, z, z, z, z]);
  });

  it('int8 channel padding on the innermost axis', () => {
    const q = { scale: 1, zeroPoint: 3 };
    const out = pad(TensorType.INT8, [1, 1, 2, 2], [1, 2, 5, 6], [0, 0, 0, 0, 0, 0, 1, 2], [1, 1, 2, 5], { q }).invoke().outputArray();
    expect(out).toEqual([3, 1, 2, 3, 3, 3, 5, 6, 3, 3]);
  });

  it('int16 and int32 pad with 0', () => {
    expect(
      pad(TensorType.INT16, [2], [-32768, 32767], [2, 1], [5], { q: { scale: 1, zeroPoint: 0 } })
        .invoke()
        .outputArray(),
    ).toEqual([0, 0, -32768, 32767, 0]);
    expect(pad(TensorType.INT32, [1, 2], [-7, 2147483647], [1, 1, 0, 1], [3, 3]).invoke().outputArray()).toEqual([
      0, 0, 0, -7, 2147483647, 0, 0, 0, 0,
    ]);
  });

  it('5-D input, padding the first and last axes', () => {
    const out = pad(TensorType.FLOAT32, [1, 1, 1, 1, 2], [8, 9], [1, 0, 0, 0, 0, 0, 0, 0, 0, 1], [2, 1, 1, 1, 3]).invoke().outputArray();
    expect(out).toEqual([0, 0, 0, 8, 9, 0]);
  });

  it('int64 paddings tensor', () => {
    const h = pad(TensorType.FLOAT32, [2], [1, 2], [], [4], {
      paddingsSpec: { type: TensorType.INT64, shape: [1, 2], data: [1n, 1n] },
    });
    expect(h.invoke().outputArray()).toEqual([0, 1, 2, 0]);
  });

  it('zero paddings copy the input', () => {
    expect(pad(TensorType.INT32, [2, 2], [1, 2, 3, 4], [0, 0, 0, 0], [2, 2]).invoke().outputArray()).toEqual([1, 2, 3, 4]);
  });

  describe('prepare rejects', () => {
    it('negative paddings', () => {
      expect(() => pad(TensorType.FLOAT32, [3], [1, 2, 3], [-1, 0], [2]).prepare()).toThrow(/paddings of axis 0 are \[-1, 0\]/);
    });
    it('an output dim that is not input + paddings', () => {
      expect(() => pad(TensorType.FLOAT32, [3], [1, 2, 3], [1, 1], [4]).prepare()).toThrow(/output dim 0 is 4, expected 3 \+ 1 \+ 1 = 5/);
    });
    it('non-constant paddings', () => {
      expect(() => pad(TensorType.FLOAT32, [3], [1, 2, 3], [1, 1], [5], { paddingsSpec: { constant: false } }).prepare()).toThrow(
        /must be constant/,
      );
    });
    it('a paddings tensor of the wrong size', () => {
      expect(() =>
        pad(TensorType.FLOAT32, [3], [1, 2, 3], [], [5], { paddingsSpec: { shape: [1, 3], data: [1, 1, 0] } }).prepare(),
      ).toThrow(/expected \[1, 2\]/);
    });
    it('6-D inputs', () => {
      expect(() => pad(TensorType.FLOAT32, [1, 1, 1, 1, 1, 1], [1], new Array(12).fill(0), [1, 1, 1, 1, 1, 1]).prepare()).toThrow(
        /at most 5/,
      );
    });
    it('uint16', () => {
      expect(() => pad(TensorType.UINT16, [1], [1], [0, 0], [1]).prepare()).toThrow(/unsupported input type uint16/);
    });
  });
});

describe('PADV2', () => {
  it('float32 with constant_values -1.5', () => {
    const value: HarnessTensorSpec = { type: TensorType.FLOAT32, shape: [], data: [-1.5], constant: true };
    const out = pad(TensorType.FLOAT32, [1, 2], [1, 2], [0, 1, 1, 0], [2, 3], { value, reg: PADV2 }).invoke().outputArray();
    expect(out).toEqual([-1.5, 1, 2, -1.5, -1.5, -1.5]);
  });

  it('int8 with constant_values in the output quantization', () => {
    const q = { scale: 0.5, zeroPoint: 2 };
    const value: HarnessTensorSpec = { type: TensorType.INT8, shape: [1], data: [-100], ...q };
    const out = pad(TensorType.INT8, [2], [5, 6], [1, 1], [4], { q, value, reg: PADV2 }).invoke().outputArray();
    expect(out).toEqual([-100, 5, 6, -100]);
  });

  it('rejects int8 constant_values with another quantization', () => {
    const q = { scale: 0.5, zeroPoint: 2 };
    const value: HarnessTensorSpec = { type: TensorType.INT8, shape: [1], data: [0], scale: 0.5, zeroPoint: 0 };
    expect(() => pad(TensorType.INT8, [2], [5, 6], [1, 1], [4], { q, value, reg: PADV2 }).prepare()).toThrow(
      /PADV2 \(node 0\): constant_values/,
    );
  });

  it('rejects a non-scalar constant_values', () => {
    const value: HarnessTensorSpec = { type: TensorType.INT32, shape: [2], data: [1, 2] };
    expect(() => pad(TensorType.INT32, [2], [5, 6], [1, 1], [4], { value, reg: PADV2 }).prepare()).toThrow(/must be a scalar/);
  });
});
