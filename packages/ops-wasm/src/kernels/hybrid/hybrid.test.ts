import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  type ModelDef,
  type Registration,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { createWasmKernels } from '../../create-wasm-kernels.js';
import { PROVIDER } from '../../provider.js';
import { wasm } from '../../__tests__/single-op.js';
import {
  buildHybridBatchMatMul,
  buildHybridConv,
  buildHybridFullyConnected,
  compareBitExact,
  randomHybridConvCase,
} from '../../__tests__/single-op-hybrid.js';
import { buildTransposeConvHybrid, randomTransposeConvCase } from '../../__tests__/single-op-tconv.js';

// ops-reference's hybrid kernels are TFLite's arithmetic (checked against TFLite 2.9 in ops-reference's
// test/hybrid-vs-tflite.test.ts); the int32 accumulations are exact and ops-wasm applies the float32
// steps in the same order, so the outputs must be equal to the bit, not within a tolerance.
describe('hybrid CONV_2D (wasm) equals ops-reference bit for bit', () => {
  it('on 150 random odd shapes: strides, dilation, SAME/VALID, batches 1-3, per-tensor / per-channel / equal per-channel / uint8 weights, every clamp activation, zero and one-signed rows', () => {
    let ran = 0;
    const scales = new Set<string>();
    const activations = new Set<number>();
    for (let seed = 1; ran < 150; seed++) {
      const c = randomHybridConvCase(seed, false);
      const m = buildHybridConv(c);
      if (!m) continue;
      expect(compareBitExact(m.def, [m.input], 1), JSON.stringify(c)).toBeNull();
      scales.add(c.scales);
      activations.add(c.activation);
      ran++;
    }
    expect([scales.size, activations.size]).toEqual([4, 4]); // tensor, channel, channel-equal, uint8; NONE, RELU, RELU6, RELU_N1_TO_1
  });
});

describe('hybrid DEPTHWISE_CONV_2D (wasm) equals ops-reference bit for bit', () => {
  it('on 150 random odd shapes: depth multipliers 1-3, one input channel, strides, dilation, SAME/VALID, per-tensor / per-channel weights, every clamp activation', () => {
    let ran = 0;
    let oneChannel = 0;
    let multiplied = 0;
    for (let seed = 1; ran < 150; seed++) {
      const c = randomHybridConvCase(seed, true);
      const m = buildHybridConv(c);
      if (!m) continue;
      expect(compareBitExact(m.def, [m.input], 1), JSON.stringify(c)).toBeNull();
      if (c.inC === 1 && c.outC > 1) oneChannel++;
      if (c.multiplier > 1 && c.inC > 1) multiplied++;
      ran++;
    }
    expect(oneChannel).toBeGreaterThan(5);
    expect(multiplied).toBeGreaterThan(20);
  });

  it('on 60 random 3x3 cases with rows of pixels inside the input (the run3x3 path, raw accumulators): depth multiplier 1, strides 1-2, dilation, SAME / VALID', () => {
    let ran = 0;
    for (let seed = 1; ran < 60; seed++) {
      const c = { ...randomHybridConvCase(seed, true), multiplier: 1, kH: 3, kW: 3, inH: 4 + (seed % 9), inW: 3 + ((seed * 5) % 11) };
      c.outC = c.inC;
      const m = buildHybridConv(c);
      if (!m) continue;
      expect(compareBitExact(m.def, [m.input], 1), JSON.stringify(c)).toBeNull();
      ran++;
    }
  });
});

describe('hybrid FULLY_CONNECTED (wasm) equals ops-reference bit for bit', () => {
  it('on 200 random shapes: batches 1-6, symmetric and asymmetric inputs, per-tensor / per-channel / uint8 weights, every fused activation, keep_num_dims, all-zero inputs', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) {
      const m = buildHybridFullyConnected(seed);
      expect(compareBitExact(m.def, [m.input], 1), m.desc).toBeNull();
      const d = JSON.parse(m.desc) as { asymmetric: boolean; activation: number };
      seen.add(`${d.asymmetric}/${d.activation}`);
    }
    expect(seen.size).toBe(12);
  });
});

describe('hybrid BATCH_MATMUL (wasm) equals ops-reference bit for bit', () => {
  it('on 300 random cases: ranks 2-5, broadcast batch dims, adj_x / adj_y, constant LHS, per-tensor / per-column scales, symmetric and asymmetric inputs', () => {
    const seen = new Set<string>();
    let broadcast = 0;
    let split = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const m = buildHybridBatchMatMul(seed);
      expect(compareBitExact(m.def, m.inputs, 1), m.desc).toBeNull();
      seen.add(`${m.c.adjX}/${m.c.adjY}/${m.scales}/${m.asymmetric}`);
      const lhsMatrices = m.c.lhs.slice(0, -2).reduce((a, x) => a * x, 1);
      const rhsMatrices = m.c.rhs.slice(0, -2).reduce((a, x) => a * x, 1);
      const outMatrices = m.c.out.slice(0, -2).reduce((a, x) => a * x, 1);
      if (lhsMatrices < outMatrices) broadcast++;
      if (rhsMatrices > 1) split++;
    }
    expect(seen.size).toBe(16);
    expect(
      [broadcast, split].every((n) => n > 30),
      `${broadcast} broadcast LHS, ${split} several RHS matrices`,
    ).toBe(true);
  });
});

describe('hybrid BATCH_MATMUL (wasm) declines what it does not take, with the reason', () => {
  const node = (def: ModelDef, kernels: Registration[]) => {
    const resolver = registerReferenceOps(new OpResolver()).registerAll(kernels, { fallback: true });
    return new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), arenaBacking: wasm().arenaBacking }).check().nodes[0]!;
  };
  const reason = (n: ReturnType<typeof node>) => n.declined?.find((d) => d.kernel === 'BATCH_MATMUL/wasm-hybrid-gemm')?.reason ?? '';

  it('fewer than minMacs multiply-accumulates: ops-reference serves it, the same outputs', () => {
    const m = buildHybridBatchMatMul(3);
    const n = node(m.def, createWasmKernels({ minMacs: 1e9 }));
    expect(n.provider).toBe('@micrort/ops-reference');
    expect(reason(n)).toMatch(/multiply-accumulates per invoke, fewer than minMacs 1000000000/);
    expect(node(m.def, wasm().kernels).provider).toBe(PROVIDER);
  });

  it('an RHS that is not a constant', () => {
    const b = new ModelBuilder();
    const lhs = b.addTensor({ name: 'lhs', type: TensorType.FLOAT32, shape: [2, 8] });
    const rhs = b.addTensor({ name: 'rhs', type: TensorType.INT8, shape: [8, 4], quantization: { scale: 0.01, zeroPoint: 0 } });
    const out = b.addTensor({ name: 'out', type: TensorType.FLOAT32, shape: [2, 4] });
    b.addOperator({
      op: BuiltinOperator.BATCH_MATMUL,
      inputs: [lhs, rhs],
      outputs: [out],
      options: { adjX: false, adjY: false, asymmetricQuantizeInputs: false },
    });
    b.setInputs([lhs, rhs]).setOutputs([out]);
    expect(reason(node(b.buildDef(), wasm().kernels))).toMatch(/not a constant/);
  });
});

describe('hybrid TRANSPOSE_CONV (wasm) equals ops-reference bit for bit', () => {
  it('on 150 random odd shapes: strides 1-3, kernels 2-5, SAME/VALID, output sizes the input allows, batches 1-2, per-tensor / per-channel scales, every clamp activation, zero and one-signed batches', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 150; seed++) {
      const c = { ...randomTransposeConvCase(seed, false), dynamicFilter: false };
      const perChannel = seed % 3 !== 0;
      const m = buildTransposeConvHybrid(c, perChannel);
      expect(compareBitExact(m.def, [m.input], 1), JSON.stringify({ ...c, perChannel })).toBeNull();
      seen.add(`${perChannel}/${c.activation}/${c.batches}`);
    }
    expect(seen.size).toBe(16);
  });
});

describe('hybrid TRANSPOSE_CONV (wasm) declines what it does not take, with the reason', () => {
  const declined = (def: ModelDef) => {
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const n = new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), arenaBacking: wasm().arenaBacking }).check()
      .nodes[0]!;
    return { provider: n.provider, reason: n.declined?.find((d) => d.kernel === 'TRANSPOSE_CONV/wasm-hybrid-scatter')?.reason ?? '' };
  };

  it('a TANH activation (ops-reference refuses it too)', () => {
    const c = { ...randomTransposeConvCase(4, false), dynamicFilter: false, activation: ActivationFunctionType.TANH };
    const m = buildTransposeConvHybrid(c, true);
    expect(declined(m.def)).toEqual({ provider: '@micrort/ops-reference', reason: expect.stringMatching(/fused activation TANH/) });
    expect(() => compareBitExact(m.def, [m.input], 0)).toThrow(/unsupported fused activation TANH/);
  });

  it('a filter that is not a constant', () => {
    const c = { ...randomTransposeConvCase(5, false), dynamicFilter: false };
    const m = buildTransposeConvHybrid(c, false);
    const g = m.def.subgraphs[0]!;
    const w = g.tensors.findIndex((t) => t.name === 'w');
    const def = {
      ...m.def,
      subgraphs: [
        { ...g, tensors: g.tensors.map((t, i) => (i === w ? { ...t, buffer: 0 } : t)), inputs: Int32Array.from([...g.inputs, w]) },
      ],
    };
    expect(declined(def as ModelDef).reason).toMatch(/not a constant/);
  });
});
