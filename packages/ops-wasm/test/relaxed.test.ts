/**
 * The relaxed-SIMD builds: Node 20 has relaxed SIMD only behind --experimental-wasm-relaxed-simd, so
 * this runs the conformance suites, the float CNNs and the randomized kernel tests again in a child
 * Node started with the flag (vitest's threads pool shares the process's V8 flags) and
 * MICRORT_WASM_RELAXED=1, where test/variants.ts and the kernel tests load the relaxed builds (one
 * thread, and two with every splittable node split). Also checks the probe of the relaxed dot product.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RELAXED_RUN } from './variants.js';
import { hasRelaxedSimd, loadWasmKernelsSync, probeRelaxedDot } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..');
const FILES = [
  'packages/ops-wasm/test/conformance.test.ts',
  'packages/ops-wasm/test/conformance-ops.test.ts',
  'packages/ops-wasm/test/float.test.ts',
  'packages/ops-wasm/test/relaxed-kernels.test.ts',
  'packages/ops-wasm/src/kernels/conv-2d.test.ts',
  'packages/ops-wasm/src/kernels/depthwise-conv-2d.test.ts',
  'packages/ops-wasm/src/kernels/fully-connected.test.ts',
  'packages/ops-wasm/src/kernels/svdf.test.ts',
  'packages/ops-wasm/test/svdf-models.test.ts',
  'packages/ops-wasm/src/kernels/float/conv-2d.test.ts',
  'packages/ops-wasm/src/kernels/float/depthwise-conv-2d.test.ts',
  'packages/ops-wasm/src/kernels/float/fully-connected.test.ts',
  // the other float kernels: the relaxed builds' module serves them too
  'packages/ops-wasm/src/kernels/float/activations.test.ts',
  'packages/ops-wasm/src/kernels/float/binary.test.ts',
  'packages/ops-wasm/src/kernels/float/mean.test.ts',
  'packages/ops-wasm/src/kernels/float/pooling.test.ts',
  'packages/ops-wasm/src/kernels/float/resize-bilinear.test.ts',
  'packages/ops-wasm/src/kernels/float/svdf.test.ts',
  'packages/ops-wasm/src/kernels/float/unidirectional-sequence-lstm.test.ts',
  'packages/ops-wasm/test/lstm-f32.test.ts',
  'packages/ops-wasm/src/kernels/hybrid/hybrid.test.ts',
  'packages/ops-wasm/src/kernels/hybrid/unidirectional-sequence-lstm.test.ts',
  'packages/ops-wasm/test/hybrid-lstm.test.ts',
];

describe.skipIf(RELAXED_RUN)('ops-wasm relaxed-SIMD builds (a child Node with --experimental-wasm-relaxed-simd)', () => {
  it('this Node has no relaxed SIMD without the flag: the loader picks the SIMD128 build', () => {
    expect(hasRelaxedSimd((b) => WebAssembly.validate(b))).toBe(false);
    expect(loadWasmKernelsSync({ threads: 1 }).variant).toBe('simd');
    expect(probeRelaxedDot()).toBe('none');
    expect(() => loadWasmKernelsSync({ threads: 1, relaxed: true })).toThrow(/lacks relaxed SIMD/);
  });

  it('every conformance suite and kernel test passes on the relaxed builds', () => {
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const res = spawnSync(
      process.execPath,
      ['--experimental-wasm-relaxed-simd', '--no-concurrent-recompilation', vitest, 'run', '--pool', 'threads', ...FILES],
      {
        cwd: root,
        env: { ...process.env, MICRORT_WASM_RELAXED: '1', CI: 'true', FORCE_COLOR: '0' },
        encoding: 'utf8',
        timeout: 600_000,
      },
    );
    // eslint-disable-next-line no-control-regex
    const out = `${res.stdout}\n${res.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
    const summary = out.split('\n').filter((l) => /Test Files|Tests |relaxed dot|nodes on ops-wasm|cases pass/.test(l));
    console.log(`relaxed child run:\n${summary.join('\n')}`);
    expect(res.status, out.slice(-4000)).toBe(0);
    expect(out).toMatch(/Tests\s+\d+ passed/);
  }, 600_000); // the child's own limit (spawnSync's timeout): it runs ~1,500 tests, over two minutes on a loaded machine
});
