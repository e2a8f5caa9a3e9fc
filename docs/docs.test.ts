/**
 * The docs' examples are real files (docs/examples) embedded in the markdown as ```ts example:<file>
 * blocks; a package's own sources are embedded as ```<lang> source:<path from the repository root>
 * blocks. This test checks every embedded block equals its file and runs each example.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main as composePlain } from './examples/compose-plain.js';
import { main as composeDi } from './examples/compose-di.js';
import { main as customKernel } from './examples/custom-kernel.js';
import { main as delegateFuser } from './examples/delegate-fuser.js';
import { main as delegateGpu } from './examples/delegate-gpu.js';
import { main as mediapipeOps } from './examples/mediapipe-ops.js';
import { main as mediapipeKernelTest } from './examples/mediapipe-kernel-test.js';
import { main as liteRun } from './examples/lite-run.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('docs', () => {
  it('every embedded example equals its file', () => {
    let blocks = 0;
    for (const md of readdirSync(here).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(here, md), 'utf8');
      for (const m of text.matchAll(/```ts example:(\S+)\n([\s\S]*?)```\n/g)) {
        blocks++;
        expect(m[2], `${md}: block for ${m[1]}`).toBe(readFileSync(join(here, 'examples', m[1]!), 'utf8'));
      }
    }
    expect(blocks).toBeGreaterThanOrEqual(4);
  });

  it('every embedded package source equals its file', () => {
    let blocks = 0;
    for (const md of readdirSync(here).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(here, md), 'utf8');
      for (const m of text.matchAll(/```\w+ source:(\S+)\n([\s\S]*?)```\n/g)) {
        blocks++;
        expect(m[2], `${md}: block for ${m[1]}`).toBe(readFileSync(join(here, '..', m[1]!), 'utf8'));
      }
    }
    expect(blocks).toBeGreaterThanOrEqual(3);
  });

  it('compose-plain runs: composeRuntime puts ops-simd in front, ops-reference serves the float ADD', () => {
    expect(composePlain()).toEqual({
      y: [11, 22, 33, 44],
      providers: ['@micrort/ops-reference'],
      packages: ['ops-reference (register)', 'ops-simd (fallback)'],
    });
  });

  it('lite-run: named outputs; the inputs survive invoke() in @micrort/lite, not TFLM-style', async () => {
    const r = await liteRun();
    expect(r.lite).toEqual([
      [4, 5, 6, 7],
      [4, 5, 6, 7],
    ]);
    expect(r.tflm).toEqual([
      [4, 5, 6, 7],
      [6, 7, 8, 9],
    ]);
    expect(r.kernels).toEqual(['ops-reference', 'ops-signal', 'ops-mediapipe', 'ops-wasm']);
  });

  it('compose-di swaps the planner per deployment', () => {
    const [greedy, linear] = composeDi();
    expect(greedy!.planner).toBe('greedy');
    expect(linear!.planner).toBe('linear');
    expect(linear!.headBytes).toBeGreaterThan(greedy!.headBytes);
    expect(greedy!.y).toEqual([2, 13, -1]);
    expect(linear!.y).toEqual(greedy!.y);
  });

  it('the third-party custom kernel runs inside a model made by the writer', () => {
    expect(customKernel()).toEqual([-2, -1, 0, 3, 4]);
  });

  it('the MediaPipe ops run next to the reference kernels (worked example of a kernel package)', () => {
    const r = mediapipeOps();
    // each input pixel x stamps x * [[1, -1], [2, 0]] + 0.5 into its own 2x2 block (hand-computed)
    expect(r.logits).toEqual([1.5, -0.5, 2.5, -1.5, 2.5, 0.5, 4.5, 0.5, -0.5, 1.5, 0.5, 0.5, -1.5, 0.5, 0.5, 0.5]);
    r.mask.forEach((v, i) => expect(v).toBeCloseTo(1 / (1 + Math.exp(-r.logits[i]!)), 6));
    expect(r.argmax).toEqual([2, 2, 1, 0]);
    expect(r.kernels).toEqual([
      'Convolution2DTransposeBias (@micrort/ops-mediapipe)',
      'LOGISTIC (@micrort/ops-reference)',
      'MaxPoolingWithArgmax2D (@micrort/ops-mediapipe)',
    ]);
  });

  it('the kernel-test example: hand-computed values and agreement with TRANSPOSE_CONV', () => {
    const r = mediapipeKernelTest();
    expect(r.handComputed).toEqual([
      1.5, 10.5, 2.5, 20.5, 100.5, 1000.5, 200.5, 2000.5, 3.5, 30.5, 4.5, 40.5, 300.5, 3000.5, 400.5, 4000.5,
    ]);
    expect(r.maxDifference).toBeLessThan(1e-5);
    expect(r.persistentBytes).toBe(0);
  });

  it('the worked delegate example fuses MUL, ADD, RELU into one node and matches the CPU', () => {
    const r = delegateFuser();
    expect(r.partitions).toEqual([
      { delegate: 'fuser', nodeIndex: 4, nodes: [0, 1, 2], inputTensors: [0, 1, 2], outputTensors: [5], internalTensors: [3, 4] },
    ]);
    expect(r.plan).toEqual(['DELEGATE:fuser', 'SOFTMAX']);
    expect(r.y).toEqual(r.yCpu);
    expect(r.plannedBytes).toEqual({ cpu: 80, fused: 48 });
  });

  it('the GPU delegate example runs the float CNN as one partition', () => {
    const r = delegateGpu();
    expect(r.mode).toBe('cpu');
    expect(r.partitions).toEqual([Array.from({ length: 16 }, (_, i) => i)]);
    expect(r.leftOnCpu).toEqual([]);
    expect(r.y.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });
});
