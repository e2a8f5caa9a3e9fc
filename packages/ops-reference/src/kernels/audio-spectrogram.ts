/**
 * AudioSpectrogram (TFLite's custom op, kernels/audio_spectrogram.cc + internal/spectrogram.cc): float32
 * samples [n, channels] → float32 [channels, frames, bins]. Per channel, windows of `window_size` samples
 * every `stride` samples (frames = 1 + (n − window) / stride, 0 when n < window) are multiplied by a
 * periodic Hann window in double, zero-padded to the next power of two and transformed; each bin gets
 * re² + im² computed in double and rounded to float, or its square root in float without
 * `magnitude_squared`. Options: a FlexBuffers map (window_size, stride, magnitude_squared). The FFT is
 * fft-common.ts's double-precision radix-2 (TFLite uses Ooura's rdft): both are exact to a few ulps of
 * double, far below float32.
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
import { fftInPlace, fillTwiddles } from './fft-common.js';

const OP = 'AudioSpectrogram';
const F32: readonly TensorType[] = [TensorType.FLOAT32];

interface AudioSpectrogramOpData {
  window: Float64Array;
  fftLength: number;
  bins: number;
  stride: number;
  frames: number;
  samples: number;
  channels: number;
  squared: boolean;
  twiddles: Float64Array;
  /** fftLength complex values (re, im interleaved). */
  work: Float64Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  expectType(OP, node, 'input', input, F32);
  expectType(OP, node, 'output', getOutput(context, node, 0, OP), F32);
  expectRank(OP, node, 'input', input, 2);
  if (!node.customInitialData) throw new KernelError(OP, node.index, 'custom options (window_size, stride, magnitude_squared) are missing');
  const m = parseFlexMap(node.customInitialData);
  const windowSize = Math.trunc(m.get('window_size')?.value ?? 0);
  const stride = Math.trunc(m.get('stride')?.value ?? 0);
  const squared = (m.get('magnitude_squared')?.value ?? 0) !== 0;
  if (windowSize < 2) throw new KernelError(OP, node.index, `window_size ${windowSize} is too short (at least 2)`);
  if (stride < 1) throw new KernelError(OP, node.index, `stride ${stride} must be positive`);
  let fftLength = 1;
  while (fftLength < windowSize) fftLength *= 2;
  const samples = input.dims[0]!;
  const channels = input.dims[1]!;
  const frames = samples < windowSize ? 0 : 1 + Math.floor((samples - windowSize) / stride);
  const bins = 1 + fftLength / 2;
  setOutputShape(OP, context, node, 0, [channels, frames, bins]);
  const d = opData<AudioSpectrogramOpData>(OP, node);
  d.window = Float64Array.from({ length: windowSize }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / windowSize));
  d.fftLength = fftLength;
  d.bins = bins;
  d.stride = stride;
  d.frames = frames;
  d.samples = samples;
  d.channels = channels;
  d.squared = squared;
  d.twiddles = new Float64Array(fftLength);
  fillTwiddles(d.twiddles, fftLength);
  d.work = new Float64Array(2 * fftLength);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<AudioSpectrogramOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { window, fftLength, bins, stride, frames, channels, work } = d;
  const size = window.length;
  for (let c = 0; c < channels; c++)
    for (let f = 0; f < frames; f++) {
      const start = f * stride;
      work.fill(0);
      for (let j = 0; j < size; j++) work[2 * j] = x[(start + j) * channels + c]! * window[j]!;
      fftInPlace(work, 0, fftLength, d.twiddles, fftLength);
      const o = (c * frames + f) * bins;
      for (let k = 0; k < bins; k++) {
        const re = work[2 * k]!;
        const im = work[2 * k + 1]!;
        const p = Math.fround(re * re + im * im);
        y[o + k] = d.squared ? p : Math.sqrt(p);
      }
    }
}

/** AudioSpectrogram registration (TFLite's custom op). */
export const AUDIO_SPECTROGRAM: Registration<AudioSpectrogramOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], F32) ?? true,
  init: () => ({
    window: new Float64Array(0),
    fftLength: 0,
    bins: 0,
    stride: 0,
    frames: 0,
    samples: 0,
    channels: 0,
    squared: false,
    twiddles: new Float64Array(0),
    work: new Float64Array(0),
  }),
  prepare,
  invoke,
};
