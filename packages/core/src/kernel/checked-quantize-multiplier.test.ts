import { describe, expect, it } from 'vitest';
import { KernelError } from '../errors.js';
import { quantizeMultiplier } from '../quant/quantize-multiplier.js';
import { quantizeMultiplierSmallerThanOneExp } from '../quant/quantization-util.js';
import type { Node } from './api.js';
import { checkedQuantizeMultiplier } from './kernel-util.js';

const node = { index: 7 } as Node;

describe('checkedQuantizeMultiplier', () => {
  it('equals quantizeMultiplier for finite multipliers', () => {
    for (const real of [0, 1e-40, 0.3, 1, 1.5, 123456.789, -0.25])
      expect(checkedQuantizeMultiplier('OP', node, real, 'x')).toEqual(quantizeMultiplier(real));
  });
  it('refuses NaN and infinities with a KernelError naming the op, node and what', () => {
    for (const real of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      let e: unknown;
      try {
        checkedQuantizeMultiplier('MUL', node, real, 'output multiplier');
      } catch (x) {
        e = x;
      }
      expect(e).toBeInstanceOf(KernelError);
      expect((e as Error).message).toBe(
        `MUL (node 7): output multiplier: effective scale ${real} is not finite (quantization scales must be non-zero and finite)`,
      );
    }
  });
  it("turns a variant's range check (RangeError) into a KernelError", () => {
    expect(() => checkedQuantizeMultiplier('ADD', node, 1.5, 'input 1 multiplier', quantizeMultiplierSmallerThanOneExp)).toThrow(
      /ADD \(node 7\): input 1 multiplier: quantizeMultiplierSmallerThanOneExp: multiplier 1.5 is not in \(0, 1\)/,
    );
  });
});
