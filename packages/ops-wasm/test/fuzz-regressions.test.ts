/**
 * Cases `micrort fuzz --ops wasm` found (seeds 29 and 30), turned into regression tests: a malformed node gets a
 * typed error at allocate or runs, never a crash inside an ops-wasm kernel.
 */
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  KernelError,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  Padding,
  TensorType,
  type ArenaBacking,
  type ModelDef,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { buildBatchMatMul, randomBatchMatMulCase } from '../src/__tests__/single-op-batch-matmul.js';
import { buildConvF32, randomConvCaseF32 } from '../src/__tests__/single-op-float.js';
import { buildHybridConv } from '../src/__tests__/single-op-hybrid.js';
import { buildSvdf, buildSvdfF32, randomSvdfCase } from '../src/__tests__/single-op-svdf.js';
import { buildConv, randomConvCase, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

function interpreter(def: ModelDef): MicroInterpreter {
  const w = wasm();
  const resolver = registerReferenceOps(new OpResolver()).registerAll(w.kernels, { fallback: true });
  return new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), arenaBacking: w.arenaBacking });
}

/** `def` with input `position` of its only operator removed (-1). */
function withoutInput(def: ModelDef, position: number): ModelDef {
  const op = def.subgraphs[0]!.operators[0]!;
  const inputs = Int32Array.from(op.inputs);
  inputs[position] = -1;
  return { ...def, subgraphs: [{ ...def.subgraphs[0]!, operators: [{ ...op, inputs }] }, ...def.subgraphs.slice(1)] };
}

describe('SVDF with a required input missing', () => {
  // supports() read the missing tensor (a TypeError thrown out of allocateTensors)
  for (const [name, build] of [
    ['int8', (seed: number) => buildSvdf(randomSvdfCase(seed), 1).def],
    ['float32', (seed: number) => buildSvdfF32(randomSvdfCase(seed), 1).def],
  ] as const)
    it(`${name}: every required input (0, 1, 2, 4) missing is a KernelError naming it, at allocate`, () => {
      for (const position of [0, 1, 2, 4]) {
        const it_ = interpreter(withoutInput(build(3), position));
        let error: unknown = null;
        try {
          it_.allocateTensors();
        } catch (e) {
          error = e;
        }
        expect(error, `input ${position}`).toBeInstanceOf(KernelError);
        expect(String(error)).toMatch(new RegExp(`input ${position} is missing`));
      }
    });
});

describe('hybrid window kernels with an empty output', () => {
  // the epilogue divided by the output pixels per batch: "RuntimeError: divide by zero" at invoke
  for (const depthwise of [false, true])
    it(`${depthwise ? 'DEPTHWISE_CONV_2D' : 'CONV_2D'}: a zero-height input runs, on ops-wasm, to an empty output`, () => {
      const c = {
        depthwise,
        batches: 1,
        inH: 3,
        inW: 5,
        inC: 4,
        multiplier: 1,
        outC: 4,
        kH: 3,
        kW: 3,
        strideH: 1,
        strideW: 1,
        dilH: 1,
        dilW: 1,
        padding: Padding.SAME,
        bias: true,
        activation: 0,
        scales: 'channel',
        seed: 5,
      } as const;
      const { def } = buildHybridConv(c)!;
      // the same layer over an image of height 0 (SAME padding: an output of height 0)
      const sg = def.subgraphs[0]!;
      const tensors = sg.tensors.map((t, i) =>
        i === sg.inputs[0] || i === sg.outputs[0] ? { ...t, shape: Int32Array.from([t.shape[0]!, 0, ...t.shape.slice(2)]) } : t,
      );
      const it_ = interpreter({ ...def, subgraphs: [{ ...sg, tensors }] }).allocateTensors();
      expect(it_.nodes()[0]!.provider).toBe(PROVIDER);
      it_.invoke();
      expect(it_.output(0).bytes.byteLength).toBe(0);
    });
});

/** `def` with its input's and output's height 0 (a one-operator model: SAME padding keeps the output empty). */
function zeroHeight(def: ModelDef): ModelDef {
  const sg = def.subgraphs[0]!;
  const tensors = sg.tensors.map((t, i) =>
    i === sg.inputs[0] || i === sg.outputs[0] ? { ...t, shape: Int32Array.from([t.shape[0]!, 0, ...t.shape.slice(2)]) } : t,
  );
  return { ...def, subgraphs: [{ ...sg, tensors }] };
}

describe('float CONV_2D and int8 DEPTHWISE_CONV_2D with an empty output', () => {
  // fuzz --ops wasm seed 333 (zoo:dynamic_dilated_conv, an output shape mutated): a 3x3 window over an
  // input of height 2 left no output pixels, and f32_conv_run / qs8_dwconv_run computed the first pixel's
  // position by dividing by the empty image's size: "RuntimeError: divide by zero" at invoke
  // a 3x3 stride-1 SAME window over a 3x5 image (made of height 0 by zeroHeight)
  const window3x3 = { inH: 3, inW: 5, kH: 3, kW: 3, strideH: 1, strideW: 1, dilH: 1, dilW: 1, padding: Padding.SAME } as const;
  const cases = [
    ['float32 CONV_2D (gathered rows)', () => buildConvF32({ ...randomConvCaseF32(3, false), ...window3x3 })!.def],
    ['int8 DEPTHWISE_CONV_2D', () => buildConv({ ...randomConvCase(3, true), ...window3x3, inC: 8, outC: 8 })!.def],
  ] as const;
  for (const [name, build] of cases)
    it(`${name}: a zero-height input runs, on ops-wasm, to an empty output`, () => {
      const it_ = interpreter(zeroHeight(build())).allocateTensors();
      expect(it_.nodes()[0]!.provider).toBe(PROVIDER);
      it_.invoke();
      expect(it_.output(0).bytes.byteLength).toBe(0);
    });
});

describe('int16 BATCH_MATMUL with a zero output scale', () => {
  // supports() computed the requantization shift of an infinite multiplier: "RangeError: quantizeMultiplier:
  // multiplier Infinity is not finite" thrown out of allocateTensors (fuzz seed 30, quantization removed)
  it('is a KernelError at allocate naming the multiplier', () => {
    const c = randomBatchMatMulCase(4, TensorType.INT16);
    c.q[2] = { ...c.q[2]!, scale: 0 };
    let error: unknown = null;
    try {
      interpreter(buildBatchMatMul(c).def).allocateTensors();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(KernelError);
    expect(String(error)).toMatch(/BATCH_MATMUL.*lhs scale \* rhs scale \/ output scale: effective scale Infinity/);
  });
});

describe('int16 LOGISTIC with the whole arena memory pre-filled before allocation', () => {
  // fuzz --ops wasm seed 31: the determinism check fills the backing's whole buffer with 0x7b before
  // allocating, the sigmoid table past the arena too; the kernels now write it again at prepare
  it('gives the same bytes as on a fresh memory', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [64], quantization: { scale: 2 ** -12, zeroPoint: 0 } });
    const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [64], quantization: { scale: 2 ** -15, zeroPoint: 0 } });
    b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [x], outputs: [y] });
    const def = b.setInputs([x]).setOutputs([y]).buildDef();
    const w = wasm();
    const run = (fill: boolean): Uint8Array => {
      const backing: ArenaBacking = {
        name: w.arenaBacking.name,
        allocate(n: number) {
          const buffer = w.arenaBacking.allocate(n);
          if (fill) new Uint8Array(buffer).fill(0x7b);
          return buffer;
        },
      };
      const resolver = registerReferenceOps(new OpResolver()).registerAll(w.kernels, { fallback: true });
      const it_ = new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), arenaBacking: backing }).allocateTensors();
      expect(it_.nodes()[0]!.provider).toBe(PROVIDER);
      const v = it_.input(0).data as Int16Array;
      for (let i = 0; i < v.length; i++) v[i] = (i - 32) * 1000;
      it_.invoke();
      return Uint8Array.from(it_.output(0).bytes);
    };
    expect(Buffer.from(run(true)).equals(Buffer.from(run(false)))).toBe(true);
  });
});
