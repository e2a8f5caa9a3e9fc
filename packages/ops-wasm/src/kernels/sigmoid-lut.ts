/**
 * LOGISTIC and TANH, int8 and TFLite's uint8, in WebAssembly: lut_bytes (assembly/layout/lut.ts) looks each
 * output up in a 256-byte table built at prepare by kernel-support. int8: the table holds TFLM's
 * reference_integer_ops::Logistic / Tanh of each of the 256 inputs (kernel-support's sigmoidInt8Table, the
 * function ops-reference runs per element), so the lookups equal TFLM byte for byte; uint8: TFLite's own
 * float32-computed table (sigmoidUint8Table), as ops-reference. Declines the quantizations TFLM (int8) or
 * TFLite (uint8) refuses, so ops-reference reports them; int16 and float32 are other kernels' (float32:
 * kernels/float/).
 */
import { BuiltinOperator, TensorType, sameShape, tensorTypeName, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import {
  LOGISTIC_SPEC,
  SIGMOID_TABLE_SIZE,
  SigmoidFunction,
  TANH_SPEC,
  declineArity,
  int8ActivationParams,
  setOutputShape,
  sigmoidInt8Table,
  sigmoidUint8Table,
  type SigmoidSpec,
} from '@micrort/kernel-support';

interface SigmoidLutData {
  k: KernelExports | null;
  /** Arena offset of the 256-byte table. */
  table: number;
  count: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** Why an int8 or uint8 node's quantization is not TFLM's (int8) or TFLite's (uint8), or null. */
function declineQuantization(spec: SigmoidSpec, context: TfLiteContext, node: Node): string | null {
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (!input.quantization || !output.quantization) return 'input or output not quantized';
  if (input.type === TensorType.UINT8)
    return spec.fn === SigmoidFunction.Logistic && output.params.scale !== 1 / 256
      ? `uint8 output scale ${output.params.scale} (TFLite requires 1/256)`
      : null;
  if (output.params.zeroPoint !== spec.int8OutputZeroPoint || output.params.scale !== 1 / spec.int8OutputScaleDenominator)
    return `int8 output quantization (scale ${output.params.scale}, zero point ${output.params.zeroPoint}; TFLM requires 1/${spec.int8OutputScaleDenominator}, ${spec.int8OutputZeroPoint})`;
  const q = int8ActivationParams(input.params.scale);
  return q.leftShift < 0 ? `input scale ${input.params.scale} too small for TFLM's rescaling (left shift ${q.leftShift})` : null;
}

function registration(op: string, code: BuiltinOperator, spec: SigmoidSpec): Registration<SigmoidLutData> {
  return {
    builtinCode: code,
    version: 3,
    provider: PROVIDER,
    name: `${op}/wasm-lut8`,
    supports(context, node) {
      const arity = declineArity(node, 1, 1);
      if (arity) return arity;
      const input = context.getTensor(node.inputs[0]!);
      const output = context.getTensor(node.outputs[0]!);
      if ((input.type !== TensorType.INT8 && input.type !== TensorType.UINT8) || output.type !== input.type)
        return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles int8 to int8, uint8 to uint8)`;
      return declineQuantization(spec, context, node) ?? true;
    },
    init: (): SigmoidLutData => ({ k: null, table: 0, count: 0, fixed: -1 }),
    prepare(context, node) {
      const data = node.userData as SigmoidLutData;
      const input = context.getTensor(node.inputs[0]!);
      // the input's shape (a stored output shape is a hint; an empty one is inferred, as ops-reference does)
      const output = setOutputShape(op, context, node, 0, input.dims);
      const region = context.allocatePersistentBuffer(SIGMOID_TABLE_SIZE);
      data.k = kernelsFor(op, node, region);
      if (input.type === TensorType.UINT8) {
        const { scale, zeroPoint } = input.params;
        sigmoidUint8Table(
          spec.fn,
          scale,
          zeroPoint,
          output.params.scale,
          output.params.zeroPoint,
          region.u8.subarray(0, SIGMOID_TABLE_SIZE),
        );
      } else {
        const table = new Int8Array(region.u8.buffer, region.u8.byteOffset, SIGMOID_TABLE_SIZE);
        sigmoidInt8Table(spec.fn, input.params.zeroPoint, int8ActivationParams(input.params.scale), table);
      }
      data.table = region.offset;
      data.count = output.elementCount;
      data.fixed = constantInputCopies(context, node, [0])[0]!;
    },
    invoke(context, node) {
      const data = node.userData as SigmoidLutData;
      const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
      data.k!.lut_bytes(data.table, inputOffset(context, node, 0, data.fixed), output, data.count);
    },
    inPlace(context, node) {
      return sameShape(context.getTensor(node.inputs[0]!).dims, context.getTensor(node.outputs[0]!).dims) ? [0] : null;
    },
  };
}

/** The int8 / uint8 LOGISTIC registration. */
export function createLogisticLut(): Registration<SigmoidLutData> {
  return registration('LOGISTIC', BuiltinOperator.LOGISTIC, LOGISTIC_SPEC);
}

/** The int8 / uint8 TANH registration. */
export function createTanhLut(): Registration<SigmoidLutData> {
  return registration('TANH', BuiltinOperator.TANH, TANH_SPEC);
}
