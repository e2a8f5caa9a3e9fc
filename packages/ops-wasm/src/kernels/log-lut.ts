/**
 * LOG, int8, in WebAssembly by lookup (lut-common.ts): TFLite's table (LogLUTPrepare: logf of each
 * dequantized input byte, the output's lowest value for inputs ≤ 0; kernel-support's logLutTransform and
 * lutPopulate8), the table ops-reference fills too. TFLite has no uint8 LOG; TFLM no quantized one.
 */
import { BuiltinOperator, TensorType, type Registration } from '@micrort/core';
import { logLutTransform, lutPopulateBytes } from '@micrort/kernel-support';
import { lutRegistration, type LutData } from './lut-common.js';

/** The int8 LOG registration. */
export function createLogLut(): Registration<LutData> {
  return lutRegistration({
    op: 'LOG',
    code: BuiltinOperator.LOG,
    version: 2,
    decline: (input) => (input.type === TensorType.UINT8 ? 'uint8 (TFLite quantizes LOG to int8 and int16 only)' : null),
    fill(input, output, _node, table) {
      const { scale: so, zeroPoint: zo } = output.params;
      lutPopulateBytes(table, true, input.params.scale, input.params.zeroPoint, so, zo, logLutTransform(output.type, so, zo));
    },
  });
}
