/**
 * DEQUANTIZE int8 (or TFLite's uint8) to float32 in WebAssembly (assembly/int8/quantize.ts): (float)scale * (q - zero_point)
 * in float32, as TFLM. Declines other types and per-channel inputs.
 */
import { BuiltinOperator, KernelError, TensorType, tensorTypeName, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { Z, Z_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { declineArity, expectQuantized } from '@micrort/kernel-support';

const OP = 'DEQUANTIZE';
/** Parameter block Z (scripts/abi.mjs): count, float32 scale, zero point; TFLM's DequantizeOpData is 24 bytes. */
const DEQUANTIZE_PARAMS_BYTES = Z_BYTES;

interface DequantizeData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if ((input.type !== TensorType.INT8 && input.type !== TensorType.UINT8) || output.type !== TensorType.FLOAT32)
    return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles int8 and uint8 to float32)`;
  if ((input.quantization?.scale.length ?? 0) > 1) return 'per-channel input';
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as DequantizeData;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  expectQuantized(OP, node, 'input', input);
  if (input.elementCount !== output.elementCount)
    throw new KernelError(OP, node.index, `input has ${input.elementCount} elements, output ${output.elementCount}`);
  const region = context.allocatePersistentBuffer(DEQUANTIZE_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  region.i32.fill(0, 0, Z.Words);
  region.i32[Z.Count] = input.elementCount;
  region.f32[Z.Scale] = input.params.scale;
  region.i32[Z.ZpOut] = input.params.zeroPoint;
  region.i32[Z.InU8] = input.type === TensorType.UINT8 ? 1 : 0;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as DequantizeData;
  data.k!.dequantize_s8_f32(
    data.params,
    inputOffset(context, node, 0, data.fixed),
    context.getEvalTensor(node.outputs[0]!).data.byteOffset,
  );
}

/** The DEQUANTIZE registration. */
export function createDequantize(): Registration<DequantizeData> {
  return {
    builtinCode: BuiltinOperator.DEQUANTIZE,
    version: 6,
    provider: PROVIDER,
    name: 'DEQUANTIZE/wasm-s8',
    supports,
    init: (): DequantizeData => ({ k: null, params: 0, fixed: -1 }),
    prepare,
    invoke,
  };
}
