/**
 * LOGISTIC and TANH, int8 and TFLite's uint8, in WebAssembly by lookup (lut-common.ts). int8: the table
 * holds TFLM's reference_integer_ops::Logistic / Tanh of each of the 256 inputs (kernel-support's
 * sigmoidInt8Table, the function ops-reference runs per element), so the lookups equal TFLM byte for byte;
 * uint8: TFLite's own float32-computed table (sigmoidUint8Table), as ops-reference. Declines the
 * quantizations TFLM (int8) or TFLite (uint8) refuses, so ops-reference reports them; int16 and float32
 * are other kernels' (int16: logistic-int16.ts and tanh-int16.ts; float32: kernels/float/).
 */
import { BuiltinOperator, TensorType, type Registration, type Tensor } from '@micrort/core';
import { lutRegistration, type LutData } from './lut-common.js';
import {
  LOGISTIC_SPEC,
  SigmoidFunction,
  TANH_SPEC,
  int8ActivationParams,
  sigmoidInt8Table,
  sigmoidUint8Table,
  type SigmoidSpec,
} from '@micrort/kernel-support';

/** Why an int8 or uint8 node's quantization is not TFLM's (int8) or TFLite's (uint8), or null. */
function declineQuantization(spec: SigmoidSpec, input: Tensor, output: Tensor): string | null {
  if (input.type === TensorType.UINT8)
    return spec.fn === SigmoidFunction.Logistic && output.params.scale !== 1 / 256
      ? `uint8 output scale ${output.params.scale} (TFLite requires 1/256)`
      : null;
  if (output.params.zeroPoint !== spec.int8OutputZeroPoint || output.params.scale !== 1 / spec.int8OutputScaleDenominator)
    return `int8 output quantization (scale ${output.params.scale}, zero point ${output.params.zeroPoint}; TFLM requires 1/${spec.int8OutputScaleDenominator}, ${spec.int8OutputZeroPoint})`;
  const q = int8ActivationParams(input.params.scale);
  return q.leftShift < 0 ? `input scale ${input.params.scale} too small for TFLM's rescaling (left shift ${q.leftShift})` : null;
}

function registration(op: string, code: BuiltinOperator, spec: SigmoidSpec): Registration<LutData> {
  return lutRegistration({
    op,
    code,
    version: 3,
    decline: (input, output) => declineQuantization(spec, input, output),
    fill(input, output, _node, table) {
      if (input.type === TensorType.UINT8) {
        const { scale, zeroPoint } = input.params;
        sigmoidUint8Table(spec.fn, scale, zeroPoint, output.params.scale, output.params.zeroPoint, table);
      } else {
        const int8 = new Int8Array(table.buffer, table.byteOffset, table.length);
        sigmoidInt8Table(spec.fn, input.params.zeroPoint, int8ActivationParams(input.params.scale), int8);
      }
    },
  });
}

/** The int8 / uint8 LOGISTIC registration. */
export function createLogisticLut(): Registration<LutData> {
  return registration('LOGISTIC', BuiltinOperator.LOGISTIC, LOGISTIC_SPEC);
}

/** The int8 / uint8 TANH registration. */
export function createTanhLut(): Registration<LutData> {
  return registration('TANH', BuiltinOperator.TANH, TANH_SPEC);
}
