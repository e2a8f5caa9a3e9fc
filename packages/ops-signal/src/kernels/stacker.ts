/**
 * SignalStacker (TFLM signal/micro/kernels/stacker.cc): stacks `left_context + 1 + right_context`
 * consecutive frames of `num_channels` int16 values into one output vector, every `stacker_step`
 * frames. A circular buffer of `num_channels * (left + right + 1)` values collects the frames; the first
 * frame after a reset is repeated `left_context` extra times (left padding). When the buffer is full the
 * kernel copies it out, drops `stacker_step` frames and sets the bool output to true; otherwise the bool
 * output is false. TFLM leaves the stacked output untouched on such an invoke (it keeps whatever the
 * arena held); here it is written as zeros, so no output depends on arena contents.
 *
 * Stateful: the buffer lives in a persistent arena region (TFLM's CircularBuffer size); `reset()`
 * empties it and forgets the first frame, as TFLM's Reset does.
 *
 * Input: int16 [num_channels]. Outputs: 0 int16 [num_channels * (left + right + 1)], 1 bool scalar.
 * Options: `num_channels` (>= 1), `stacker_left_context` (>= 0), `stacker_right_context` (>= 0),
 * `stacker_step` (1..left + right + 1).
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { Int16CircularBuffer, circularBufferNeededBytes } from './circular-buffer-common.js';
import { checkElements, checkIo, checkOptionRange, checkRank, checkType, optionInt32, supportsInputType } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalStacker';

/** Indices into the persistent params (TFLMSignalStackerParams). */
const enum P {
  NUM_CHANNELS = 0,
  LEFT_CONTEXT = 1,
  BUFFER_SIZE = 2,
  STEP_SIZE = 3,
  HAS_FIRST_FRAME = 4,
  COUNT = 5,
}

interface StackerOpData {
  params: Int32Array;
  buffer: Int16CircularBuffer | null;
}

function init(context: TfLiteContext): StackerOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, buffer: null };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as StackerOpData;
  checkIo(OP, node, 1, 2);
  const o = readFlexOptions(OP, node);
  const numChannels = optionInt32(OP, node, o, 'num_channels');
  const left = optionInt32(OP, node, o, 'stacker_left_context');
  const right = optionInt32(OP, node, o, 'stacker_right_context');
  const step = optionInt32(OP, node, o, 'stacker_step');
  checkOptionRange(OP, node, 'num_channels', numChannels, 1, 0xfffff);
  checkOptionRange(OP, node, 'stacker_left_context', left, 0, 0xfff);
  checkOptionRange(OP, node, 'stacker_right_context', right, 0, 0xfff);
  const frames = left + right + 1;
  checkOptionRange(OP, node, 'stacker_step', step, 1, frames);
  const bufferSize = numChannels * frames;
  if (bufferSize > 0x3fffffff)
    throw new KernelError(OP, node.index, `num_channels * (left + right + 1) = ${bufferSize} values is too large`);

  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const valid = context.getTensor(node.outputs[1]!);
  checkType(OP, node, 'input', input, TensorType.INT16);
  checkType(OP, node, 'output', output, TensorType.INT16);
  checkType(OP, node, 'valid output', valid, TensorType.BOOL);
  checkRank(OP, node, 'input', input, 1);
  checkRank(OP, node, 'output', output, 1);
  checkRank(OP, node, 'valid output', valid, 0);
  checkElements(OP, node, 'input', input, numChannels);
  checkElements(OP, node, 'output', output, bufferSize);

  const p = data.params;
  p[P.NUM_CHANNELS] = numChannels;
  p[P.LEFT_CONTEXT] = left;
  p[P.BUFFER_SIZE] = bufferSize;
  p[P.STEP_SIZE] = numChannels * step;
  p[P.HAS_FIRST_FRAME] = 0;
  data.buffer = new Int16CircularBuffer(context.allocatePersistentBuffer(circularBufferNeededBytes(bufferSize)), bufferSize);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as StackerOpData;
  const p = data.params;
  const cb = data.buffer!;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const valid = context.getEvalTensor(node.outputs[1]!).data as Uint8Array;
  const numChannels = p[P.NUM_CHANNELS]!;
  const bufferSize = p[P.BUFFER_SIZE]!;
  cb.write(input, 0, numChannels);
  if (p[P.HAS_FIRST_FRAME] === 0) {
    cb.extend(numChannels, p[P.LEFT_CONTEXT]!);
    p[P.HAS_FIRST_FRAME] = 1;
  }
  if (cb.available() >= bufferSize) {
    cb.get(bufferSize, output, 0);
    cb.discard(p[P.STEP_SIZE]!);
    valid[0] = 1;
  } else {
    output.fill(0, 0, bufferSize);
    valid[0] = 0;
  }
}

function reset(_context: TfLiteContext, data: StackerOpData): void {
  data.buffer?.reset();
  data.params[P.HAS_FIRST_FRAME] = 0;
}

/** SignalStacker kernel (int16, stateful). */
export const SIGNAL_STACKER: Registration<StackerOpData> = {
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
