/**
 * SignalIrfft (TFLM signal/micro/kernels/irfft.cc with signal/src/irfft_{int16,int32,float}.cc): inverse
 * real FFT of each frame of `fft_length / 2 + 1` complex bins (interleaved re, im) to `fft_length` real
 * samples, with kissfft's kiss_fftri. int16 and int32 run kissfft in 16- and 32-bit fixed point
 * (kiss-fft-int16-common.ts, kiss-fft-int32-common.ts), which scale by 1 / fft_length; float32 runs the
 * float kissfft and then divides every sample by fft_length, as IrfftFloatApply does. Either way the
 * result is the normalized inverse DFT (an RFFT followed by an IRFFT returns the frame, for float).
 *
 * Input: T [..., fft_length + 2]. Output: T [..., fft_length], same rank and frame count.
 * Options: `T` (int16, int32 or float32), `fft_length` (even; radices 2, 3, 4, 5).
 * Persistent: the kissfft state (twiddles, factors, work buffer). No scratch: kissfft writes the frame
 * straight into the output, as TFLM does.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  numElements,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { KissFftrFloat, kissFftrFloatStateBytes } from './kiss-fft-float-common.js';
import { KissFftrInt16, kissFftrInt16StateBytes, kissFftrUnsupportedReason } from './kiss-fft-int16-common.js';
import { KissFftrInt32, kissFftrInt32StateBytes } from './kiss-fft-int32-common.js';
import { checkIo, checkType, optionInt32, shapeText, supportsOptionType } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalIrfft';
const TYPES: readonly TensorType[] = [TensorType.INT16, TensorType.INT32, TensorType.FLOAT32];

/** Indices into the persistent params (TfLiteAudioFrontendIrfftParams). */
const enum P {
  FFT_LENGTH = 0,
  /** Input elements (2 per complex bin). */
  INPUT_SIZE = 1,
  /** Input elements per frame (fft_length + 2). */
  INPUT_STRIDE = 2,
  /** Output elements per frame (fft_length). */
  OUTPUT_LENGTH = 3,
  COUNT = 4,
}

interface IrfftOpData {
  params: Int32Array;
  /** The inverse transform of type T; the other two are null. */
  fft16: KissFftrInt16 | null;
  fft32: KissFftrInt32 | null;
  fftF32: KissFftrFloat | null;
}

function init(context: TfLiteContext): IrfftOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, fft16: null, fft32: null, fftF32: null };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as IrfftOpData;
  checkIo(OP, node, 1, 1);
  const options = readFlexOptions(OP, node);
  const type = optionInt32(OP, node, options, 'T');
  const fftLength = optionInt32(OP, node, options, 'fft_length');
  if (!TYPES.includes(type))
    throw new KernelError(
      OP,
      node.index,
      `T = ${tensorTypeName(type)} is not supported: int16, int32 (kissfft fixed point) and float32 are implemented`,
    );

  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  checkType(OP, node, 'input', input, type);
  checkType(OP, node, 'output', output, type);
  if (input.dims.length < 1 || input.dims.length !== output.dims.length)
    throw new KernelError(OP, node.index, `input ${shapeText(input)} and output ${shapeText(output)} must have the same rank >= 1`);
  const reason = kissFftrUnsupportedReason(fftLength);
  if (reason) throw new KernelError(OP, node.index, reason);

  const inputStride = input.dims[input.dims.length - 1]!;
  const outputLength = output.dims[output.dims.length - 1]!;
  if (inputStride !== fftLength + 2)
    throw new KernelError(
      OP,
      node.index,
      `last input dimension is ${inputStride}, expected fft_length + 2 = ${fftLength + 2} (${fftLength / 2 + 1} complex bins)`,
    );
  if (outputLength !== fftLength)
    throw new KernelError(OP, node.index, `last output dimension is ${outputLength}, expected fft_length = ${fftLength}`);
  const inputSize = numElements(input.dims);
  const frames = inputSize / inputStride;
  const outFrames = numElements(output.dims) / outputLength;
  if (frames !== outFrames) throw new KernelError(OP, node.index, `input has ${frames} frames but output has ${outFrames}`);

  const p = data.params;
  p[P.FFT_LENGTH] = fftLength;
  p[P.INPUT_SIZE] = inputSize;
  p[P.INPUT_STRIDE] = inputStride;
  p[P.OUTPUT_LENGTH] = outputLength;
  if (type === TensorType.INT16)
    data.fft16 = new KissFftrInt16(fftLength, context.allocatePersistentBuffer(kissFftrInt16StateBytes(fftLength)), true);
  else if (type === TensorType.INT32)
    data.fft32 = new KissFftrInt32(fftLength, context.allocatePersistentBuffer(kissFftrInt32StateBytes(fftLength)), true);
  else data.fftF32 = new KissFftrFloat(fftLength, context.allocatePersistentBuffer(kissFftrFloatStateBytes(fftLength)), true);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as IrfftOpData;
  const p = data.params;
  const inputSize = p[P.INPUT_SIZE]!;
  const inputStride = p[P.INPUT_STRIDE]!;
  const outputLength = p[P.OUTPUT_LENGTH]!;
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  if (data.fft16 !== null) {
    const fft = data.fft16;
    for (let inIdx = 0, outIdx = 0; inIdx < inputSize; inIdx += inputStride, outIdx += outputLength)
      fft.inverse(input as Int16Array, inIdx, output as Int16Array, outIdx);
  } else if (data.fft32 !== null) {
    const fft = data.fft32;
    for (let inIdx = 0, outIdx = 0; inIdx < inputSize; inIdx += inputStride, outIdx += outputLength)
      fft.inverse(input as Int32Array, inIdx, output as Int32Array, outIdx);
  } else {
    const fft = data.fftF32!;
    const out = output as Float32Array;
    const fftLength = p[P.FFT_LENGTH]!;
    for (let inIdx = 0, outIdx = 0; inIdx < inputSize; inIdx += inputStride, outIdx += outputLength) {
      fft.inverse(input as Float32Array, inIdx, out, outIdx);
      for (let i = 0; i < fftLength; i++) out[outIdx + i] = out[outIdx + i]! / fftLength;
    }
  }
}

/** SignalIrfft kernel (int16, int32 and float32). */
export const SIGNAL_IRFFT: Registration<IrfftOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (_context, node) => supportsOptionType(node, TYPES),
  init,
  prepare,
  invoke,
};
