import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { StridedSliceOptions } from '@micrort/core';
import type { HarnessTensorSpec } from '@micrort/core/testing';
import { STRIDED_SLICE, endForAxis, startForAxis } from './strided-slice.js';

interface SliceCase {
  inShape: number[];
  input: number[] | bigint[];
  begin: number[];
  end: number[];
  strides: number[];
  outShape: number[];
  masks?: Partial<StridedSliceOptions>;
  type?: TensorType;
  indexSpec?: Partial<HarnessTensorSpec>;
}

function slice(c: SliceCase): KernelHarness {
  const type = c.type ?? TensorType.FLOAT32;
  const idx = (data: number[]): HarnessTensorSpec => ({
    type: TensorType.INT32,
    shape: [data.length],
    data,
    constant: true,
    ...(c.indexSpec ?? {}),
  });
  const options: StridedSliceOptions = {
    beginMask: 0,
    endMask: 0,
    ellipsisMask: 0,
    newAxisMask: 0,
    shrinkAxisMask: 0,
    offset: false,
    ...c.masks,
  };
  return new KernelHarness({
    registration: STRIDED_SLICE,
    tensors: [{ type, shape: c.inShape, data: c.input }, idx(c.begin), idx(c.end), idx(c.strides), { type, shape: c.outShape }],
    inputs: [0, 1, 2, 3],
    outputs: [4],
    builtinData: options,
  });
}

const run = (c: SliceCase) => slice(c).invoke().outputArray();
const in1d = (begin: number, end: number, stride: number, outLen: number, masks?: Partial<StridedSliceOptions>) =>
  run({ inShape: [4], input: [1, 2, 3, 4], begin: [begin], end: [end], strides: [stride], outShape: [outLen], masks });
const IN2D = [1, 2, 3, 4, 5, 6];

describe('StridedSliceStartForAxis / EndForAxis', () => {
  it('clamp to [0, size] forward and [-1, size-1] backward; masks override', () => {
    expect(startForAxis(-5, 1, 4, false)).toBe(0);
    expect(startForAxis(5, -1, 4, false)).toBe(3);
    expect(startForAxis(2, -1, 4, true)).toBe(3);
    expect(endForAxis(-5, -1, 4, 2, false, false, false)).toBe(-1);
    expect(endForAxis(1, 1, 4, 0, true, false, false)).toBe(4);
    expect(endForAxis(99, 1, 4, 2, false, true, false)).toBe(3);
    expect(endForAxis(1, 1, 4, 2, false, false, true)).toBe(3);
  });
});

describe('STRIDED_SLICE 1-D (TFLite strided_slice_test cases)', () => {
  it.each([
    ['basic', 1, 3, 1, [2, 3]],
    ['negative begin', -3, 3, 1, [2, 3]],
    ['out-of-range begin', -5, 3, 1, [1, 2, 3]],
    ['negative end', 1, -2, 1, [2]],
    ['out-of-range end', -3, 5, 1, [2, 3, 4]],
    ['negative begin, negative stride', -2, -3, -1, [3]],
    ['out-of-range begin, negative stride', 5, 2, -1, [4]],
    ['negative end, negative stride', 2, -4, -1, [3, 2]],
    ['out-of-range end, negative stride', -3, -5, -1, [2, 1]],
    ['stride 2', 0, 4, 2, [1, 3]],
    ['stride 3 from 1', 1, 4, 3, [2]],
  ] as const)('%s', (_, b, e, s, expected) => {
    expect(in1d(b, e, s, expected.length)).toEqual(expected);
  });
  it('empty output when begin is past end', () => {
    expect(in1d(10, 3, 1, 0)).toEqual([]);
  });
  it('begin_mask', () => {
    expect(in1d(1, 3, 1, 3, { beginMask: 1 })).toEqual([1, 2, 3]);
  });
  it('end_mask', () => {
    expect(in1d(1, 3, 1, 3, { endMask: 1 })).toEqual([2, 3, 4]);
  });
  it('full reversal with negative stride', () => {
    expect(run({ inShape: [3], input: [1, 2, 3], begin: [-1], end: [-4], strides: [-1], outShape: [3] })).toEqual([3, 2, 1]);
  });
  it('shrink_axis_mask gives a scalar, also from a negative begin', () => {
    expect(
      run({ inShape: [4], input: [1, 2, 3, 4], begin: [1], end: [2], strides: [1], outShape: [], masks: { shrinkAxisMask: 1 } }),
    ).toEqual([2]);
    expect(
      run({ inShape: [4], input: [0, 1, 2, 3], begin: [-1], end: [0], strides: [1], outShape: [], masks: { shrinkAxisMask: 1 } }),
    ).toEqual([3]);
  });
  it('offset: end is relative to begin', () => {
    expect(in1d(1, 2, 1, 2, { offset: true })).toEqual([2, 3]);
    expect(in1d(-3, 1, 1, 1, { offset: true })).toEqual([2]);
  });
});

describe('STRIDED_SLICE 2-D and more', () => {
  it('identity', () => {
    expect(run({ inShape: [2, 3], input: IN2D, begin: [0, 0], end: [2, 3], strides: [1, 1], outShape: [2, 3] })).toEqual(IN2D);
  });
  it('sub-block', () => {
    expect(run({ inShape: [2, 3], input: IN2D, begin: [1, 0], end: [2, 2], strides: [1, 1], outShape: [1, 2] })).toEqual([4, 5]);
  });
  it('stride 2 on both axes', () => {
    expect(run({ inShape: [2, 3], input: IN2D, begin: [0, 0], end: [2, 3], strides: [2, 2], outShape: [1, 2] })).toEqual([1, 3]);
  });
  it('negative stride on the inner axis', () => {
    expect(run({ inShape: [2, 3], input: IN2D, begin: [1, -1], end: [2, -4], strides: [2, -1], outShape: [1, 3] })).toEqual([6, 5, 4]);
  });
  it('begin_mask on axis 0, end_mask on axis 1', () => {
    expect(
      run({ inShape: [2, 3], input: IN2D, begin: [1, 0], end: [2, 2], strides: [1, 1], outShape: [2, 2], masks: { beginMask: 1 } }),
    ).toEqual([1, 2, 4, 5]);
    expect(
      run({ inShape: [2, 3], input: IN2D, begin: [1, 0], end: [2, 2], strides: [1, 1], outShape: [1, 3], masks: { endMask: 2 } }),
    ).toEqual([4, 5, 6]);
  });
  it('negative stride with begin_mask / end_mask', () => {
    expect(
      run({ inShape: [2, 3], input: IN2D, begin: [1, -2], end: [2, -4], strides: [1, -1], outShape: [1, 3], masks: { beginMask: 2 } }),
    ).toEqual([6, 5, 4]);
    expect(
      run({ inShape: [2, 3], input: IN2D, begin: [1, -2], end: [2, -3], strides: [1, -1], outShape: [1, 2], masks: { endMask: 2 } }),
    ).toEqual([5, 4]);
  });
  it('shrink both axes of a [4, 1] input from negative indices', () => {
    const c = {
      inShape: [4, 1],
      input: [0, 1, 2, 3],
      begin: [-2, -1],
      end: [-1, 0],
      strides: [1, 1],
      outShape: [],
      masks: { shrinkAxisMask: 3 },
    };
    expect(run(c)).toEqual([2]);
  });
  it('shrink axis 1 with begin/end masks on axis 0', () => {
    const c = {
      inShape: [4, 1],
      input: [0, 1, 2, 3],
      begin: [0, -1],
      end: [0, 0],
      strides: [1, 1],
      outShape: [4],
      masks: { beginMask: 1, endMask: 1, shrinkAxisMask: 2 },
    };
    expect(run(c)).toEqual([0, 1, 2, 3]);
  });
  it('3-D shrink of the first axis', () => {
    const c = {
      inShape: [2, 3, 2],
      input: Array.from({ length: 12 }, (_, i) => i + 1),
      begin: [0, 0, 0],
      end: [1, 3, 2],
      strides: [1, 1, 1],
      outShape: [3, 2],
      masks: { shrinkAxisMask: 1 },
    };
    expect(run(c)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('5-D with strides on several axes', () => {
    const input = Array.from({ length: 2 * 2 * 2 * 2 * 3 }, (_, i) => i);
    const c = {
      inShape: [2, 2, 2, 2, 3],
      input,
      begin: [1, 0, 0, 1, 2],
      end: [2, 2, 2, 2, -4],
      strides: [1, 1, 2, 1, -2],
      outShape: [1, 2, 1, 1, 2],
    };
    // index = i0*24 + i1*12 + i2*6 + i3*3 + i4, i0 = 1, i1 in {0,1}, i2 = 0, i3 = 1, i4 in {2, 0}
    expect(run(c)).toEqual([24 + 3 + 2, 24 + 3, 24 + 12 + 3 + 2, 24 + 12 + 3]);
  });
  it('int8, int16 and int32 tensors', () => {
    for (const type of [TensorType.INT8, TensorType.INT16, TensorType.INT32]) {
      expect(run({ type, inShape: [4], input: [-128, 5, 127, -1], begin: [3], end: [0], strides: [-1], outShape: [3] })).toEqual([
        -1, 127, 5,
      ]);
    }
  });
  it('int64 tensors and int64 indices', () => {
    const h = slice({
      type: TensorType.INT64,
      inShape: [3],
      input: [10n, -20n, 30n],
      begin: [],
      end: [],
      strides: [],
      outShape: [2],
      indexSpec: { type: TensorType.INT64, shape: [1] },
    });
    // override the three index tensors with int64 values
    (h.tensors[1]!.data as BigInt64Array).set([1n]);
    (h.tensors[2]!.data as BigInt64Array).set([3n]);
    (h.tensors[3]!.data as BigInt64Array).set([1n]);
    expect(Array.from(h.invoke().output<BigInt64Array>())).toEqual([-20n, 30n]);
  });
});

describe('STRIDED_SLICE prepare rejects', () => {
  const base: SliceCase = { inShape: [4], input: [1, 2, 3, 4], begin: [1], end: [3], strides: [1], outShape: [2] };
  it('a zero stride', () => {
    expect(() => slice({ ...base, strides: [0] }).prepare()).toThrow(/strides\[0\] is 0/);
  });
  it('an output shape that differs from the slice', () => {
    expect(() => slice({ ...base, outShape: [3] }).prepare()).toThrow(/does not match the slice shape \[2\]/);
  });
  it('ellipsis/new-axis masks that change the shape, naming them', () => {
    expect(() => slice({ ...base, outShape: [1, 2], masks: { newAxisMask: 1 } }).prepare()).toThrow(/new_axis_mask are not supported/);
  });
  it('non-constant begin', () => {
    expect(() => slice({ ...base, indexSpec: { constant: false } }).prepare()).toThrow(/begin tensor 1 must be constant/);
  });
  it('begin of the wrong length', () => {
    expect(() => slice({ ...base, begin: [1, 1] }).prepare()).toThrow(/begin has 2 elements, the input has 1 dimensions/);
  });
  it('a shrunk axis whose begin is past the end', () => {
    expect(() => slice({ ...base, begin: [4], end: [5], outShape: [], masks: { shrinkAxisMask: 1 } }).prepare()).toThrow(
      /must select exactly 1/,
    );
  });
  it('6-D inputs', () => {
    const six = [0, 0, 0, 0, 0, 0];
    expect(() =>
      slice({ inShape: [1, 1, 1, 1, 1, 1], input: [1], begin: six, end: six, strides: six, outShape: [1, 1, 1, 1, 1, 1] }).prepare(),
    ).toThrow(/at most 5/);
  });
});
