/**
 * GELU, int8 and TFLite's uint8, in WebAssembly by lookup (lut-common.ts): the table is TFLite's
 * PopulateLookupTable for GELU (kernel-support's geluTable, the table ops-reference fills too), exact or
 * tanh form as the node's `approximate` option says.
 */
import { BuiltinOperator, TensorType, type GeluOptions, type Registration } from '@micrort/core';
import { lutRegistration, type LutData } from './lut-common.js';
import { geluTable } from '@micrort/kernel-support';

/** The int8 / uint8 GELU registration. */
export function createGeluLut(): Registration<LutData> {
  return lutRegistration({
    op: 'GELU',
    code: BuiltinOperator.GELU,
    version: 2,
    decline: () => null,
    fill(input, output, node, table) {
      const approximate = (node.builtinData as GeluOptions | null)?.approximate ?? false;
      const { scale: si, zeroPoint: zi } = input.params;
      const { scale: so, zeroPoint: zo } = output.params;
      geluTable(table, input.type === TensorType.INT8, si, zi, so, zo, approximate);
    },
  });
}
