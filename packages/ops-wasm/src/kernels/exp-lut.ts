/**
 * EXP, int8, in WebAssembly by lookup (lut-common.ts): TFLite's table (exp.cc after 2.9, LiteRT: expf of
 * each dequantized input byte, kernel-support's lutPopulate8), the table ops-reference fills too. TFLite
 * has no uint8 EXP; TFLM no quantized one.
 */
import { BuiltinOperator, TensorType, expF32, type Registration } from '@micrort/core';
import { lutPopulateBytes } from '@micrort/kernel-support';
import { lutRegistration, type LutData } from './lut-common.js';

/** The int8 EXP registration. */
export function createExpLut(): Registration<LutData> {
  return lutRegistration({
    op: 'EXP',
    code: BuiltinOperator.EXP,
    version: 2,
    decline: (input) => (input.type === TensorType.UINT8 ? 'uint8 (TFLite quantizes EXP to int8 and int16 only)' : null),
    fill(input, output, _node, table) {
      lutPopulateBytes(table, true, input.params.scale, input.params.zeroPoint, output.params.scale, output.params.zeroPoint, expF32);
    },
  });
}
