import { describe, expect, it } from 'vitest';
import { TensorType, type Registration } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { createSimdKernels } from '../create-simd-kernels.js';

const kernels = createSimdKernels();
const byName = (name: string): Registration => kernels.find((k) => k.name === name || k.name?.startsWith(name))!;

describe('ops-simd declines what it does not run, with a reason', () => {
  it.each(['CONV_2D', 'DEPTHWISE_CONV_2D', 'FULLY_CONNECTED', 'AVERAGE_POOL_2D', 'MAX_POOL_2D', 'SOFTMAX', 'ADD', 'MUL'])(
    '%s: uint8 and float32 inputs',
    (name) => {
      const reg = byName(name);
      expect(reg).toBeDefined();
      for (const [type, reason] of [
        [TensorType.UINT8, 'uint8 input (handles int8)'],
        [TensorType.FLOAT32, 'float32 input (handles int8)'],
      ] as const) {
        const t = { type, shape: [1, 2, 2, 1], scale: 0.5, zeroPoint: 3 };
        const h = new KernelHarness({ registration: reg, tensors: [t, { ...t, constant: true }, t], inputs: [0, 1], outputs: [2] });
        expect(h.supportsAnswer()).toBe(reason);
      }
    },
  );
});
