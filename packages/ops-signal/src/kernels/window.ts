/**
 * SignalWindow (TFLM signal/micro/kernels/window.cc, signal/src/window.cc): multiplies each frame of the
 * int16 input by the int16 window weights, shifts right by `shift` and saturates to int16.
 *
 * Inputs: 0 input int16 (rank >= 1, frames of `weights.length` samples), 1 weights int16 [n].
 * Output: int16, same shape as the input. Options: `shift` (int, 0..31).
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
import { checkIo, checkOptionRange, checkRank, checkType, optionInt32 } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalWindow';

/** Indices into the persistent params (TFLMSignalWindowParams). */
const enum P {
  SHIFT = 0,
  INPUT_SIZE = 1,
  COUNT = 2,
}

interface WindowOpData {
  params: Int32Array;
}

function init(context: TfLiteContext): WindowOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32 };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as WindowOpData;
  checkIo(OP, node, 2, 1);
  const options = readFlexOptions(OP, node);
  const shift = optionInt32(OP, node, options, 'shift');
  checkOptionRange(OP, node, 'shift', shift, 0, 31);

  const input = context.getTensor(node.inputs[0]!);
  const weights = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.dims.length < 1) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must have at least 1 dimension`);
  checkRank(OP, node, 'weights', weights, 1);
  checkType(OP, node, 'input', input, TensorType.INT16);
  checkType(OP, node, 'weights', weights, TensorType.INT16);
  checkType(OP, node, 'output', output, TensorType.INT16);
  if (!sameShape(input.dims, output.dims))
    throw new KernelError(
      OP,
      node.index,
      `output shape [${Array.from(output.dims).join(', ')}] differs from input shape [${Array.from(input.dims).join(', ')}]`,
    );
  const inputSize = numElements(input.dims);
  const weightSize = weights.dims[0]!;
  if (weightSize < 1 || inputSize % weightSize !== 0)
    throw new KernelError(OP, node.index, `input of ${inputSize} samples is not a whole number of ${weightSize}-sample windows`);

  data.params[P.SHIFT] = shift;
  data.params[P.INPUT_SIZE] = inputSize;
}

function invoke(context: TfLiteContext, node: Node): void {
  const params = (node.userData as WindowOpData).params;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const weights = context.getEvalTensor(node.inputs[1]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const shift = params[P.SHIFT]!;
  const inputSize = params[P.INPUT_SIZE]!;
  const weightSize = weights.length;
  for (let base = 0; base < inputSize; base += weightSize) {
    for (let i = 0; i < weightSize; i++) {
      const raw = Math.imul(input[base + i]!, weights[i]!) >> shift;
      output[base + i] = raw < -32768 ? -32768 : raw > 32767 ? 32767 : raw;
    }
  }
}

/** SignalWindow kernel. */
export const SIGNAL_WINDOW: Registration<WindowOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
