/**
 * The transposed convolutions in the interpreter: MediaPipe's selfie_segmentation (its
 * Convolution2DTransposeBias is most of the model's time on the JavaScript kernel) with ops-wasm in
 * front of ops-reference and ops-mediapipe against those two alone; a float network of TRANSPOSE_CONV
 * (constant and dynamic filters) and the custom op, and an int8 TRANSPOSE_CONV, whose invokes allocate
 * nothing; the int8 and 16x8 conformance-ops cases served by ops-wasm and equal to TFLM's outputs.
 */
import { describe, expect, it } from 'vitest';
import {
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  Padding,
  TensorType,
  BuiltinOperator,
  ActivationFunctionType,
  loadModel,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { OPS_SKIP_REASON, hasConformanceOps, makeInterpreter, runCase } from '@micrort/test-support/conformance';
import { corpusBytes } from '@micrort/corpus';
import { transposeConvBiasOptions } from '@micrort/ops-mediapipe';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { floats } from '../src/__tests__/single-op-float.js';
import {
  buildTransposeConvQ,
  randomTransposeConvCase,
  randomTransposeConvQuant,
  referenceWithMediapipe,
} from '../src/__tests__/single-op-tconv.js';
import { rng } from '../src/__tests__/single-op.js';
import { PROVIDER, loadWasmKernelsSync } from '../src/index.js';

const wasm = loadWasmKernelsSync({ threads: 1 });

function interpreter(model: Parameters<typeof loadModel>[0] | ReturnType<ModelBuilder['buildDef']>, withWasm: boolean): MicroInterpreter {
  const resolver = referenceWithMediapipe();
  if (withWasm) resolver.registerAll(wasm.kernels, { fallback: true });
  const def = model instanceof Uint8Array ? loadModel(model) : model;
  return new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(withWasm ? { arenaBacking: wasm.arenaBacking } : {}),
  }).allocateTensors();
}

/** Elements outside 1e-5 + 1e-6·max|b| + 1e-4·|b| (a whole float model sums in other orders, layer after layer). */
function mismatches(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (const v of b) max = Math.max(max, Math.abs(v));
  let bad = 0;
  for (let i = 0; i < b.length; i++) if (!(Math.abs(a[i]! - b[i]!) <= 1e-5 + 1e-6 * max + 1e-4 * Math.abs(b[i]!))) bad++;
  return bad;
}

describe('selfie_segmentation on ops-wasm', () => {
  it('its Convolution2DTransposeBias runs on ops-wasm, outputs within tolerance of ops-reference + ops-mediapipe', () => {
    const bytes = corpusBytes('selfie_segmentation');
    const ref = interpreter(bytes, false);
    const got = interpreter(bytes, true);
    const custom = got.nodes().filter((n) => n.op === 'CUSTOM:Convolution2DTransposeBias');
    expect(custom.map((n) => n.provider)).toEqual([PROVIDER]);
    for (const seed of [1, 2]) {
      const input = floats(rng(seed), ref.input(0).elementCount, 0, 1);
      ref.setInput(0, input);
      got.setInput(0, input);
      ref.invoke();
      got.invoke();
      const a = new Float32Array(got.output(0).bytes.slice().buffer);
      const b = new Float32Array(ref.output(0).bytes.slice().buffer);
      expect(mismatches(a, b), `seed ${seed}`).toBe(0);
    }
  });
});

describe('transposed convolutions in the interpreter', () => {
  it('TRANSPOSE_CONV (constant and dynamic filter, RELU) and Convolution2DTransposeBias run on ops-wasm, and invoke allocates nothing', () => {
    const r = rng(9);
    const F = TensorType.FLOAT32;
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F, shape: [1, 5, 6, 7] });
    const w1 = b.addTensor({ name: 'w1', type: F, shape: [9, 3, 3, 7], data: floats(r, 567, -0.3, 0.3) });
    const b1 = b.addTensor({ name: 'b1', type: F, shape: [9], data: floats(r, 9) });
    const y1 = b.addTensor({ name: 'y1', type: F, shape: [1, 10, 12, 9] });
    const s1 = b.addTensor({ name: 's1', type: TensorType.INT32, shape: [4], data: Int32Array.of(1, 10, 12, 9) });
    const opts = (padding: Padding, act: ActivationFunctionType) => ({ padding, strideH: 2, strideW: 2, fusedActivationFunction: act });
    b.addOperator({
      op: BuiltinOperator.TRANSPOSE_CONV,
      version: 4,
      inputs: [s1, w1, x, b1],
      outputs: [y1],
      options: opts(Padding.SAME, ActivationFunctionType.RELU),
    });
    const w2 = b.addTensor({ name: 'w2', type: F, shape: [4, 2, 2, 9] });
    const y2 = b.addTensor({ name: 'y2', type: F, shape: [1, 20, 24, 4] });
    const s2 = b.addTensor({ name: 's2', type: TensorType.INT32, shape: [4], data: Int32Array.of(1, 20, 24, 4) });
    b.addOperator({
      op: BuiltinOperator.TRANSPOSE_CONV,
      version: 4,
      inputs: [s2, w2, y1],
      outputs: [y2],
      options: opts(Padding.VALID, ActivationFunctionType.NONE),
    });
    const w3 = b.addTensor({ name: 'w3', type: F, shape: [3, 3, 3, 4], data: floats(r, 108, -0.3, 0.3) });
    const b3 = b.addTensor({ name: 'b3', type: F, shape: [3], data: floats(r, 3) });
    const y3 = b.addTensor({ name: 'y3', type: F, shape: [1, 41, 49, 3] });
    b.addOperator({
      op: { custom: 'Convolution2DTransposeBias' },
      inputs: [y2, w3, b3],
      outputs: [y3],
      customOptions: transposeConvBiasOptions('VALID', 2, 2),
    });
    const def = b.setInputs([x, w2]).setOutputs([y3]).buildDef();
    const inputs = [floats(r, 210), floats(r, 144, -0.3, 0.3)];
    const ref = interpreter(def, false);
    const got = interpreter(def, true);
    expect(got.nodes().map((n) => n.provider)).toEqual([PROVIDER, PROVIDER, PROVIDER]);
    for (const it_ of [ref, got]) {
      inputs.forEach((v, i) => it_.setInput(i, v));
      it_.invoke();
    }
    const a = new Float32Array(got.output(0).bytes.slice().buffer);
    expect(mismatches(a, new Float32Array(ref.output(0).bytes.slice().buffer))).toBe(0);
    const m = measureAllocation(() => got.invoke(), { warmup: 300, trials: 7, iterations: 300 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});

describe('int8 TRANSPOSE_CONV in the interpreter', () => {
  it('runs on ops-wasm and its invoke allocates nothing', () => {
    const m = buildTransposeConvQ({ ...randomTransposeConvCase(3, false), bias: true }, randomTransposeConvQuant(3, false));
    const it_ = interpreter(m.def, true);
    expect(it_.nodes().map((n) => n.provider)).toEqual([PROVIDER]);
    it_.setInput(0, m.input);
    const r = measureAllocation(() => it_.invoke(), { warmup: 300, trials: 7, iterations: 300 });
    expect(r.medianTrialBytes, `heap deltas per trial: ${r.deltas.join(', ')}`).toBeLessThan(4096);
  });
});

describe.skipIf(!hasConformanceOps)('conformance-ops TRANSPOSE_CONV cases', () => {
  const opts = {
    suite: 'ops' as const,
    resolver: () => registerReferenceOps(new OpResolver()).registerAll(wasm.kernels, { fallback: true }),
    arenaBacking: wasm.arenaBacking,
  };
  it.each(['transpose_conv_int8_bias', 'transpose_conv_int8_bias_valid', 'transpose_conv_int16x8_bias'])(
    '%s: served by ops-wasm, equal to TFLM',
    (name) => {
      expect(
        makeInterpreter(name, opts)
          .nodes()
          .map((n) => n.provider),
      ).toContain(PROVIDER);
      for (let c = 0; c < 3; c++) {
        const r = runCase(name, c, opts);
        expect({ name, c, failed: r.outputs.filter((o) => !o.pass) }).toEqual({ name, c, failed: [] });
      }
    },
  );
});
if (!hasConformanceOps) it.skip(OPS_SKIP_REASON, () => {});
