/**
 * ELU, int8, in WebAssembly by lookup (lut-common.ts): TFLM's table (elu.cc PopulateLookupTable, every
 * step in float32: kernel-support's tflmLutPopulateInt8 of eluLutTransform), the table ops-reference fills
 * too. TFLM and TFLite have no uint8 ELU.
 */
import { BuiltinOperator, TensorType, type Registration } from '@micrort/core';
import { eluLutTransform, tflmLutPopulateInt8 } from '@micrort/kernel-support';
import { lutRegistration, type LutData } from './lut-common.js';

/** The int8 ELU registration. */
export function createEluLut(): Registration<LutData> {
  return lutRegistration({
    op: 'ELU',
    code: BuiltinOperator.ELU,
    version: 1,
    decline: (input) => (input.type === TensorType.UINT8 ? 'uint8 (ELU takes float32 and int8)' : null),
    fill(input, output, _node, table) {
      tflmLutPopulateInt8(input.params.scale, input.params.zeroPoint, output.params.scale, output.params.zeroPoint, eluLutTransform, table);
    },
  });
}
