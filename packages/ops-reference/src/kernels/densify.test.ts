import { describe, expect, it } from 'vitest';
import { AllocationType, KernelError, TensorType, type SparsityDef } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { DENSIFY } from './densify.js';
import { denseToSparse, type SparseSpec } from './__fixtures__/sparse-testing.js';
import { lcg } from './__fixtures__/conv-testing.js';

function harness(type: TensorType, shape: number[], sparsity: SparsityDef, values: number[], outShape = shape): KernelHarness {
  const input: HarnessTensorSpec = { type, shape, data: values, constant: true, sparsity };
  return new KernelHarness({ registration: DENSIFY, tensors: [input, { type, shape: outShape }], inputs: [0], outputs: [1] });
}

/** A random tensor with about `density` of its values non-zero (small integers, exact in every type). */
function randomDense(next: () => number, n: number, density: number): number[] {
  return Array.from({ length: n }, () => (next() < density ? 1 + Math.floor(next() * 100) * (next() < 0.5 ? -1 : 1) : 0));
}

const CASES: [string, number[], SparseSpec][] = [
  ['2-D CSR (rows dense, columns sparse)', [6, 9], { sparse: [false, true] }],
  ['2-D CSR traversed column-major', [5, 7], { order: [1, 0], sparse: [false, true] }],
  ['2-D doubly sparse', [8, 8], { sparse: [true, true] }],
  ['1x4 blocks (TFLite sparse FULLY_CONNECTED weights)', [4, 16], { blockMap: [1], blockSizes: [4], sparse: [false, true, false] }],
  ['2x2 blocks over both dimensions', [6, 4], { blockMap: [0, 1], blockSizes: [2, 2], sparse: [false, true, false, false] }],
  ['4-D conv weights, last dimension sparse (MediaPipe)', [8, 1, 1, 32], { sparse: [false, false, false, true] }],
];

describe('DENSIFY (TFLite FormatConverter::SparseToDense)', () => {
  it.each(CASES)('%s: densified in prepare into a persistent output equal to the dense tensor', (_, shape, spec) => {
    const next = lcg(shape.reduce((a, b) => a * 31 + b, 7));
    const n = shape.reduce((a, b) => a * b, 1);
    for (const density of [0, 0.1, 0.4, 1]) {
      const dense = randomDense(next, n, density);
      const { sparsity, values } = denseToSparse(dense, shape, spec);
      const h = harness(TensorType.FLOAT32, shape, sparsity, values);
      h.prepare();
      expect(h.tensors[1]!.allocationType).toBe(AllocationType.ArenaRwPersistent);
      expect(Array.from(h.tensors[1]!.data as Float32Array)).toEqual(dense);
      (h.tensors[1]!.data as Float32Array)[0] = 1234; // invoke must leave the output alone
      h.invoke();
      expect((h.tensors[1]!.data as Float32Array)[0]).toBe(1234);
    }
  });

  it('copies float16 bits and int8 values as they are', () => {
    const dense = [0, 0x3c00, 0, 0x7e01, 0xfbff, 0, 0, 0];
    const { sparsity, values } = denseToSparse(dense, [2, 4], { sparse: [false, true] });
    expect(values).toEqual([0x3c00, 0x7e01, 0xfbff]);
    expect(Array.from(harness(TensorType.FLOAT16, [2, 4], sparsity, values).invoke().tensors[1]!.data as Uint16Array)).toEqual(dense);
    const i8 = [0, -128, 0, 127, 5, 0];
    const s8 = denseToSparse(i8, [3, 2], { sparse: [true, true] });
    expect(harness(TensorType.INT8, [3, 2], s8.sparsity, s8.values).invoke().outputArray()).toEqual(i8);
  });

  it('declines dense inputs and other types with a reason; checks the output', () => {
    const dense = new KernelHarness({
      registration: DENSIFY,
      tensors: [
        { type: TensorType.FLOAT32, shape: [2], data: [1, 2], constant: true },
        { type: TensorType.FLOAT32, shape: [2] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(dense.supportsAnswer()).toBe('input (tensor 0) is not sparse');
    const { sparsity, values } = denseToSparse([1, 0, 0, 2], [2, 2], { sparse: [false, true] });
    expect(harness(TensorType.INT32, [2, 2], sparsity, values).supportsAnswer()).toBe('int32 input (handles float32, float16, int8)');
    expect(() => harness(TensorType.FLOAT32, [2, 2], sparsity, values, [4]).prepare()).toThrow(
      /output shape \[4\] differs from the input's dense shape \[2, 2\]/,
    );
    expect(() => harness(TensorType.FLOAT32, [2, 2], sparsity, values.slice(1)).prepare()).toThrow(KernelError);
  });
});
