import { referenceKernels } from '@micrort/ops-reference';
import { describe, expect, it } from 'vitest';
import { createWasmKernels } from '../create-wasm-kernels.js';

describe('spatial behaviour (the patch schedule) of ops-wasm registrations', () => {
  it('every op ops-reference declares pointwise or windowed is declared by ops-wasm too (the hybrid kernels excepted)', () => {
    const declared = new Set(referenceKernels.filter((r) => r.spatial).map((r) => r.builtinCode));
    const missing = createWasmKernels()
      .filter((r) => declared.has(r.builtinCode) && !r.spatial && !/hybrid/i.test(r.name ?? ''))
      .map((r) => r.name);
    expect(missing).toEqual([]);
    // and the list is not empty: the float and int8 elementwise registrations, the convolutions, the pools, PAD
    expect(createWasmKernels().filter((r) => r.spatial).length).toBeGreaterThan(30);
  });
});
