import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, Padding, type ModelDef, type NodeInfo } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { PROVIDER } from '../provider.js';
import { loadWasmKernels, type WasmKernels } from '../create-wasm-kernels.js';
import { buildConv, int, randomConvCase, randomDw3x3Case, randomRowsConvCase, rng, wasm, type ConvCase } from '../__tests__/single-op.js';
import { buildConvF32, firstMismatch, randomConvCaseF32, type ConvCaseF32 } from '../__tests__/single-op-float.js';
import { buildHybridConv, randomHybridConvCase } from '../__tests__/single-op-hybrid.js';

const twoThreads = await loadWasmKernels({ threads: 2, minMacs: 0, parallelMinMacs: 0 });

interface Run {
  out: Uint8Array;
  nodes: NodeInfo[];
  /** Tensor indices the planner placed. */
  planned: Set<number>;
  headBytes: number;
}

/** One allocation and invoke of `def`: ops-reference alone (`w` null), or `w` in front of it. */
function run(def: ModelDef, inputs: ArrayBufferView[], w: WasmKernels | null): Run {
  const resolver = registerReferenceOps(new OpResolver());
  if (w) resolver.registerAll(w.kernels, { fallback: true });
  const it = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(w ? { arenaBacking: w.arenaBacking } : {}),
  }).allocateTensors();
  inputs.forEach((x, i) => it.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
  it.invoke();
  const r: Run = {
    out: Uint8Array.from(it.output(0).bytes),
    nodes: it.nodes(),
    planned: new Set(
      it
        .memoryPlan()
        .requirements.filter((q) => q.kind === 'tensor')
        .map((q) => q.id),
    ),
    headBytes: it.arenaUsage().headBytes,
  };
  it.dispose();
  return r;
}

/** The PAD (node 0) was absorbed by the convolution (node 1), which ops-wasm serves, and its output is not planned. */
function expectAbsorbed(r: Run, what: string): void {
  const [pad, conv] = r.nodes;
  expect(conv!.provider, what).toBe(PROVIDER);
  expect(pad!.absorbedInto, what).toBe(1);
  expect(conv!.inputs[0], what).toBe(pad!.inputs[0]);
  expect(r.planned.has(pad!.outputs[0]!), what).toBe(false);
}

/** Paddings 0..3 per side of H and W. */
function pads(r: () => number): { top: number; bottom: number; left: number; right: number } {
  return { top: int(r, 0, 3), bottom: int(r, 0, 3), left: int(r, 0, 3), right: int(r, 0, 3) };
}

/** A VALID convolution after a random PAD (`base` gives the rest of the case). */
function withPad(seed: number, base: ConvCase): ConvCase {
  return { ...base, padding: Padding.VALID, pre: pads(rng(seed * 977 + 3)) };
}

/** Runs `count` int8 / uint8 cases made by `make` with ops-reference and `w`; bytes must agree and the PAD must be absorbed. */
function expectIntCases(count: number, w: WasmKernels, make: (seed: number) => ConvCase): void {
  let ran = 0;
  for (let seed = 1; ran < count; seed++) {
    const c = make(seed);
    const m = buildConv(c);
    if (!m) continue;
    const what = JSON.stringify(c);
    const ref = run(m.def, [m.input], null);
    const got = run(m.def, [m.input], w);
    expectAbsorbed(got, what);
    expect(got.out, what).toEqual(ref.out);
    ran++;
  }
}

const uint8 = (c: ConvCase): ConvCase => ({ ...c, perChannel: false, uint8: true });

describe('PAD + CONV_2D / DEPTHWISE_CONV_2D (wasm): the convolution absorbs the PAD, bytes equal ops-reference', () => {
  it('int8 CONV_2D: 80 random cases (asymmetric pads 0-3 per side, strides, dilation) and 40 in the rows layout', () => {
    expectIntCases(80, wasm(), (seed) => withPad(seed, randomConvCase(seed, false)));
    expectIntCases(40, wasm(), (seed) => withPad(seed, randomRowsConvCase(seed)));
  });

  it('int8 DEPTHWISE_CONV_2D: 80 random cases (depth multipliers, one input channel) and 40 3x3 (run3x3 path)', () => {
    expectIntCases(80, wasm(), (seed) => withPad(seed, randomConvCase(seed, true)));
    expectIntCases(40, wasm(), (seed) => withPad(seed, randomDw3x3Case(seed)));
  });

  it('uint8 CONV_2D and DEPTHWISE_CONV_2D: 40 random cases each', () => {
    expectIntCases(40, wasm(), (seed) => uint8(withPad(seed, randomConvCase(seed, false))));
    expectIntCases(40, wasm(), (seed) => uint8(withPad(seed, randomConvCase(seed, true))));
  });

  it('on 2 threads: 30 int8 CONV_2D and 30 DEPTHWISE_CONV_2D cases', () => {
    const big = (c: ConvCase): ConvCase => ({ ...c, inH: c.inH + 6, inW: c.inW + 6 });
    expectIntCases(30, twoThreads, (seed) => withPad(seed, big(randomConvCase(seed, false))));
    expectIntCases(30, twoThreads, (seed) => withPad(seed, big(randomDw3x3Case(seed))));
  });

  it('PADV2 whose constant_values is the zero point is absorbed too', () => {
    expectIntCases(20, wasm(), (seed) => {
      const c = withPad(seed, randomConvCase(seed, seed % 2 === 0));
      return { ...c, pre: { ...c.pre!, value: c.inZp } };
    });
  });

  it('float32 CONV_2D and DEPTHWISE_CONV_2D: 60 random cases each, within the float tolerance', () => {
    for (const depthwise of [false, true]) {
      let ran = 0;
      for (let seed = 1; ran < 60; seed++) {
        const c: ConvCaseF32 = { ...randomConvCaseF32(seed, depthwise), padding: Padding.VALID, pre: pads(rng(seed * 31 + 17)) };
        const m = buildConvF32(c);
        if (!m) continue;
        const what = JSON.stringify(c);
        const ref = run(m.def, m.inputs, null);
        const got = run(m.def, m.inputs, wasm());
        expectAbsorbed(got, what);
        const f = (b: Uint8Array) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
        expect(firstMismatch(f(got.out), f(ref.out)), what).toBeNull();
        ran++;
      }
    }
  });

  it('hybrid (float32 activations, int8 weights) CONV_2D and DEPTHWISE_CONV_2D: 40 random cases each, bit for bit', () => {
    for (const depthwise of [false, true]) {
      let ran = 0;
      for (let seed = 1; ran < 40; seed++) {
        const c = { ...randomHybridConvCase(seed, depthwise), padding: Padding.VALID, pre: pads(rng(seed * 53 + 11)) };
        const m = buildHybridConv(c);
        if (!m) continue;
        const what = JSON.stringify(c);
        const ref = run(m.def, [m.input], null);
        const got = run(m.def, [m.input], wasm());
        expectAbsorbed(got, what);
        expect(got.out, what).toEqual(ref.out);
        ran++;
      }
    }
  });

  it('float32 3x3 DEPTHWISE_CONV_2D over inputs narrower than the window right of the leading padding (the row path must not take them)', () => {
    const base: ConvCaseF32 = {
      ...randomConvCaseF32(1, true),
      kH: 3,
      kW: 3,
      dilH: 1,
      dilW: 1,
      dynamicFilter: false,
      batches: 1,
      inC: 5,
      outC: 5,
    };
    const cases: ConvCaseF32[] = [];
    for (const inW of [1, 2])
      for (const strideW of [1, 2]) {
        cases.push({ ...base, inH: 4, inW, strideW, padding: Padding.VALID, pre: { top: 1, bottom: 1, left: 0, right: 2 } });
        cases.push({ ...base, inH: 4, inW, strideW, padding: Padding.SAME });
      }
    for (const c of cases) {
      const m = buildConvF32(c)!;
      const what = JSON.stringify(c);
      const got = run(m.def, m.inputs, wasm());
      if (c.pre) expectAbsorbed(got, what);
      const f = (b: Uint8Array) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
      expect(firstMismatch(f(got.out), f(run(m.def, m.inputs, null).out)), what).toBeNull();
    }
  });

  it('declines what it cannot take: SAME padding, a PADV2 value other than the zero point; the PAD then runs', () => {
    const base = withPad(5, randomConvCase(5, false));
    for (const c of [
      { ...base, padding: Padding.SAME },
      { ...base, inZp: 3, pre: { ...base.pre!, value: 4 } },
    ]) {
      const m = buildConv(c)!;
      const got = run(m.def, [m.input], wasm());
      expect(got.nodes[0]!.absorbedInto).toBeUndefined();
      expect(got.planned.has(got.nodes[0]!.outputs[0]!)).toBe(true);
      expect(got.out).toEqual(run(m.def, [m.input], null).out);
    }
  });

  it('plans less: the padded tensor is gone from the arena head', () => {
    const c: ConvCase = { ...randomConvCase(3, true), inH: 20, inW: 20, inC: 16, outC: 16, kH: 3, kW: 3, dilH: 1, dilW: 1 };
    const m = buildConv({ ...c, padding: Padding.VALID, pre: { top: 1, bottom: 1, left: 1, right: 1 } })!;
    const withAbsorb = run(m.def, [m.input], wasm());
    const reference = run(m.def, [m.input], null);
    expectAbsorbed(withAbsorb, 'dw 20x20x16');
    expect(withAbsorb.headBytes).toBeLessThan(reference.headBytes);
  });
});
