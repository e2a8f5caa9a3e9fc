/**
 * SignalPCAN (TFLM signal/micro/kernels/pcan.cc, signal/src/pcan_argc_fixed.cc): per-channel amplitude
 * normalization of the filterbank energy by a gain looked up from the noise estimate (see
 * pcan-common.ts). Stateless: the noise estimate is an input.
 *
 * Inputs: 0 uint32 [n], 1 noise estimate uint32 [n], 2 gain LUT int16 [>= 125]. Output: uint32 [n].
 * Options: `snr_shift` (0..63).
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { applyPcanAutoGainControl, PCAN_GAIN_LUT_MIN_LENGTH } from './pcan-common.js';
import { checkElements, checkIo, checkOptionRange, checkRank, checkType, optionInt32 } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';
import { U64 } from './uint64-common.js';

const OP = 'SignalPCAN';

interface PcanOpData {
  /** [snr_shift] (TfLitePcanParams). */
  params: Int32Array;
  acc: U64;
}

function init(context: TfLiteContext): PcanOpData {
  return { params: context.allocatePersistentBuffer(4).i32, acc: new U64() };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as PcanOpData;
  checkIo(OP, node, 3, 1);
  const options = readFlexOptions(OP, node);
  const snrShift = optionInt32(OP, node, options, 'snr_shift');
  checkOptionRange(OP, node, 'snr_shift', snrShift, 0, 63);
  const input = context.getTensor(node.inputs[0]!);
  const noise = context.getTensor(node.inputs[1]!);
  const lut = context.getTensor(node.inputs[2]!);
  const output = context.getTensor(node.outputs[0]!);
  checkRank(OP, node, 'input', input, 1);
  checkRank(OP, node, 'noise estimate', noise, 1);
  checkRank(OP, node, 'gain LUT', lut, 1);
  checkRank(OP, node, 'output', output, 1);
  checkType(OP, node, 'input', input, TensorType.UINT32);
  checkType(OP, node, 'noise estimate', noise, TensorType.UINT32);
  checkType(OP, node, 'gain LUT', lut, TensorType.INT16);
  checkType(OP, node, 'output', output, TensorType.UINT32);
  const n = input.dims[0]!;
  if (n < 1) throw new KernelError(OP, node.index, `input (tensor ${input.index}) is empty`);
  checkElements(OP, node, 'noise estimate', noise, n);
  checkElements(OP, node, 'output', output, n);
  if (lut.dims[0]! < PCAN_GAIN_LUT_MIN_LENGTH)
    throw new KernelError(
      OP,
      node.index,
      `gain LUT (tensor ${lut.index}) has ${lut.dims[0]} entries, needs ${PCAN_GAIN_LUT_MIN_LENGTH} (3 coefficients + pad per octave of a uint32 noise estimate)`,
    );
  data.params[0] = snrShift;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as PcanOpData;
  const input = context.getEvalTensor(node.inputs[0]!).data as Uint32Array;
  const noise = context.getEvalTensor(node.inputs[1]!).data as Uint32Array;
  const lut = context.getEvalTensor(node.inputs[2]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Uint32Array;
  const n = input.length;
  for (let i = 0; i < n; i++) output[i] = input[i]!;
  applyPcanAutoGainControl(lut, data.params[0]!, noise, output, n, data.acc);
}

/** SignalPCAN kernel. */
export const SIGNAL_PCAN: Registration<PcanOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
