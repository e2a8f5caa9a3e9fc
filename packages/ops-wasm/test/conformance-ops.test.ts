/**
 * The per-operator conformance suite (../shared/conformance-ops) with ops-wasm in front of ops-reference,
 * the arena in WebAssembly memory, as `--ops wasm` composes it, in every variant of test/variants.ts (one
 * thread; the threaded build on two): every case must equal TFLM's outputs (integers byte for byte,
 * float32 within 1e-5 + 1e-4*|expected|), whichever package runs the operator under test. The table
 * printed at the end counts the cases ops-wasm runs and names why it leaves the others to ops-reference
 * (`op not provided: falls back to ops-reference`, or its `supports()` reason). The cases of SERVED must run
 * on ops-wasm.
 */
import { afterAll, expect } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { hasConformanceOps } from '@micrort/test-support/conformance';
import { describeConformanceOps, kernelHandling } from '@micrort/test-support/conformance-ops-suite';
import { PROVIDER } from '../src/index.js';
import { VARIANTS, loadVariants } from './variants.js';

// every layer, however small (single-operator models are small): these check the kernels
/** Cases whose operator under test ops-wasm must run (not leave to ops-reference). */
const SERVED = new Set([
  'batch_matmul_f32',
  'batch_matmul_f32_adj_bcast',
  'batch_matmul_int8_const_rhs',
  'batch_matmul_int16',
  'conv_2d_int16x8_same',
  'conv_2d_int16x8_stride2_int32_bias',
  'depthwise_conv_2d_int16x8_dm2',
  'fully_connected_int16',
  'fully_connected_int16_int32_bias',
]);

const handling = kernelHandling(PROVIDER);

const loaded = hasConformanceOps ? await loadVariants({ minMacs: 0 }) : [];
afterAll(() => loaded.forEach((l) => l.wasm.dispose()));

for (const { variant, wasm } of loaded.length ? loaded : [{ variant: VARIANTS[0]!, wasm: null }]) {
  describeConformanceOps({
    label: `ops-wasm (${variant.name})`,
    provider: PROVIDER,
    resolver: () => registerSignalOps(registerReferenceOps(new OpResolver())).registerAll(wasm!.kernels, { fallback: true }),
    ...(wasm ? { arenaBacking: wasm.arenaBacking } : {}),
    handling: (c) => {
      const h = handling(c);
      if (SERVED.has(c.name)) expect(h, `${c.name} must run on ops-wasm`).toEqual({ taken: true });
      return h;
    },
  });
}
