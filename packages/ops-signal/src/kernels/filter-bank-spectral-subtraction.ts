/**
 * SignalFilterBankSpectralSubtraction (TFLM signal/micro/kernels/filter_bank_spectral_subtraction.cc,
 * signal/src/filter_bank_spectral_subtraction.cc): per channel, updates a low-pass noise estimate
 * (`(signal << smoothing_bits) * smoothing + noise * (1 - smoothing)`, uint64, >> spectral_subtraction_bits;
 * even channels use `smoothing`, odd ones `alternate_smoothing`) and subtracts it from the signal, keeping
 * at least `min_signal_remaining` of it. With `clamping`, the estimate is also clamped to the signal.
 *
 * Stateful: the noise estimate lives in a persistent arena buffer, zeroed in prepare and by `reset()`,
 * and is copied to the second output after each invoke.
 *
 * Input: uint32 [num_channels]. Outputs: 0 uint32 [num_channels], 1 noise estimate uint32 [num_channels].
 * Options: alternate_one_minus_smoothing, alternate_smoothing, clamping, min_signal_remaining,
 * num_channels, one_minus_smoothing, smoothing, smoothing_bits (0..31), spectral_subtraction_bits (0..63).
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkElements, checkIo, checkOptionRange, checkRank, checkType, optionBool, optionInt32 } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';
import { U64 } from './uint64-common.js';

const OP = 'SignalFilterBankSpectralSubtraction';

/** Indices into the persistent params (SpectralSubtractionConfig); uint32 fields are stored as int32 bits. */
const enum P {
  NUM_CHANNELS = 0,
  SMOOTHING = 1,
  ONE_MINUS_SMOOTHING = 2,
  MIN_SIGNAL_REMAINING = 3,
  ALTERNATE_SMOOTHING = 4,
  ALTERNATE_ONE_MINUS_SMOOTHING = 5,
  SMOOTHING_BITS = 6,
  SPECTRAL_SUBTRACTION_BITS = 7,
  CLAMPING = 8,
  COUNT = 9,
}

interface SpectralSubtractionOpData {
  params: Int32Array;
  /** The noise estimate state (num_channels uint32), persistent. */
  noiseEstimate: Uint32Array;
  acc: U64;
}

function init(context: TfLiteContext): SpectralSubtractionOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, noiseEstimate: new Uint32Array(0), acc: new U64() };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SpectralSubtractionOpData;
  checkIo(OP, node, 1, 2);
  const o = readFlexOptions(OP, node);
  const p = data.params;
  p[P.ALTERNATE_ONE_MINUS_SMOOTHING] = optionInt32(OP, node, o, 'alternate_one_minus_smoothing');
  p[P.ALTERNATE_SMOOTHING] = optionInt32(OP, node, o, 'alternate_smoothing');
  p[P.CLAMPING] = optionBool(OP, node, o, 'clamping') ? 1 : 0;
  p[P.MIN_SIGNAL_REMAINING] = optionInt32(OP, node, o, 'min_signal_remaining');
  const numChannels = optionInt32(OP, node, o, 'num_channels');
  p[P.ONE_MINUS_SMOOTHING] = optionInt32(OP, node, o, 'one_minus_smoothing');
  p[P.SMOOTHING] = optionInt32(OP, node, o, 'smoothing');
  const smoothingBits = optionInt32(OP, node, o, 'smoothing_bits');
  const spectralSubtractionBits = optionInt32(OP, node, o, 'spectral_subtraction_bits');
  checkOptionRange(OP, node, 'num_channels', numChannels, 1, 0x3fffffff);
  checkOptionRange(OP, node, 'smoothing_bits', smoothingBits, 0, 31);
  checkOptionRange(OP, node, 'spectral_subtraction_bits', spectralSubtractionBits, 0, 63);
  p[P.NUM_CHANNELS] = numChannels;
  p[P.SMOOTHING_BITS] = smoothingBits;
  p[P.SPECTRAL_SUBTRACTION_BITS] = spectralSubtractionBits;

  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const noise = context.getTensor(node.outputs[1]!);
  checkRank(OP, node, 'input', input, 1);
  checkRank(OP, node, 'output', output, 1);
  checkRank(OP, node, 'noise estimate output', noise, 1);
  checkType(OP, node, 'input', input, TensorType.UINT32);
  checkType(OP, node, 'output', output, TensorType.UINT32);
  checkType(OP, node, 'noise estimate output', noise, TensorType.UINT32);
  checkElements(OP, node, 'input', input, numChannels);
  checkElements(OP, node, 'output', output, numChannels);
  checkElements(OP, node, 'noise estimate output', noise, numChannels);

  const region = context.allocatePersistentBuffer(numChannels * 4);
  data.noiseEstimate = new Uint32Array(region.buffer, region.offset, numChannels);
  data.noiseEstimate.fill(0);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SpectralSubtractionOpData;
  const p = data.params;
  const input = context.getEvalTensor(node.inputs[0]!).data as Uint32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Uint32Array;
  const noiseOut = context.getEvalTensor(node.outputs[1]!).data as Uint32Array;
  const noise = data.noiseEstimate;
  const acc = data.acc;
  const numChannels = p[P.NUM_CHANNELS]!;
  const smoothingBits = p[P.SMOOTHING_BITS]!;
  const ssBits = p[P.SPECTRAL_SUBTRACTION_BITS]!;
  const clamping = p[P.CLAMPING] !== 0;
  const minSignalRemaining = p[P.MIN_SIGNAL_REMAINING]! >>> 0;
  for (let i = 0; i < numChannels; i++) {
    const even = (i & 1) === 0;
    const smoothing = (even ? p[P.SMOOTHING]! : p[P.ALTERNATE_SMOOTHING]!) >>> 0;
    const oneMinusSmoothing = (even ? p[P.ONE_MINUS_SMOOTHING]! : p[P.ALTERNATE_ONE_MINUS_SMOOTHING]!) >>> 0;
    const x = input[i]!;
    const signalScaledUp = (x << smoothingBits) >>> 0;
    noise[i] = acc.setMul(signalScaledUp, smoothing).addMul(noise[i]!, oneMinusSmoothing).shiftRightLow32(ssBits);
    let estimateScaledUp = noise[i]!;
    if (estimateScaledUp > signalScaledUp) {
      estimateScaledUp = signalScaledUp;
      if (clamping) noise[i] = estimateScaledUp;
    }
    const floor = acc.setMul(x, minSignalRemaining).shiftRightLow32(ssBits);
    const subtracted = (signalScaledUp - estimateScaledUp) >>> smoothingBits;
    output[i] = subtracted > floor ? subtracted : floor;
  }
  for (let i = 0; i < numChannels; i++) noiseOut[i] = noise[i]!;
}

function reset(_context: TfLiteContext, data: SpectralSubtractionOpData): void {
  data.noiseEstimate.fill(0);
}

/** SignalFilterBankSpectralSubtraction kernel (stateful). */
export const SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION: Registration<SpectralSubtractionOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
  reset,
};
