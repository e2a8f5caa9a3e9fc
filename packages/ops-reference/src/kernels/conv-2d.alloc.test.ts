/**
 * "invoke() allocates nothing" for CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV in every type variant:
 * each node is prepared with KernelHarness, then invoked many times through a bare invoke-phase context
 * (the harness' own context allocates in its phase guards) while V8's heap usage is watched.
 */
import { describe, expect, it } from 'vitest';
import { Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { Registration } from '@micrort/core';
import type { HarnessOptions, HarnessTensorSpec } from '@micrort/core/testing';
import { invokeOnlyContext, measureAllocation } from '@micrort/test-support/alloc';
import { CONV_2D } from './conv-2d.js';
import { DEPTHWISE_CONV_2D } from './depthwise-conv-2d.js';
import { TRANSPOSE_CONV } from './transpose-conv.js';

const F = TensorType.FLOAT32;
const fill = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const act = (type: TensorType, shape: number[], data?: number[]): HarnessTensorSpec =>
  type === F
    ? { type, shape, data }
    : { type, shape, data, scale: type === TensorType.INT16 ? 0.001 : 0.05, zeroPoint: type === TensorType.INT16 ? 0 : -3 };
const weights = (type: TensorType, shape: number[], qdim: number): HarnessTensorSpec => {
  const n = shape.reduce((a, b) => a * b, 1);
  const c = shape[qdim]!;
  return type === F
    ? { type, shape, data: fill(n, (i) => ((i % 7) - 3) / 4), constant: true }
    : {
        type: TensorType.INT8,
        shape,
        data: fill(n, (i) => ((i * 37) % 255) - 127),
        scale: fill(c, (i) => 0.01 + i * 0.001),
        zeroPoint: fill(c, () => 0),
        quantizedDimension: qdim,
        constant: true,
      };
};
const biasSpec = (type: TensorType, n: number): HarnessTensorSpec => ({
  type,
  shape: [n],
  data: type === TensorType.INT64 ? fill(n, (i) => BigInt(i * 1000 - 2000)) : fill(n, (i) => i * 10 - 20),
  constant: true,
});

function conv(reg: Registration, type: TensorType, biasType: TensorType | null, depthwise: boolean): HarnessOptions {
  const i = act(
    type,
    [1, 5, 5, 2],
    fill(50, (k) => (type === F ? k / 50 : ((k * 29) % 200) - 100)),
  );
  const f = depthwise ? weights(type, [1, 3, 3, 4], 3) : weights(type, [4, 3, 3, 2], 0);
  const o = act(type, [1, 3, 3, 4]);
  const tensors = [i, f, o];
  if (biasType !== null) tensors.push(biasSpec(biasType, 4));
  const builtinData = depthwise
    ? {
        padding: Padding.SAME,
        strideH: 2,
        strideW: 2,
        depthMultiplier: 2,
        fusedActivationFunction: 1,
        dilationHFactor: 1,
        dilationWFactor: 1,
      }
    : {
        padding: Padding.SAME,
        strideH: 2,
        strideW: 2,
        fusedActivationFunction: 1,
        dilationHFactor: 1,
        dilationWFactor: 1,
        quantizedBiasType: 0,
      };
  return { registration: reg, tensors, inputs: biasType !== null ? [0, 1, 3] : [0, 1], outputs: [2], builtinData };
}

function transpose(type: TensorType, biasType: TensorType | null): HarnessOptions {
  const tensors: HarnessTensorSpec[] = [
    { type: TensorType.INT32, shape: [4], data: [1, 4, 4, 3], constant: true },
    weights(type, [3, 3, 3, 2], 0),
    act(
      type,
      [1, 2, 2, 2],
      fill(8, (k) => (type === F ? k / 8 : ((k * 29) % 200) - 100)),
    ),
    act(type, [1, 4, 4, 3]),
  ];
  if (biasType !== null) tensors.push(biasSpec(biasType, 3));
  return {
    registration: TRANSPOSE_CONV,
    tensors,
    inputs: biasType !== null ? [0, 1, 2, 4] : [0, 1, 2],
    outputs: [3],
    builtinData: { padding: Padding.SAME, strideH: 2, strideW: 2, fusedActivationFunction: 0, quantizedBiasType: 0 },
  };
}

const I8 = TensorType.INT8;
const I16 = TensorType.INT16;
const cases: [string, HarnessOptions][] = [
  ['CONV_2D float32', conv(CONV_2D, F, F, false)],
  ['CONV_2D int8', conv(CONV_2D, I8, TensorType.INT32, false)],
  ['CONV_2D 16x8 int64 bias', conv(CONV_2D, I16, TensorType.INT64, false)],
  ['CONV_2D 16x8 int32 bias', conv(CONV_2D, I16, TensorType.INT32, false)],
  ['DEPTHWISE_CONV_2D float32', conv(DEPTHWISE_CONV_2D, F, F, true)],
  ['DEPTHWISE_CONV_2D int8', conv(DEPTHWISE_CONV_2D, I8, TensorType.INT32, true)],
  ['DEPTHWISE_CONV_2D 16x8', conv(DEPTHWISE_CONV_2D, I16, TensorType.INT64, true)],
  ['TRANSPOSE_CONV float32', transpose(F, F)],
  ['TRANSPOSE_CONV int8', transpose(I8, TensorType.INT32)],
  ['TRANSPOSE_CONV 16x8 int64 bias', transpose(I16, TensorType.INT64)],
  ['TRANSPOSE_CONV 16x8 int16 bias', transpose(I16, TensorType.INT16)],
  ['TRANSPOSE_CONV int8 no bias', transpose(I8, null)],
];

describe('convolution kernels allocate nothing in invoke()', () => {
  it.each(cases)('%s', (_, options) => {
    const h = new KernelHarness(options).prepare();
    const ctx = invokeOnlyContext(h);
    const reg = options.registration;
    const m = measureAllocation(() => reg.invoke(ctx, h.node), { warmup: 3000, trials: 5, iterations: 1000 });
    // 1000 invokes: any per-invoke object (>= 16 bytes) would add at least 16 kB; the measurement itself
    // costs a few hundred bytes per trial.
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
