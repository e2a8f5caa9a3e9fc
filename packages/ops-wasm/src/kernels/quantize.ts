/**
 * QUANTIZE in WebAssembly (assembly/int8/quantize.ts): to int8 or TFLite's uint8 from float32 (TFLM's
 * AffineQuantize: float32 division, round half away from zero, x86's conversion), and requantization
 * (TFLM's Requantize, M = double(input scale) / double(output scale) through MultiplyByQuantizedMultiplier)
 * for every integer pair ops-reference runs: int8 to int8, uint8, int16 and int32; uint8 to int8 and
 * uint8; int16 to int8, int16 and int32; int32 to int8 and int16. Declines other type pairs (float32 to
 * int16 or int4 among them) and per-channel outputs.
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

/** The outputs from float32: int8 and TFLite's uint8. */
const BYTE_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];

/** The requantization pairs ops-reference runs (TFLM's, and TFLite's uint8 ones), as `${input}>${output}`. */
const REQUANTIZE_PAIRS = new Set<string>(
  [
    [TensorType.INT8, TensorType.INT8],
    [TensorType.INT8, TensorType.UINT8],
    [TensorType.INT8, TensorType.INT16],
    [TensorType.INT8, TensorType.INT32],
    [TensorType.UINT8, TensorType.INT8],
    [TensorType.UINT8, TensorType.UINT8],
    [TensorType.INT16, TensorType.INT8],
    [TensorType.INT16, TensorType.INT16],
    [TensorType.INT16, TensorType.INT32],
    [TensorType.INT32, TensorType.INT8],
    [TensorType.INT32, TensorType.INT16],
  ].map(([a, b]) => `${a}>${b}`),
);

/** Bytes of an element of the integer types QUANTIZE requantizes. */
function elementBytes(type: TensorType): number {
  return type === TensorType.INT32 ? 4 : type === TensorType.INT16 ? 2 : 1;
}

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
  const taken = input.type === TensorType.FLOAT32 ? BYTE_TYPES.includes(output.type) : REQUANTIZE_PAIRS.has(`${input.type}>${output.type}`);
  if (!taken)
    return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles float32 to int8 or uint8; int8 to int8, uint8, int16 or int32; uint8 to int8 or uint8; int16 to int8, int16 or int32; int32 to int8 or int16)`;
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
    p[Z.InBytes] = elementBytes(input.type);
    p[Z.OutBytes] = elementBytes(output.type);
  }
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as QuantizeData;
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  if (data.fromFloat) data.k!.quantize_f32_s8(data.params, input, output);
  else data.k!.requantize_int(data.params, input, output);
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
