import { describe, expect, it } from 'vitest';
import { composeRuntime, composeRuntimeAsync, loadModel, withOptions, type KernelPackage } from '@micrort/core';
import { GreedyPlanner } from '@micrort/planners';
import { APP_KERNEL_PACKAGES, BASE_PACKAGES, appRuntimePackages, loadAppKernelPackages } from './kernel-packages.js';
import { BUILT_IN_MODELS, builtInModel } from './built-in-models.js';
import { packageShares, servedLines, servedNodesOfInterpreter, type ServedNode, type ServingPackage } from './served.js';
import { nodeMacs } from './macs.js';

describe('the kernel packages the apps offer', () => {
  it('every entry loads to the package it names, and composes with the base', async () => {
    const loaded = await loadAppKernelPackages();
    expect(loaded.map((p) => [p.id, p.role, p.package?.name])).toEqual([
      ['reference', 'kernels', 'ops-reference'],
      ['simd', 'kernels', 'ops-simd'],
      ['wasm', 'kernels', 'ops-wasm'],
      ['gpu', 'delegate', 'ops-gpu'],
    ]);
    for (const p of loaded) expect(p.label).toBe(p.package!.name);
    const model = loadModel(builtInModel('demo')!.build());
    for (const p of loaded) {
      const entry = p.id === 'gpu' ? withOptions(p.package!, { mode: 'cpu' }) : p.package!;
      const rt = await composeRuntimeAsync(p.role === 'delegate' ? appRuntimePackages(null, [entry]) : appRuntimePackages(entry));
      const it = rt.createInterpreter(model, { planner: new GreedyPlanner() }).allocateTensors();
      it.invoke();
      it.dispose();
      rt.dispose();
    }
  });

  it('a package that cannot be imported is reported with the reason, not thrown', async () => {
    const [broken] = await loadAppKernelPackages([
      { id: 'broken', role: 'kernels', label: 'ops-broken', load: () => Promise.reject(new Error('Cannot find package')) },
    ]);
    expect(broken).toEqual({
      id: 'broken',
      role: 'kernels',
      label: 'ops-broken',
      package: null,
      unavailable: 'ops-broken could not be loaded (Cannot find package)',
    });
  });

  it('appRuntimePackages: the base, the package in front unless the base has it, then delegates', async () => {
    expect(appRuntimePackages()).toEqual(BASE_PACKAGES);
    const reference = await APP_KERNEL_PACKAGES[0]!.load();
    expect(appRuntimePackages(reference)).toEqual(BASE_PACKAGES);
    const simd = await APP_KERNEL_PACKAGES[1]!.load();
    const choice = withOptions(simd, { mode: 'emulated' });
    expect(appRuntimePackages(choice, [reference])).toEqual([...BASE_PACKAGES, choice, reference]);
    expect(composeRuntime(appRuntimePackages(simd)).packages.map((p) => p.name)).toEqual([
      'ops-reference',
      'ops-signal',
      'ops-mediapipe',
      'ops-coral',
      'ops-simd',
    ]);
  });
});

describe('built-in models', () => {
  it('each one builds a model that loads; names are unique', () => {
    expect(new Set(BUILT_IN_MODELS.map((m) => m.name)).size).toBe(BUILT_IN_MODELS.length);
    for (const m of BUILT_IN_MODELS) expect(loadModel(m.build()).subgraphs[0]!.operators.length).toBeGreaterThan(0);
    expect(builtInModel('nope')).toBeUndefined();
  });

  it('MACs of the weight-carrying ops from the file shapes', () => {
    const demo = loadModel(builtInModel('demo')!.build());
    // QUANTIZE, FC [32,16] → [1,32], FC [4,32] → [1,4], SOFTMAX, DEQUANTIZE
    expect(demo.subgraphs[0]!.operators.map((_, i) => nodeMacs(demo, 0, i))).toEqual([0, 32 * 16, 4 * 32, 0, 0]);
  });
});

const pkg = (name: string, join: ServingPackage['join'], provides: string[] = ['builtin-ops']): ServingPackage => ({
  name,
  provider: `@x/${name}`,
  join,
  provides,
});
const node = (index: number, op: string, provider: string | null, macs: number, declined: ServedNode['declined'] = []): ServedNode => ({
  subgraph: 0,
  index,
  op,
  provider,
  declined,
  macs,
});

describe('which package served each node', () => {
  const packages = [pkg('ops-reference', 'register'), pkg('ops-signal', 'register', ['custom-ops']), pkg('ops-wasm', 'fallback')];
  const wasmDeclines = (t: number) => [
    { provider: '@x/ops-wasm', kernel: 'CONV_2D/wasm-f32', reason: `uint8 tensor ${t} (handles float32)` },
    { provider: '@x/ops-wasm', kernel: 'CONV_2D/wasm-qs8', reason: 'uint8 input (handles int8)' },
  ];

  it('every node fell back: the package in front is named first, with what it declined and why', () => {
    const nodes = [
      node(0, 'CONV_2D', '@x/ops-reference', 900, wasmDeclines(3)),
      node(1, 'CONV_2D', '@x/ops-reference', 100, wasmDeclines(7)),
      node(2, 'RESHAPE', '@x/ops-reference', 0),
    ];
    const shares = packageShares(packages, nodes);
    expect(shares.map((s) => [s.package, s.front, s.nodes, s.macs])).toEqual([
      ['ops-reference', false, 3, 1000],
      ['ops-signal', false, 0, 0],
      ['ops-wasm', true, 0, 0],
    ]);
    expect(servedLines(shares)).toEqual([
      'served: ops-wasm 0 of 3 nodes (0.0% of MACs), ops-reference 3 of 3 (100.0% of MACs)',
      'ops-wasm: every node fell back to ops-reference — CONV_2D ×2 (uint8 tensor {3,7} (handles float32) / uint8 input (handles int8)); RESHAPE ×1 (no ops-wasm kernel for RESHAPE)',
    ]);
  });

  it('some nodes fell back, one could not run; no MAC share where the model has none', () => {
    const nodes = [
      node(0, 'ADD', '@x/ops-wasm', 0),
      node(1, 'ADD', '@x/ops-wasm', 0),
      node(2, 'CUSTOM:Foo', null, 0, [{ provider: '@x/ops-wasm', kernel: 'x', reason: 'no' }]),
    ];
    expect(servedLines(packageShares(packages, nodes))).toEqual([
      'served: ops-wasm 2 of 3 nodes',
      'ops-wasm: 1 node cannot run — CUSTOM:Foo ×1 (no)',
    ]);
  });

  it('a delegate counts the nodes it took over; the nodes of an interpreter are the model’s', () => {
    const gpu = pkg('ops-gpu', 'register', ['delegate']);
    const shares = packageShares([packages[0]!, gpu], [node(0, 'CONV_2D', '@x/ops-gpu', 10), node(1, 'RELU', '@x/ops-reference', 0)]);
    expect(servedLines(shares)).toEqual(['served: ops-gpu 1 of 2 nodes (100.0% of MACs), ops-reference 1 of 2 (0.0% of MACs)']);
    const model = loadModel(builtInModel('demo')!.build());
    const reference: KernelPackage = BASE_PACKAGES[0]!;
    const rt = composeRuntime([reference]);
    const it = rt.createInterpreter(model, { planner: new GreedyPlanner() }).allocateTensors();
    const served = servedNodesOfInterpreter(it, model);
    expect(served.map((n) => [n.index, n.op, n.provider])).toEqual([
      [0, 'QUANTIZE', '@micrort/ops-reference'],
      [1, 'FULLY_CONNECTED', '@micrort/ops-reference'],
      [2, 'FULLY_CONNECTED', '@micrort/ops-reference'],
      [3, 'SOFTMAX', '@micrort/ops-reference'],
      [4, 'DEQUANTIZE', '@micrort/ops-reference'],
    ]);
  });
});
