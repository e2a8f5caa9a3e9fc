/**
 * SignalEnergy (TFLM signal/micro/kernels/energy.cc, signal/src/energy.cc): the power spectrum
 * `re^2 + im^2` of the complex int16 bins in [start_index, end_index), as uint32 (computed in int32, so
 * the one overflowing case (-32768, -32768) wraps to 2^31 exactly as in C). TFLM leaves the output
 * elements outside the range untouched (they hold whatever the arena held, e.g. an earlier tensor's
 * bytes); here they are 0, so no output depends on arena contents (found by micrort fuzz when a mutated
 * model made the whole energy tensor a graph output).
 *
 * Input: int16 [2 * bins] (interleaved re, im). Output: uint32 [n] (1-D).
 * Options: `start_index`, `end_index` with 0 <= start <= end <= min(bins, n).
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkIo, checkRank, checkType, optionInt32 } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalEnergy';

/** Indices into the persistent params (TFLMSignalEnergyParams). */
const enum P {
  END_INDEX = 0,
  START_INDEX = 1,
  COUNT = 2,
}

interface EnergyOpData {
  params: Int32Array;
}

function init(context: TfLiteContext): EnergyOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32 };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as EnergyOpData;
  checkIo(OP, node, 1, 1);
  const options = readFlexOptions(OP, node);
  const endIndex = optionInt32(OP, node, options, 'end_index');
  const startIndex = optionInt32(OP, node, options, 'start_index');
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  checkRank(OP, node, 'input', input, 1);
  checkRank(OP, node, 'output', output, 1);
  checkType(OP, node, 'input', input, TensorType.INT16);
  checkType(OP, node, 'output', output, TensorType.UINT32);
  const bins = input.dims[0]! >> 1;
  const limit = Math.min(bins, output.dims[0]!);
  if (!(startIndex >= 0 && startIndex <= endIndex && endIndex <= limit))
    throw new KernelError(
      OP,
      node.index,
      `start_index ${startIndex} and end_index ${endIndex} must satisfy 0 <= start <= end <= ${limit} (input has ${bins} complex bins, output ${output.dims[0]} elements)`,
    );
  data.params[P.END_INDEX] = endIndex;
  data.params[P.START_INDEX] = startIndex;
}

function invoke(context: TfLiteContext, node: Node): void {
  const p = (node.userData as EnergyOpData).params;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Uint32Array;
  const start = p[P.START_INDEX]!;
  const end = p[P.END_INDEX]!;
  output.fill(0, 0, start);
  output.fill(0, end);
  for (let i = start; i < end; i++) {
    const re = input[2 * i]!;
    const im = input[2 * i + 1]!;
    output[i] = (re * re + im * im) >>> 0;
  }
}

/** SignalEnergy kernel. */
export const SIGNAL_ENERGY: Registration<EnergyOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
