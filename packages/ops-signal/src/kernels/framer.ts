/**
 * SignalFramer (TFLM signal/micro/kernels/framer.cc): cuts each int16 row into overlapping frames of
 * `frame_size` samples every `frame_step` samples, across invokes. Each row (the last dimension, a
 * whole number of steps) has a circular buffer of `frame_size` rounded up to a multiple of `frame_step`;
 * per step the kernel appends `frame_step` samples and, once `frame_size` samples are buffered, copies a
 * frame out and drops the oldest `frame_step`. With `prefill`, the buffer starts with
 * `frame_size - frame_step` zeros, so the first invoke already yields frames.
 *
 * The scalar bool output says whether every frame of this invoke was complete. TFLM leaves an
 * incomplete frame's output untouched (it keeps whatever the arena held); here it is written as zeros, so
 * no output depends on arena contents.
 *
 * Stateful: buffers in persistent arena regions (TFLM's CircularBuffer size); `reset()` empties them and
 * prefills again, as TFLM's Reset does.
 *
 * Input: int16 [..., n_frames * frame_step]. Outputs: 0 int16 [..., n_frames, frame_size], 1 bool scalar.
 * Options: `frame_size` (>= 1), `frame_step` (>= 1), `prefill` (bool; needs frame_step <= frame_size).
 */
import { BuiltinOperator, KernelError, TensorType, numElements, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { Int16CircularBuffer, circularBufferNeededBytes } from './circular-buffer-common.js';
import {
  checkIo,
  checkOptionRange,
  checkRank,
  checkType,
  optionBool,
  optionInt32,
  shapeText,
  supportsInputType,
} from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalFramer';

/** Indices into the persistent params (TFLMSignalFramerParams). */
const enum P {
  FRAME_SIZE = 0,
  FRAME_STEP = 1,
  OUTER_DIMS = 2,
  N_FRAMES = 3,
  PREFILL = 4,
  COUNT = 5,
}

interface FramerOpData {
  params: Int32Array;
  /** One buffer per row. */
  buffers: Int16CircularBuffer[];
}

function init(context: TfLiteContext): FramerOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, buffers: [] };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as FramerOpData;
  checkIo(OP, node, 1, 2);
  const options = readFlexOptions(OP, node);
  const frameSize = optionInt32(OP, node, options, 'frame_size');
  const frameStep = optionInt32(OP, node, options, 'frame_step');
  const prefill = optionBool(OP, node, options, 'prefill');
  checkOptionRange(OP, node, 'frame_size', frameSize, 1, 0x3fffffff);
  checkOptionRange(OP, node, 'frame_step', frameStep, 1, 0x3fffffff);
  if (prefill && frameStep > frameSize)
    throw new KernelError(
      OP,
      node.index,
      `prefill needs frame_step (${frameStep}) <= frame_size (${frameSize}): it writes frame_size - frame_step zeros`,
    );

  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const valid = context.getTensor(node.outputs[1]!);
  checkType(OP, node, 'input', input, TensorType.INT16);
  checkType(OP, node, 'output', output, TensorType.INT16);
  checkType(OP, node, 'valid output', valid, TensorType.BOOL);
  checkRank(OP, node, 'valid output', valid, 0);
  const rank = input.dims.length;
  if (rank < 1) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must have at least 1 dimension`);
  const innermost = input.dims[rank - 1]!;
  if (innermost < frameStep || innermost % frameStep !== 0)
    throw new KernelError(OP, node.index, `last input dimension ${innermost} must be a positive multiple of frame_step ${frameStep}`);
  const nFrames = innermost / frameStep;
  const expected = [...Array.from(input.dims).slice(0, rank - 1), nFrames, frameSize];
  if (output.dims.length !== rank + 1 || expected.some((d, i) => output.dims[i] !== d))
    throw new KernelError(
      OP,
      node.index,
      `output shape ${shapeText(output)} must be [${expected.join(', ')}] (input ${shapeText(input)}: ${nFrames} frames of ${frameSize})`,
    );

  const p = data.params;
  const outerDims = numElements(input.dims) / innermost;
  p[P.FRAME_SIZE] = frameSize;
  p[P.FRAME_STEP] = frameStep;
  p[P.OUTER_DIMS] = outerDims;
  p[P.N_FRAMES] = nFrames;
  p[P.PREFILL] = prefill ? 1 : 0;
  // TFLM rounds the capacity up to a multiple of the step (e.g. 400 / 160 -> 480, not 560).
  const capacity = Math.ceil(frameSize / frameStep) * frameStep;
  data.buffers = [];
  for (let i = 0; i < outerDims; i++)
    data.buffers.push(new Int16CircularBuffer(context.allocatePersistentBuffer(circularBufferNeededBytes(capacity)), capacity));
  resetState(data);
}

function resetState(data: FramerOpData): void {
  const p = data.params;
  const prefillZeros = p[P.PREFILL] !== 0 ? p[P.FRAME_SIZE]! - p[P.FRAME_STEP]! : 0;
  for (const cb of data.buffers) {
    cb.reset();
    cb.writeZeros(prefillZeros);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as FramerOpData;
  const p = data.params;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const valid = context.getEvalTensor(node.outputs[1]!).data as Uint8Array;
  const frameSize = p[P.FRAME_SIZE]!;
  const frameStep = p[P.FRAME_STEP]!;
  const nFrames = p[P.N_FRAMES]!;
  const buffers = data.buffers;
  let allValid = 1;
  for (let i = 0; i < buffers.length; i++) {
    const cb = buffers[i]!;
    for (let frame = 0; frame < nFrames; frame++) {
      const inputIdx = (i * nFrames + frame) * frameStep;
      const outputIdx = (i * nFrames + frame) * frameSize;
      cb.write(input, inputIdx, frameStep);
      if (cb.available() >= frameSize) {
        cb.get(frameSize, output, outputIdx);
        cb.discard(frameStep);
      } else {
        allValid = 0;
        output.fill(0, outputIdx, outputIdx + frameSize);
      }
    }
  }
  valid[0] = allValid;
}

function reset(_context: TfLiteContext, data: FramerOpData): void {
  resetState(data);
}

/** SignalFramer kernel (int16, stateful). */
export const SIGNAL_FRAMER: Registration<FramerOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => supportsInputType(context, node, [TensorType.INT16]),
  init,
  prepare,
  invoke,
  reset,
};
