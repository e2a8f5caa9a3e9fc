/**
 * SignalDelay (TFLM signal/micro/kernels/delay.cc): delays every row of the int16 input by
 * `delay_length` samples. Each row (the last dimension) has its own circular buffer of
 * `frame_size + delay_length` samples that starts with `delay_length` zeros; each invoke appends the
 * row, copies the oldest `frame_size` samples to the output and drops them.
 *
 * Stateful: the buffers live in persistent arena regions (TFLM's CircularBuffer layout and size);
 * `reset()` empties them and writes the `delay_length` zeros again, as TFLM's Reset does.
 *
 * Input: int16, rank >= 1. Output: int16, same shape. Options: `delay_length` (>= 0).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  numElements,
  sameShape,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { Int16CircularBuffer, circularBufferNeededBytes } from './circular-buffer-common.js';
import { checkIo, checkOptionRange, checkType, optionInt32, shapeText, supportsInputType } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalDelay';

/** Indices into the persistent params (TFLMSignalFrontendDelayParams). */
const enum P {
  FRAME_SIZE = 0,
  DELAY_LENGTH = 1,
  OUTER_DIMS = 2,
  COUNT = 3,
}

interface DelayOpData {
  params: Int32Array;
  /** One buffer per row. */
  buffers: Int16CircularBuffer[];
}

function init(context: TfLiteContext): DelayOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32, buffers: [] };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as DelayOpData;
  checkIo(OP, node, 1, 1);
  const delayLength = optionInt32(OP, node, readFlexOptions(OP, node), 'delay_length');
  checkOptionRange(OP, node, 'delay_length', delayLength, 0, 0x3fffffff);

  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  checkType(OP, node, 'input', input, TensorType.INT16);
  checkType(OP, node, 'output', output, TensorType.INT16);
  if (input.dims.length < 1) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must have at least 1 dimension`);
  if (!sameShape(input.dims, output.dims))
    throw new KernelError(OP, node.index, `output shape ${shapeText(output)} differs from input shape ${shapeText(input)}`);
  const frameSize = input.dims[input.dims.length - 1]!;
  if (frameSize < 1) throw new KernelError(OP, node.index, `input ${shapeText(input)} has an empty last dimension`);
  const outerDims = numElements(input.dims) / frameSize;

  const p = data.params;
  p[P.FRAME_SIZE] = frameSize;
  p[P.DELAY_LENGTH] = delayLength;
  p[P.OUTER_DIMS] = outerDims;
  const capacity = frameSize + delayLength;
  data.buffers = [];
  for (let i = 0; i < outerDims; i++) {
    const cb = new Int16CircularBuffer(context.allocatePersistentBuffer(circularBufferNeededBytes(capacity)), capacity);
    cb.writeZeros(delayLength);
    data.buffers.push(cb);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as DelayOpData;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const frameSize = data.params[P.FRAME_SIZE]!;
  const buffers = data.buffers;
  for (let row = 0, at = 0; row < buffers.length; row++, at += frameSize) {
    const cb = buffers[row]!;
    cb.write(input, at, frameSize);
    cb.get(frameSize, output, at);
    cb.discard(frameSize);
  }
}

function reset(_context: TfLiteContext, data: DelayOpData): void {
  const delayLength = data.params[P.DELAY_LENGTH]!;
  for (const cb of data.buffers) {
    cb.reset();
    cb.writeZeros(delayLength);
  }
}

/** SignalDelay kernel (int16, stateful). */
export const SIGNAL_DELAY: Registration<DelayOpData> = {
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
