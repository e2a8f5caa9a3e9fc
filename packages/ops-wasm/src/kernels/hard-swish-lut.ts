/**
 * HARD_SWISH, int8 and TFLite's uint8, in WebAssembly by lookup (lut-common.ts): the table holds TFLite's
 * 16-bit fixed-point HardSwish (kernel-support's hardSwishQuantized, the function ops-reference runs per
 * element) of each of the 256 inputs. Declines what TFLM's prepare refuses (an output scale below the
 * input scale / 128), so ops-reference reports it.
 */
import { BuiltinOperator, TensorType, type Registration } from '@micrort/core';
import { declineOnError, lutRegistration, type LutData } from './lut-common.js';
import { hardSwishQuantParams, hardSwishTable } from '@micrort/kernel-support';

const OP = 'HARD_SWISH';

/** The int8 / uint8 HARD_SWISH registration. */
export function createHardSwishLut(): Registration<LutData> {
  return lutRegistration({
    op: OP,
    code: BuiltinOperator.HARD_SWISH,
    version: 1,
    decline: (input, output, node) => declineOnError(() => hardSwishQuantParams(OP, node, input, output)),
    fill(input, output, node, table) {
      hardSwishTable(hardSwishQuantParams(OP, node, input, output), input.type === TensorType.UINT8, table);
    },
  });
}
