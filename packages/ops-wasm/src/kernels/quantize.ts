/**
 * QUANTIZE to int8 or TFLite's uint8 in WebAssembly (assembly/int8/quantize.ts): from float32 (TFLM's
 * AffineQuantize: float32 division, round half away from zero, x86's conversion) or from int8 / uint8
 * (Requantize with M = double(input scale) / double(output scale)): float32, int8 and uint8 to int8 or
 * uint8, the pairs ops-reference runs. Declines other type pairs and per-channel outputs.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { Z, Z_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { declineArity, expectQuantized } from '@micrort/kernel-support';

const OP = 'QUANTIZE';
/** Parameter block Z (scripts/abi.mjs); TFLM's OpDataQuantizeReference is 32 bytes. */
const QUANTIZE_PARAMS_BYTES = Z_BYTES;

/** The quantized types of either side: int8 and TFLite's uint8. */
const BYTE_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];

interface QuantizeData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  fromFloat: boolean;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (!BYTE_TYPES.includes(output.type) || (input.type !== TensorType.FLOAT32 && !BYTE_TYPES.includes(input.type)))
    return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles float32, int8 and uint8 to int8 or uint8)`;
  if ((output.quantization?.scale.length ?? 0) > 1) return 'per-channel output';
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as QuantizeData;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  expectQuantized(OP, node, 'output', output);
  if (input.elementCount !== output.elementCount)
    throw new KernelError(OP, node.index, `input has ${input.elementCount} elements, output ${output.elementCount}`);
  const region = context.allocatePersistentBuffer(QUANTIZE_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p.fill(0, 0, Z.Words);
  p[Z.Count] = output.elementCount;
  p[Z.ZpOut] = output.params.zeroPoint;
  p[Z.OutU8] = output.type === TensorType.UINT8 ? 1 : 0;
  p[Z.InU8] = input.type === TensorType.UINT8 ? 1 : 0;
  data.fromFloat = input.type === TensorType.FLOAT32;
  if (data.fromFloat) {
    region.f32[Z.Scale] = output.params.scale;
  } else {
    expectQuantized(OP, node, 'input', input);
    const m = checkedQuantizeMultiplier(OP, node, input.params.scale / output.params.scale, 'requantize multiplier');
    p[Z.Mult] = m.multiplier;
    p[Z.Left] = m.shift > 0 ? m.shift : 0;
    p[Z.Right] = m.shift > 0 ? 0 : -m.shift;
    p[Z.ZpIn] = input.params.zeroPoint;
  }
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as QuantizeData;
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  if (data.fromFloat) data.k!.quantize_f32_s8(data.params, input, output);
  else data.k!.requantize_s8_s8(data.params, input, output);
}

/** The QUANTIZE registration. */
export function createQuantize(): Registration<QuantizeData> {
  return {
    builtinCode: BuiltinOperator.QUANTIZE,
    version: 6,
    provider: PROVIDER,
    name: 'QUANTIZE/wasm-s8',
    supports,
    init: (): QuantizeData => ({ k: null, params: 0, fixed: -1, fromFloat: false }),
    prepare,
    invoke,
  };
}
