/**
 * SignalFftAutoScale (TFLM signal/micro/kernels/fft_auto_scale_kernel.cc, signal/src/fft_auto_scale.cc,
 * max_abs.cc): shifts the int16 input left by the largest `scale_bits` that keeps its peak magnitude in
 * int16 (`16 - msb(max_abs) - 1`, at least 0) and outputs that shift. TFLM's MaxAbs16 keeps its running
 * maximum in int16, so -32768 wraps there; that quirk is reproduced.
 *
 * Input: int16 [n]. Outputs: 0 int16 [n], 1 scale_bits int32 scalar (rank 0). No options.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { msb32 } from './bits-common.js';
import { checkElements, checkIo, checkRank, checkType } from './signal-kernel-common.js';

const OP = 'SignalFftAutoScale';

/** MaxAbs16: the running maximum of |x| kept in int16, as TFLM computes it. */
export function maxAbs16(input: Int16Array, size: number): number {
  let max = 0;
  for (let i = 0; i < size; i++) {
    const value = input[i]!;
    if (value > max) max = value;
    else if (-value > max) max = (-value << 16) >> 16;
  }
  return max;
}

/** FftAutoScale: scales `input` into `output` and returns the scale bits. */
export function fftAutoScale(input: Int16Array, size: number, output: Int16Array): number {
  const max = maxAbs16(input, size);
  let scaleBits = 16 - msb32(max >>> 0) - 1;
  if (scaleBits <= 0) scaleBits = 0;
  const factor = 1 << scaleBits;
  for (let i = 0; i < size; i++) output[i] = Math.imul(input[i]!, factor);
  return scaleBits;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkIo(OP, node, 1, 2);
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const scaleBits = context.getTensor(node.outputs[1]!);
  checkRank(OP, node, 'input', input, 1);
  checkRank(OP, node, 'output', output, 1);
  checkRank(OP, node, 'scale_bits output', scaleBits, 0);
  checkType(OP, node, 'input', input, TensorType.INT16);
  checkType(OP, node, 'output', output, TensorType.INT16);
  checkType(OP, node, 'scale_bits output', scaleBits, TensorType.INT32);
  checkElements(OP, node, 'output', output, input.dims[0]!);
}

function invoke(context: TfLiteContext, node: Node): void {
  const input = context.getEvalTensor(node.inputs[0]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const scaleBits = context.getEvalTensor(node.outputs[1]!).data as Int32Array;
  scaleBits[0] = fftAutoScale(input, output.length, output);
}

/** SignalFftAutoScale kernel. */
export const SIGNAL_FFT_AUTO_SCALE: Registration = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  prepare,
  invoke,
};
