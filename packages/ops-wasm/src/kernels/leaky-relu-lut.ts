/**
 * LEAKY_RELU, int8 and TFLite's uint8, in WebAssembly by lookup (lut-common.ts): the table holds TFLM's
 * QuantizeLeakyRelu (kernel-support's leakyReluQuantized, the function ops-reference tabulates too) of
 * each of the 256 inputs.
 */
import { BuiltinOperator, TensorType, type LeakyReluOptions, type Registration } from '@micrort/core';
import { declineOnError, lutRegistration, type LutData } from './lut-common.js';
import { leakyReluQuantParams, leakyReluTable } from '@micrort/kernel-support';

const OP = 'LEAKY_RELU';

/** The int8 / uint8 LEAKY_RELU registration. */
export function createLeakyReluLut(): Registration<LutData> {
  const alphaOf = (node: { builtinData: unknown }) => Math.fround((node.builtinData as LeakyReluOptions | null)?.alpha ?? 0);
  return lutRegistration({
    op: OP,
    code: BuiltinOperator.LEAKY_RELU,
    version: 2,
    decline: (input, output, node) => declineOnError(() => leakyReluQuantParams(OP, node, input, output, alphaOf(node))),
    fill(input, output, node, table) {
      leakyReluTable(leakyReluQuantParams(OP, node, input, output, alphaOf(node)), input.type === TensorType.UINT8, table);
    },
  });
}
