/**
 * Float math shared by TFLite's recurrent kernels (RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
 * BIDIRECTIONAL_SEQUENCE_RNN, LSTM, BIDIRECTIONAL_SEQUENCE_LSTM): TFLite's portable tensor_utils
 * (MatrixBatchVectorMultiplyAccumulate, ApplyActivationToVector, MeanStddevNormalization) and
 * kernel_utils' RnnBatchStep, float32 rounding reproduced with Math.fround. Every function writes into
 * typed arrays at offsets and returns nothing, so invoke boxes no double.
 */
import { ActivationFunctionType } from '@micrort/core';

/** TFLite's kTfLiteActSigmoid: not in the schema's ActivationFunctionType, used for the LSTM gates. */
export const ACT_SIGMOID = 6;

/** Activations TFLite's ApplyActivationToVector knows (the schema's, SIGN_BIT included). */
export function isVectorActivation(a: number): boolean {
  return a >= ActivationFunctionType.NONE && a <= ActivationFunctionType.SIGN_BIT;
}

/**
 * `out[outAt + r] += Σ_c w[wAt + r·cols + c] · x[xAt + c]` for `rows` rows, `batches` times (x advancing
 * by `cols`, out by `outStride` per batch): the dot product summed from zero, then added (TFLite's
 * PortableMatrixBatchVectorMultiplyAccumulate).
 */
export function matVecAccumulate(
  w: Float32Array,
  wAt: number,
  rows: number,
  cols: number,
  x: Float32Array,
  xAt: number,
  batches: number,
  out: Float32Array,
  outAt: number,
  outStride: number,
): void {
  for (let b = 0; b < batches; b++) {
    const xb = xAt + b * cols;
    const ob = outAt + b * outStride;
    for (let r = 0; r < rows; r++) {
      const wr = wAt + r * cols;
      let dot = 0;
      for (let c = 0; c < cols; c++) dot = Math.fround(dot + Math.fround(w[wr + c]! * x[xb + c]!));
      out[ob + r] = Math.fround(out[ob + r]! + dot);
    }
  }
}

/**
 * TFLite's ApplyActivationToVector over `n` values from `v[vAt]` into `out[outAt]`. NONE writes nothing
 * (as TFLite, whose callers then read whatever `out` held); ACT_SIGMOID is the gates' logistic.
 */
export function applyActivation(v: Float32Array, vAt: number, n: number, activation: number, out: Float32Array, outAt: number): void {
  switch (activation) {
    case ActivationFunctionType.RELU:
      for (let i = 0; i < n; i++) out[outAt + i] = Math.max(0, v[vAt + i]!);
      return;
    case ActivationFunctionType.RELU_N1_TO_1:
      for (let i = 0; i < n; i++) out[outAt + i] = Math.min(Math.max(-1, v[vAt + i]!), 1);
      return;
    case ActivationFunctionType.RELU6:
      for (let i = 0; i < n; i++) out[outAt + i] = Math.min(Math.max(0, v[vAt + i]!), 6);
      return;
    case ActivationFunctionType.TANH:
      for (let i = 0; i < n; i++) out[outAt + i] = Math.tanh(v[vAt + i]!);
      return;
    case ActivationFunctionType.SIGN_BIT:
      for (let i = 0; i < n; i++) {
        const x = v[vAt + i]!;
        out[outAt + i] = x < 0 || Object.is(x, -0) ? 1 : 0;
      }
      return;
    case ACT_SIGMOID:
      for (let i = 0; i < n; i++) out[outAt + i] = 1 / (1 + Math.exp(-v[vAt + i]!));
      return;
    default:
      return;
  }
}

/**
 * TFLite's MeanStddevNormalization of `batches` rows of `n` values in place: (x − mean) / √(variance +
 * 1e-8), in float32.
 */
export function meanStddevNormalize(v: Float32Array, at: number, n: number, batches: number): void {
  for (let b = 0; b < batches; b++) {
    const row = at + b * n;
    let sum = 0;
    for (let i = 0; i < n; i++) sum = Math.fround(sum + v[row + i]!);
    const mean = Math.fround(sum / n);
    let sumDiffSq = 0;
    for (let i = 0; i < n; i++) {
      const d = Math.fround(v[row + i]! - mean);
      sumDiffSq = Math.fround(sumDiffSq + Math.fround(d * d));
    }
    const variance = Math.fround(sumDiffSq / n);
    const stddevInv = Math.fround(1 / Math.fround(Math.sqrt(Math.fround(variance + 1e-8))));
    for (let i = 0; i < n; i++) v[row + i] = Math.fround(Math.fround(v[row + i]! - mean) * stddevInv);
  }
}

/** The tensors of one RNN cell (weights [units, input], recurrent weights [units, units], bias [units]). */
export interface RnnCell {
  weights: Float32Array;
  recurrentWeights: Float32Array;
  bias: Float32Array;
  /** Auxiliary input weights [units, auxInput], or an empty array when the cell has none. */
  auxWeights: Float32Array;
}

/**
 * TFLite's RnnBatchStep: for `batches` rows, out = activation(bias + W·x + Waux·aux + R·h), and the
 * hidden state h takes out. Rows of `out` are `outStride` apart (a merged bidirectional output).
 * `aux` is read only when `auxSize` > 0.
 */
export function rnnBatchStep(
  cell: RnnCell,
  units: number,
  inputSize: number,
  x: Float32Array,
  xAt: number,
  auxSize: number,
  aux: Float32Array,
  auxAt: number,
  batches: number,
  activation: number,
  hidden: Float32Array,
  hiddenAt: number,
  out: Float32Array,
  outAt: number,
  outStride: number,
): void {
  for (let b = 0; b < batches; b++) {
    const o = outAt + b * outStride;
    for (let i = 0; i < units; i++) out[o + i] = cell.bias[i]!;
    matVecAccumulate(cell.weights, 0, units, inputSize, x, xAt + b * inputSize, 1, out, o, units);
    if (auxSize > 0) matVecAccumulate(cell.auxWeights, 0, units, auxSize, aux, auxAt + b * auxSize, 1, out, o, units);
    matVecAccumulate(cell.recurrentWeights, 0, units, units, hidden, hiddenAt + b * units, 1, out, o, units);
    applyActivation(out, o, units, activation, out, o);
    for (let i = 0; i < units; i++) hidden[hiddenAt + b * units + i] = out[o + i]!;
  }
}
