/**
 * Runs only in test/relaxed.test.ts's child (MICRORT_WASM_RELAXED=1, Node with
 * --experimental-wasm-relaxed-simd): the loader takes the relaxed build, the probe says what the
 * engine's relaxed dot computes, and the int8 GEMM takes the relaxed-dot tile only where that is exact
 * (Node 20's V8 returns twice the sum, so here it keeps dot_i16x8; Chromium's usdot tile is checked by
 * test/browser.test.ts). The kernel tests of the child run compare the relaxed build with ops-reference.
 */
import { describe, expect, it } from 'vitest';
import { RELAXED_RUN } from './variants.js';
import { loadWasmKernelsSync, probeRelaxedDot } from '../src/index.js';

describe.skipIf(!RELAXED_RUN)('relaxed builds in this engine', () => {
  it('loads the relaxed build and probes the relaxed dot product', () => {
    const w = loadWasmKernelsSync({ threads: 1 });
    expect(w.features.relaxedSimd).toBe(true);
    expect(w.variant).toBe('relaxed');
    const dot = probeRelaxedDot();
    expect(['usdot', 'sdot', 'none']).toContain(dot);
    expect(w.relaxedDot).toBe(dot);
    console.log(`relaxed dot in this engine: ${dot}`);
  });
});
if (!RELAXED_RUN) it.skip('relaxed builds: run by test/relaxed.test.ts in a child Node with --experimental-wasm-relaxed-simd', () => {});
