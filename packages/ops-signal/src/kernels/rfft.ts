/**
 * SignalRfft (TFLM signal/micro/kernels/rfft.cc with signal/src/rfft_int16.cc): forward real FFT of
 * each frame (the last dimension, zero-padded to `fft_length`) to `fft_length / 2 + 1` complex bins,
 * stored as interleaved (re, im). int16 and int32 use kissfft in 16- and 32-bit fixed point (see
 * kiss-fft-int16-common.ts, kiss-fft-int32-common.ts), which scales the result by 1 / fft_length;
 * float32 uses kissfft in float (kiss-fft-float-common.ts), unscaled.
 *
 * Input: [..., inputLength] of type T (inputLength <= fft_length). Output: [..., fft_length + 2] of type T.
 * Options: `T` (tensor type: int16, int32 or float32), `fft_length` (even; radices 2, 3, 4, 5).
 * Persistent: the kissfft state (twiddles, factors, work buffer). Scratch: the zero-padded frame.
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
import { checkIo, checkType, optionInt32, supportsOptionType } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalRfft';
const TYPES: readonly TensorType[] = [TensorType.INT16, TensorType.INT32, TensorType.FLOAT32];

/** Indices into the persistent params (TfLiteAudioFrontendRfftParams). */
const enum P {
  FFT_LENGTH = 0,
  INPUT_SIZE = 1,
  INPUT_LENGTH = 2,
  /** Output elements per frame (TFLM's output_length is half of it, in complex numbers). */
  OUTPUT_STRIDE = 3,
  SCRATCH_INDEX = 4,
  COUNT = 5,
}

interface RfftOpData {
  params: Int32Array;
  /** The transform of type T; the other two are null. */
  fft16: KissFftrInt16 | null;
  fft32: KissFftrInt32 | null;
  fftF32: KissFftrFloat | null;
}

function init(context: TfLiteContext): RfftOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, fft16: null, fft32: null, fftF32: null };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as RfftOpData;
  checkIo(OP, node, 1, 1);
  const options = readFlexOptions(OP, node);
  const type = optionInt32(OP, node, options, 'T');
  const fftLength = optionInt32(OP, node, options, 'fft_length');

  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (!TYPES.includes(type))
    throw new KernelError(
      OP,
      node.index,
      `T = ${tensorTypeName(type)} is not supported: int16, int32 (kissfft 16- and 32-bit fixed point) and float32 are implemented`,
    );
  checkType(OP, node, 'input', input, type);
  checkType(OP, node, 'output', output, type);
  if (input.dims.length < 1 || input.dims.length !== output.dims.length)
    throw new KernelError(
      OP,
      node.index,
      `input [${Array.from(input.dims).join(', ')}] and output [${Array.from(output.dims).join(', ')}] must have the same rank >= 1`,
    );
  const reason = kissFftrUnsupportedReason(fftLength);
  if (reason) throw new KernelError(OP, node.index, reason);

  const inputLength = input.dims[input.dims.length - 1]!;
  const outputStride = output.dims[output.dims.length - 1]!;
  if (inputLength < 1 || inputLength > fftLength)
    throw new KernelError(OP, node.index, `frame length ${inputLength} (last input dimension) must be in [1, fft_length = ${fftLength}]`);
  if (outputStride !== fftLength + 2)
    throw new KernelError(
      OP,
      node.index,
      `last output dimension is ${outputStride}, expected fft_length + 2 = ${fftLength + 2} (${fftLength / 2 + 1} complex bins)`,
    );
  const inputSize = numElements(input.dims);
  const frames = inputSize / inputLength;
  const outFrames = numElements(output.dims) / outputStride;
  if (frames !== outFrames) throw new KernelError(OP, node.index, `input has ${frames} frames but output has ${outFrames}`);

  const p = data.params;
  p[P.FFT_LENGTH] = fftLength;
  p[P.INPUT_SIZE] = inputSize;
  p[P.INPUT_LENGTH] = inputLength;
  p[P.OUTPUT_STRIDE] = outputStride;
  if (type === TensorType.INT16) {
    p[P.SCRATCH_INDEX] = context.requestScratchBufferInArena(fftLength * 2);
    data.fft16 = new KissFftrInt16(fftLength, context.allocatePersistentBuffer(kissFftrInt16StateBytes(fftLength)));
  } else if (type === TensorType.INT32) {
    p[P.SCRATCH_INDEX] = context.requestScratchBufferInArena(fftLength * 4);
    data.fft32 = new KissFftrInt32(fftLength, context.allocatePersistentBuffer(kissFftrInt32StateBytes(fftLength)));
  } else {
    p[P.SCRATCH_INDEX] = context.requestScratchBufferInArena(fftLength * 4);
    data.fftF32 = new KissFftrFloat(fftLength, context.allocatePersistentBuffer(kissFftrFloatStateBytes(fftLength)));
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as RfftOpData;
  if (data.fft16 !== null) invokeInt16(context, node, data.params, data.fft16);
  else if (data.fft32 !== null) invokeInt32(context, node, data.params, data.fft32);
  else invokeFloat(context, node, data.params, data.fftF32!);
}

function invokeInt32(context: TfLiteContext, node: Node, p: Int32Array, fft: KissFftrInt32): void {
  const input = context.getEvalTensor(node.inputs[0]!).data as Int32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int32Array;
  const work = context.getScratchBuffer(p[P.SCRATCH_INDEX]!).i32;
  const fftLength = p[P.FFT_LENGTH]!;
  const inputSize = p[P.INPUT_SIZE]!;
  const inputLength = p[P.INPUT_LENGTH]!;
  const outputStride = p[P.OUTPUT_STRIDE]!;
  for (let inIdx = 0, outIdx = 0; inIdx < inputSize; inIdx += inputLength, outIdx += outputStride) {
    for (let j = 0; j < inputLength; j++) work[j] = input[inIdx + j]!;
    for (let j = inputLength; j < fftLength; j++) work[j] = 0;
    fft.forward(work, output, outIdx);
  }
}

function invokeInt16(context: TfLiteContext, node: Node, p: Int32Array, fft: KissFftrInt16): void {
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const work = context.getScratchBuffer(p[P.SCRATCH_INDEX]!).i16;
  const fftLength = p[P.FFT_LENGTH]!;
  const inputSize = p[P.INPUT_SIZE]!;
  const inputLength = p[P.INPUT_LENGTH]!;
  const outputStride = p[P.OUTPUT_STRIDE]!;
  for (let inIdx = 0, outIdx = 0; inIdx < inputSize; inIdx += inputLength, outIdx += outputStride) {
    for (let j = 0; j < inputLength; j++) work[j] = input[inIdx + j]!;
    for (let j = inputLength; j < fftLength; j++) work[j] = 0;
    fft.forward(work, output, outIdx);
  }
}

function invokeFloat(context: TfLiteContext, node: Node, p: Int32Array, fft: KissFftrFloat): void {
  const input = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const work = context.getScratchBuffer(p[P.SCRATCH_INDEX]!).f32;
  const fftLength = p[P.FFT_LENGTH]!;
  const inputSize = p[P.INPUT_SIZE]!;
  const inputLength = p[P.INPUT_LENGTH]!;
  const outputStride = p[P.OUTPUT_STRIDE]!;
  for (let inIdx = 0, outIdx = 0; inIdx < inputSize; inIdx += inputLength, outIdx += outputStride) {
    for (let j = 0; j < inputLength; j++) work[j] = input[inIdx + j]!;
    for (let j = inputLength; j < fftLength; j++) work[j] = 0;
    fft.forward(work, output, outIdx);
  }
}

/** SignalRfft kernel (int16, int32 and float32). */
export const SIGNAL_RFFT: Registration<RfftOpData> = {
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
