/**
 * Mfcc (TFLite's custom op, kernels/mfcc.cc + internal/mfcc*.cc): each frame of a float32 squared-magnitude
 * spectrogram [channels, frames, bins] → float32 [channels, frames, dct_coefficient_count]: the square root
 * of each bin weighted into `filterbank_channel_count` triangular mel bands between
 * `lower_frequency_limit` and `upper_frequency_limit` (HTK's mel scale 1127·ln(1 + f/700), DC excluded),
 * the log of each band (floored at 1e-12), then an orthonormal DCT-II, all in double as TFLite computes
 * them. The int32 sample rate input places the bins (hz per bin = rate / 2 / (bins − 1)); the filterbank is
 * rebuilt when the rate changes. Options: a FlexBuffers map, read as TFLite reads it (the frequency limits
 * with AsInt64, so fractions are dropped).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  parseFlexMap,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';

const OP = 'Mfcc';

interface MfccOpData {
  lower: number;
  upper: number;
  bands: number;
  coefficients: number;
  channels: number;
  frames: number;
  bins: number;
  /** The sample rate the filterbank was built for (-1: none yet). */
  rate: number;
  start: number;
  end: number;
  bandMapper: Int32Array;
  weights: Float64Array;
  /** cosines[i * bands + j] = √(2/bands)·cos(π·i·(j + 0.5)/bands). */
  cosines: Float64Array;
  work: Float64Array;
}

const freqToMel = (f: number): number => 1127 * Math.log1p(f / 700);

/** MfccMelFilterbank::Initialize for a sample rate (its checks are made in prepare). */
function buildFilterbank(d: MfccOpData, node: Node, rate: number): void {
  if (rate <= 0) throw new KernelError(OP, node.index, `sample rate ${rate} must be positive`);
  const n = d.bands;
  const melLow = freqToMel(d.lower);
  const spacing = (freqToMel(d.upper) - melLow) / (n + 1);
  const center = (i: number) => melLow + spacing * (i + 1);
  const hzPerBin = (0.5 * rate) / (d.bins - 1);
  d.start = Math.trunc(1.5 + d.lower / hzPerBin);
  d.end = Math.trunc(d.upper / hzPerBin);
  let channel = 0;
  for (let i = 0; i < d.bins; i++) {
    const mel = freqToMel(i * hzPerBin);
    if (i < d.start || i > d.end) {
      d.bandMapper[i] = -2;
      d.weights[i] = 0;
      continue;
    }
    while (channel < n && center(channel) < mel) channel++;
    d.bandMapper[i] = channel - 1;
    const c = channel - 1;
    d.weights[i] = c >= 0 ? (center(c + 1) - mel) / (center(c + 1) - center(c)) : (center(0) - mel) / (center(0) - melLow);
  }
  if (d.bins <= d.end)
    throw new KernelError(OP, node.index, `a spectrogram of ${d.bins} bins is too short for the filterbank (needs ${d.end + 1})`);
  d.rate = rate;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const spectrogram = getInput(context, node, 0, OP);
  const rate = getInput(context, node, 1, OP);
  expectType(OP, node, 'spectrogram', spectrogram, [TensorType.FLOAT32]);
  expectType(OP, node, 'output', getOutput(context, node, 0, OP), [TensorType.FLOAT32]);
  expectRank(OP, node, 'spectrogram', spectrogram, 3);
  expectType(OP, node, 'sample rate', rate, [TensorType.INT32]);
  if (rate.elementCount !== 1) throw new KernelError(OP, node.index, 'the sample rate must hold one value');
  if (!node.customInitialData) throw new KernelError(OP, node.index, 'custom options are missing');
  const m = parseFlexMap(node.customInitialData);
  const int = (key: string) => Math.trunc(m.get(key)?.value ?? 0);
  const d = opData<MfccOpData>(OP, node);
  d.upper = int('upper_frequency_limit');
  d.lower = int('lower_frequency_limit');
  d.bands = int('filterbank_channel_count');
  d.coefficients = int('dct_coefficient_count');
  d.channels = spectrogram.dims[0]!;
  d.frames = spectrogram.dims[1]!;
  d.bins = spectrogram.dims[2]!;
  if (d.bands < 1 || d.bins < 2 || d.lower < 0 || d.upper <= d.lower)
    throw new KernelError(OP, node.index, `invalid filterbank: ${d.bands} bands over [${d.lower}, ${d.upper}] Hz for ${d.bins} bins`);
  if (d.coefficients < 1 || d.coefficients > d.bands)
    throw new KernelError(OP, node.index, `dct_coefficient_count ${d.coefficients} must be in [1, ${d.bands}]`);
  setOutputShape(OP, context, node, 0, [d.channels, d.frames, d.coefficients]);
  d.bandMapper = new Int32Array(d.bins);
  d.weights = new Float64Array(d.bins);
  d.work = new Float64Array(d.bands);
  d.cosines = new Float64Array(d.coefficients * d.bands);
  const norm = Math.sqrt(2 / d.bands);
  const arg = Math.PI / d.bands;
  for (let i = 0; i < d.coefficients; i++)
    for (let j = 0; j < d.bands; j++) d.cosines[i * d.bands + j] = norm * Math.cos(i * arg * (j + 0.5));
  d.rate = -1;
  if (rate.isConstant) buildFilterbank(d, node, (rate.data as Int32Array)[0]!);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<MfccOpData>(OP, node);
  const rate = (context.getEvalTensor(node.inputs[1]!).data as Int32Array)[0]!;
  if (rate !== d.rate) buildFilterbank(d, node, rate);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { bands, coefficients, bins, work, bandMapper, weights, cosines } = d;
  const rows = d.channels * d.frames;
  for (let r = 0; r < rows; r++) {
    const base = r * bins;
    work.fill(0);
    for (let i = d.start; i <= d.end; i++) {
      const v = Math.sqrt(x[base + i]!);
      const weighted = v * weights[i]!;
      let c = bandMapper[i]!;
      if (c >= 0) work[c] = work[c]! + weighted;
      c++;
      if (c < bands) work[c] = work[c]! + (v - weighted);
    }
    for (let j = 0; j < bands; j++) work[j] = Math.log(work[j]! < 1e-12 ? 1e-12 : work[j]!);
    for (let i = 0; i < coefficients; i++) {
      let sum = 0;
      for (let j = 0; j < bands; j++) sum += cosines[i * bands + j]! * work[j]!;
      y[r * coefficients + i] = sum;
    }
  }
}

/** Mfcc registration (TFLite's custom op). */
export const MFCC: Registration<MfccOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0], [TensorType.FLOAT32]) ?? true,
  init: () => ({
    lower: 0,
    upper: 0,
    bands: 0,
    coefficients: 0,
    channels: 0,
    frames: 0,
    bins: 0,
    rate: -1,
    start: 0,
    end: 0,
    bandMapper: new Int32Array(0),
    weights: new Float64Array(0),
    cosines: new Float64Array(0),
    work: new Float64Array(0),
  }),
  prepare,
  invoke,
};
