/**
 * SignalFilterBankLog (TFLM signal/micro/kernels/filter_bank_log.cc, signal/src/filter_bank_log.cc,
 * log.cc): `min(Log32(x << input_correction_bits, output_scale), 32767)` per channel, 0 where the scaled
 * value is 0 or 1.
 *
 * Input: uint32 [n]. Output: int16 [n]. Options: `input_correction_bits` (0..31), `output_scale`.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { log32 } from './log-common.js';
import { checkElements, checkIo, checkOptionRange, checkRank, checkType, optionInt32 } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';

const OP = 'SignalFilterBankLog';

/** Indices into the persistent params (TFLMSignalLogParams). */
const enum P {
  INPUT_CORRECTION_BITS = 0,
  OUTPUT_SCALE = 1,
  COUNT = 2,
}

interface FilterBankLogOpData {
  params: Int32Array;
}

function init(context: TfLiteContext): FilterBankLogOpData {
  return { params: context.allocatePersistentBuffer(P.COUNT * 4).i32 };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as FilterBankLogOpData;
  checkIo(OP, node, 1, 1);
  const options = readFlexOptions(OP, node);
  const correctionBits = optionInt32(OP, node, options, 'input_correction_bits');
  const outputScale = optionInt32(OP, node, options, 'output_scale');
  checkOptionRange(OP, node, 'input_correction_bits', correctionBits, 0, 31);
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  checkRank(OP, node, 'input', input, 1);
  checkRank(OP, node, 'output', output, 1);
  checkType(OP, node, 'input', input, TensorType.UINT32);
  checkType(OP, node, 'output', output, TensorType.INT16);
  checkElements(OP, node, 'output', output, input.dims[0]!);
  data.params[P.INPUT_CORRECTION_BITS] = correctionBits;
  data.params[P.OUTPUT_SCALE] = outputScale;
}

function invoke(context: TfLiteContext, node: Node): void {
  const p = (node.userData as FilterBankLogOpData).params;
  const input = context.getEvalTensor(node.inputs[0]!).data as Uint32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int16Array;
  const correctionBits = p[P.INPUT_CORRECTION_BITS]!;
  const outputScale = p[P.OUTPUT_SCALE]!;
  const n = input.length;
  for (let i = 0; i < n; i++) {
    const scaled = (input[i]! << correctionBits) >>> 0;
    if (scaled > 1) {
      const logValue = log32(scaled, outputScale);
      output[i] = logValue < 32767 ? logValue : 32767;
    } else {
      output[i] = 0;
    }
  }
}

/** SignalFilterBankLog kernel. */
export const SIGNAL_FILTER_BANK_LOG: Registration<FilterBankLogOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
