import { describe, expect, it } from 'vitest';
import { KernelError, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { dimProduct, int64At, int64Low32At, resolveAxis, setInt64FromInt32, typeSupport } from './data-common.js';
import { SHAPE } from './shape.js';

const bytesOf = (values: bigint[]) => new Uint8Array(BigInt64Array.from(values).buffer);

describe('data-common', () => {
  it('reads int64 elements from raw bytes without BigInt (exact within 2^53), and their low 32 bits', () => {
    const b = bytesOf([0n, -1n, 2n ** 53n - 1n, -(2n ** 40n) - 5n, 2n ** 32n + 7n]);
    expect([0, 1, 2, 3, 4].map((i) => int64At(b, i))).toEqual([0, -1, 2 ** 53 - 1, -(2 ** 40) - 5, 2 ** 32 + 7]);
    expect(int64Low32At(b, 4)).toBe(7);
    expect(int64Low32At(b, 1)).toBe(-1);
  });

  it('writes an int32 as a sign-extended int64', () => {
    const out = new BigInt64Array(2);
    const b = new Uint8Array(out.buffer);
    setInt64FromInt32(b, 0, -5);
    setInt64FromInt32(b, 1, 2147483647);
    expect(Array.from(out)).toEqual([-5n, 2147483647n]);
  });

  it('resolves negative axes and names an out-of-range one', () => {
    const node = new KernelHarness({ registration: SHAPE, tensors: [{ type: TensorType.INT32, shape: [1] }], inputs: [0], outputs: [0] })
      .node;
    expect(resolveAxis('OP', node, -1, 3)).toBe(2);
    expect(() => resolveAxis('OP', node, 3, 3)).toThrow(KernelError);
    expect(() => resolveAxis('OP', node, -4, 3)).toThrow(/axis -4 is out of range for a 3-D tensor \(valid: -3\.\.2\)/);
    expect(dimProduct([2, 3, 4], 1)).toBe(12);
    expect(dimProduct([2, 3, 4], 1, 1)).toBe(1);
  });

  it('supports() answers name the declined type and what is handled; missing tensors are left to prepare', () => {
    const h = new KernelHarness({
      registration: SHAPE,
      tensors: [
        { type: TensorType.INT16, shape: [1] },
        { type: TensorType.INT32, shape: [1] },
      ],
      inputs: [0],
      outputs: [1],
    });
    const ctx = { ...h.context, getTensor: (i: number) => h.tensors[i]! } as typeof h.context;
    expect(typeSupport(ctx, h.node, [TensorType.FLOAT32, TensorType.INT8])).toBe('int16 input (handles float32, int8)');
    expect(typeSupport(ctx, h.node, [TensorType.INT32], 0, 'output')).toBe(true);
    expect(typeSupport(ctx, h.node, [TensorType.INT32], 5)).toBe(true);
  });
});
