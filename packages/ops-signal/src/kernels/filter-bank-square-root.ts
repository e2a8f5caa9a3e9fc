/**
 * SignalFilterBankSquareRoot (TFLM signal/micro/kernels/filter_bank_square_root.cc,
 * signal/src/filter_bank_square_root.cc): the rounded integer square root (Sqrt64) of each uint64
 * channel, shifted right by the runtime `scale_bits` (the FFT auto-scale shift, undone here).
 *
 * Inputs: 0 uint64 [n], 1 scale_bits int32 scalar (rank 0). Output: uint32 [n]. No options.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkElements, checkIo, checkRank, checkType, WordView } from './signal-kernel-common.js';
import { sqrt64 } from './square-root-common.js';

const OP = 'SignalFilterBankSquareRoot';

interface SquareRootOpData {
  input: WordView;
}

function init(): SquareRootOpData {
  return { input: new WordView() };
}

function prepare(context: TfLiteContext, node: Node): void {
  checkIo(OP, node, 2, 1);
  const input = context.getTensor(node.inputs[0]!);
  const scaleBits = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  checkRank(OP, node, 'input', input, 1);
  checkRank(OP, node, 'scale_bits', scaleBits, 0);
  checkRank(OP, node, 'output', output, 1);
  checkType(OP, node, 'input', input, TensorType.UINT64);
  checkType(OP, node, 'scale_bits', scaleBits, TensorType.INT32);
  checkType(OP, node, 'output', output, TensorType.UINT32);
  checkElements(OP, node, 'output', output, input.dims[0]!);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SquareRootOpData;
  const input = data.input.of(context.getEvalTensor(node.inputs[0]!));
  const scaleBits = (context.getEvalTensor(node.inputs[1]!).data as Int32Array)[0]!;
  const output = context.getEvalTensor(node.outputs[0]!).data as Uint32Array;
  const n = output.length;
  // uint32 >> int: the shift count is taken modulo 32, as x86 does and as JavaScript's >>> does
  for (let i = 0; i < n; i++) output[i] = sqrt64(input[2 * i + 1]!, input[2 * i]!) >>> scaleBits;
}

/** SignalFilterBankSquareRoot kernel. */
export const SIGNAL_FILTER_BANK_SQUARE_ROOT: Registration<SquareRootOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
