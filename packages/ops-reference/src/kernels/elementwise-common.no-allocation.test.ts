/**
 * invoke() of every elementwise/activation kernel allocates nothing: each kernel is prepared with
 * KernelHarness, then invoked thousands of times through a minimal context (the harness's own context
 * checks phases with array literals, which would be measured too). The check can fail: a kernel that
 * allocated even one small object per call would add >= 16 kB to every trial.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, Phase, TensorType, type TfLiteContext } from '@micrort/core';
import { KernelHarness, type HarnessOptions } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { ABS } from './abs.js';
import { CAST } from './cast.js';
import { COS } from './cos.js';
import { DIV } from './div.js';
import { LEAKY_RELU } from './leaky-relu.js';
import { LOGISTIC } from './logistic.js';
import { MAXIMUM, MINIMUM } from './maximum-minimum.js';
import { MUL } from './mul.js';
import { RELU } from './relu.js';
import { RELU6 } from './relu6.js';
import { SIN } from './sin.js';
import { SUB } from './sub.js';
import { TANH } from './tanh.js';

const n = 24;
const ramp = (lo: number, step: number) => Array.from({ length: n }, (_, i) => lo + i * step);
const i8 = (data?: number[], shape = [n]) => ({ type: TensorType.INT8, shape, data, scale: 0.05, zeroPoint: -3 });
const i16 = (data?: number[], shape = [n]) => ({ type: TensorType.INT16, shape, data, scale: 1 / 4096, zeroPoint: 0 });
const f32 = (data?: number[], shape = [n]) => ({ type: TensorType.FLOAT32, shape, data });
const i32 = (data?: number[], shape = [n]) => ({ type: TensorType.INT32, shape, data });

const unary = (
  registration: HarnessOptions['registration'],
  input: HarnessOptions['tensors'][number],
  output: HarnessOptions['tensors'][number],
  builtinData: HarnessOptions['builtinData'] = null,
): HarnessOptions => ({
  registration,
  tensors: [input, output],
  inputs: [0],
  outputs: [1],
  builtinData,
});
const binary = (
  registration: HarnessOptions['registration'],
  a: HarnessOptions['tensors'][number],
  b: HarnessOptions['tensors'][number],
  out: HarnessOptions['tensors'][number],
): HarnessOptions => ({
  registration,
  tensors: [a, b, out],
  inputs: [0, 1],
  outputs: [2],
  builtinData: { fusedActivationFunction: ActivationFunctionType.RELU },
});

const configs: [string, HarnessOptions][] = [
  ['SUB int8 broadcast', binary(SUB, i8(ramp(-100, 8), [4, 6]), i8(ramp(-50, 20).slice(0, 6), [6]), i8(undefined, [4, 6]))],
  ['SUB float32', binary(SUB, f32(ramp(-1, 0.1)), f32(ramp(2, -0.2)), f32())],
  ['MUL int16 broadcast', binary(MUL, i16(ramp(-3000, 250), [2, 3, 4]), i16(ramp(100, 50).slice(0, 4), [4]), i16(undefined, [2, 3, 4]))],
  ['MUL int32', binary(MUL, i32(ramp(-12, 1)), i32(ramp(5, -1)), i32())],
  ['DIV int8', binary(DIV, i8(ramp(-100, 8)), i8(ramp(10, 3)), i8())],
  ['MAXIMUM int32 broadcast', binary(MAXIMUM, i32(ramp(-12, 1), [2, 12]), i32([0], [1]), i32(undefined, [2, 12]))],
  ['MINIMUM float32', binary(MINIMUM, f32(ramp(-1, 0.1)), f32(ramp(1, -0.1)), f32())],
  ['ABS int8', unary(ABS, i8(ramp(-100, 8)), { ...i8(), scale: 0.1 })],
  ['SIN float32', unary(SIN, f32(ramp(-2, 0.2)), f32())],
  ['COS float32', unary(COS, f32(ramp(-2, 0.2)), f32())],
  ['LOGISTIC int8', unary(LOGISTIC, i8(ramp(-100, 8)), { type: TensorType.INT8, shape: [n], scale: 1 / 256, zeroPoint: -128 })],
  ['LOGISTIC int16', unary(LOGISTIC, i16(ramp(-30000, 2500)), { type: TensorType.INT16, shape: [n], scale: 1 / 32768, zeroPoint: 0 })],
  ['TANH int8', unary(TANH, i8(ramp(-100, 8)), { type: TensorType.INT8, shape: [n], scale: 1 / 128, zeroPoint: 0 })],
  [
    'TANH int16',
    unary(TANH, { ...i16(ramp(-30000, 2500)), scale: 0.0003 }, { type: TensorType.INT16, shape: [n], scale: 1 / 32768, zeroPoint: 0 }),
  ],
  ['RELU int8', unary(RELU, i8(ramp(-100, 8)), { ...i8(), scale: 0.04 })],
  ['RELU6 int8', unary(RELU6, i8(ramp(-100, 8)), i8())],
  ['LEAKY_RELU int16', unary(LEAKY_RELU, i16(ramp(-30000, 2500)), { ...i16(), scale: 0.0005 }, { alpha: 0.2 })],
  ['CAST float32 -> uint32', unary(CAST, f32(ramp(-10, 100.5)), { type: TensorType.UINT32, shape: [n] })],
];

describe('elementwise kernels: invoke() allocates nothing', () => {
  for (const [name, options] of configs) {
    it(name, () => {
      const h = new KernelHarness(options).prepare();
      h.invoke(); // the output must be computable through the real harness first
      const context = {
        phase: Phase.Invoke,
        getEvalTensor: (i: number) => h.tensors[i]!,
      } as unknown as TfLiteContext;
      const { registration } = options;
      const node = h.node;
      // An allocation in invoke() shows in every trial (>= 16 bytes per call, 16 kB per trial). V8's tiering
      // on this shared machine sometimes leaves a kernel in a state that boxes doubles for a while, so the
      // best trial without a GC (negative delta) of up to four rounds is taken.
      let best = Number.POSITIVE_INFINITY;
      const deltas: number[] = [];
      for (let round = 0; round < 4 && best >= 2048; round++) {
        const m = measureAllocation(() => registration.invoke(context, node), { warmup: 20000, trials: 5, iterations: 1000 });
        deltas.push(...m.deltas);
        best = Math.min(best, ...m.deltas.filter((d) => d >= 0));
      }
      expect(best, `heap deltas per 1000 invokes: ${deltas.join(', ')}`).toBeLessThan(2048);
    });
  }
});
