/**
 * SignalOverlapAdd (TFLM signal/micro/kernels/overlap_add.cc, signal/src/overlap_add.cc): the inverse
 * of the framer. Each row keeps a `frame_size` accumulator; per frame the kernel adds the frame into it,
 * emits its first `frame_step` samples, shifts it left by `frame_step` and zeroes the tail. int16 sums
 * saturate to int16 in the accumulator; float32 sums are float32.
 *
 * Stateful: the accumulators live in persistent arena regions (`frame_size` elements per row, as TFLM);
 * `reset()` zeroes them, as TFLM's Reset does.
 *
 * Input: T [..., n_frames, frame_size] (rank >= 2). Output: T [..., n_frames * frame_step].
 * Options: `T` (int16 or float32), `frame_step` (1..frame_size).
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
import { checkIo, checkOptionRange, checkType, optionInt32, shapeText, supportsOptionType } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalOverlapAdd';
const TYPES: readonly TensorType[] = [TensorType.INT16, TensorType.FLOAT32];

/** Indices into the persistent params (TFLMSignalOverlapAddParams). */
const enum P {
  FRAME_SIZE = 0,
  FRAME_STEP = 1,
  OUTER_DIMS = 2,
  N_FRAMES = 3,
  COUNT = 4,
}

interface OverlapAddOpData {
  params: Int32Array;
  /** int16 accumulators, one per row (empty for float32). */
  states16: Int16Array[];
  /** float32 accumulators, one per row (empty for int16). */
  statesF32: Float32Array[];
}

function init(context: TfLiteContext): OverlapAddOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, states16: [], statesF32: [] };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as OverlapAddOpData;
  checkIo(OP, node, 1, 1);
  const options = readFlexOptions(OP, node);
  const type = optionInt32(OP, node, options, 'T');
  const frameStep = optionInt32(OP, node, options, 'frame_step');
  if (!TYPES.includes(type))
    throw new KernelError(OP, node.index, `T = ${tensorTypeName(type)} is not supported (TFLM implements int16 and float32)`);

  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  checkType(OP, node, 'input', input, type);
  checkType(OP, node, 'output', output, type);
  const rank = input.dims.length;
  if (rank < 2)
    throw new KernelError(OP, node.index, `input ${shapeText(input)} must have at least 2 dimensions [..., n_frames, frame_size]`);
  const frameSize = input.dims[rank - 1]!;
  const nFrames = input.dims[rank - 2]!;
  if (frameSize < 1 || nFrames < 1) throw new KernelError(OP, node.index, `input ${shapeText(input)} has an empty frame dimension`);
  checkOptionRange(OP, node, 'frame_step', frameStep, 1, frameSize);
  const expected = [...Array.from(input.dims).slice(0, rank - 2), nFrames * frameStep];
  if (output.dims.length !== rank - 1 || expected.some((d, i) => output.dims[i] !== d))
    throw new KernelError(
      OP,
      node.index,
      `output shape ${shapeText(output)} must be [${expected.join(', ')}] (${nFrames} frames of ${frameStep} new samples)`,
    );

  const outerDims = numElements(input.dims) / (frameSize * nFrames);
  const p = data.params;
  p[P.FRAME_SIZE] = frameSize;
  p[P.FRAME_STEP] = frameStep;
  p[P.OUTER_DIMS] = outerDims;
  p[P.N_FRAMES] = nFrames;
  data.states16 = [];
  data.statesF32 = [];
  for (let i = 0; i < outerDims; i++) {
    const region = context.allocatePersistentBuffer(frameSize * (type === TensorType.INT16 ? 2 : 4));
    if (type === TensorType.INT16) data.states16.push(new Int16Array(region.buffer, region.offset, frameSize).fill(0));
    else data.statesF32.push(new Float32Array(region.buffer, region.offset, frameSize).fill(0));
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as OverlapAddOpData;
  if (data.states16.length > 0) invokeInt16(context, node, data.params, data.states16);
  else invokeFloat(context, node, data.params, data.statesF32);
}

function invokeInt16(context: TfLiteContext, node: Node, p: Int32Array, states: Int16Array[]): void {
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const frameSize = p[P.FRAME_SIZE]!;
  const frameStep = p[P.FRAME_STEP]!;
  const nFrames = p[P.N_FRAMES]!;
  const keep = frameSize - frameStep;
  for (let i = 0; i < states.length; i++) {
    const acc = states[i]!;
    for (let frame = 0; frame < nFrames; frame++) {
      const inBase = (i * nFrames + frame) * frameSize;
      const outBase = (i * nFrames + frame) * frameStep;
      for (let j = 0; j < frameSize; j++) {
        const s = input[inBase + j]! + acc[j]!;
        acc[j] = s < -32768 ? -32768 : s > 32767 ? 32767 : s;
      }
      for (let j = 0; j < frameStep; j++) output[outBase + j] = acc[j]!;
      acc.copyWithin(0, frameStep, frameSize);
      acc.fill(0, keep, frameSize);
    }
  }
}

function invokeFloat(context: TfLiteContext, node: Node, p: Int32Array, states: Float32Array[]): void {
  const input = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const frameSize = p[P.FRAME_SIZE]!;
  const frameStep = p[P.FRAME_STEP]!;
  const nFrames = p[P.N_FRAMES]!;
  const keep = frameSize - frameStep;
  for (let i = 0; i < states.length; i++) {
    const acc = states[i]!;
    for (let frame = 0; frame < nFrames; frame++) {
      const inBase = (i * nFrames + frame) * frameSize;
      const outBase = (i * nFrames + frame) * frameStep;
      for (let j = 0; j < frameSize; j++) acc[j] = acc[j]! + input[inBase + j]!;
      for (let j = 0; j < frameStep; j++) output[outBase + j] = acc[j]!;
      acc.copyWithin(0, frameStep, frameSize);
      acc.fill(0, keep, frameSize);
    }
  }
}

function reset(_context: TfLiteContext, data: OverlapAddOpData): void {
  for (const s of data.states16) s.fill(0);
  for (const s of data.statesF32) s.fill(0);
}

/** SignalOverlapAdd kernel (int16 and float32, stateful). */
export const SIGNAL_OVERLAP_ADD: Registration<OverlapAddOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (_context, node) => supportsOptionType(node, TYPES),
  init,
  prepare,
  invoke,
  reset,
};
