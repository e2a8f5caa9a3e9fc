// How ops-mediapipe's kernel tests are written: KernelHarness runs one kernel (init → prepare → invoke,
// with the interpreter's phase rules) on hand-computed data; a second implementation checks it on data no
// one computes by hand — here ops-reference's TRANSPOSE_CONV, which adds the bias after the sums instead of
// starting from it, so the two agree within float32 tolerance.
import { ActivationFunctionType, BuiltinOperator, Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { CONVOLUTION_2D_TRANSPOSE_BIAS, transposeConvBiasOptions } from '@micrort/ops-mediapipe';
import { referenceKernels } from '@micrort/ops-reference';

const F = TensorType.FLOAT32;

export function main(): { handComputed: number[]; maxDifference: number; persistentBytes: number } {
  // 1. hand-computed: stride 2, VALID, 2x2 filter — each input pixel stamps x * [[1, 10], [100, 1000]], plus 0.5
  const h = new KernelHarness({
    registration: CONVOLUTION_2D_TRANSPOSE_BIAS,
    tensors: [
      { type: F, shape: [1, 2, 2, 1], data: [1, 2, 3, 4] },
      { type: F, shape: [1, 2, 2, 1], data: [1, 10, 100, 1000], constant: true },
      { type: F, shape: [1], data: [0.5], constant: true },
      { type: F, shape: [1, 4, 4, 1] },
    ],
    inputs: [0, 1, 2],
    outputs: [3],
    customInitialData: transposeConvBiasOptions('VALID', 2, 2),
  }).invoke();

  // 2. against TRANSPOSE_CONV + bias on the same weights: SAME, stride 2, 3x3 filter, 3 → 2 channels
  const input = Array.from({ length: 1 * 3 * 3 * 3 }, (_, i) => Math.sin(i));
  const weights = Array.from({ length: 2 * 3 * 3 * 3 }, (_, i) => Math.cos(i) / 4);
  const bias = [0.25, -1];
  const mine = new KernelHarness({
    registration: CONVOLUTION_2D_TRANSPOSE_BIAS,
    tensors: [
      { type: F, shape: [1, 3, 3, 3], data: input },
      { type: F, shape: [2, 3, 3, 3], data: weights, constant: true },
      { type: F, shape: [2], data: bias, constant: true },
      { type: F, shape: [1, 5, 5, 2] }, // 2·(3 - 1) + 3 - 2: SAME pads 3 - (3 - 1) % 2 - 1 = 2 rows in total
    ],
    inputs: [0, 1, 2],
    outputs: [3],
    customInitialData: transposeConvBiasOptions('SAME', 2, 2),
  }).invoke();
  const reference = new KernelHarness({
    registration: referenceKernels.find((r) => r.builtinCode === BuiltinOperator.TRANSPOSE_CONV)!,
    tensors: [
      { type: TensorType.INT32, shape: [4], data: [1, 5, 5, 2], constant: true },
      { type: F, shape: [2, 3, 3, 3], data: weights, constant: true },
      { type: F, shape: [1, 3, 3, 3], data: input },
      { type: F, shape: [1, 5, 5, 2] },
      { type: F, shape: [2], data: bias, constant: true },
    ],
    inputs: [0, 1, 2, 4],
    outputs: [3],
    builtinData: {
      padding: Padding.SAME,
      strideW: 2,
      strideH: 2,
      fusedActivationFunction: ActivationFunctionType.NONE,
      quantizedBiasType: 0,
    },
  }).invoke();
  const a = mine.outputArray();
  const b = reference.outputArray();
  const maxDifference = Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));
  return { handComputed: h.outputArray(), maxDifference, persistentBytes: h.persistentBytes };
}
