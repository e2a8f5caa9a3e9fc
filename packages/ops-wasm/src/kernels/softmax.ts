/**
 * SOFTMAX, int8 input, int8 or int16 output, in WebAssembly: qs8_softmax (assembly/int8/softmax.ts),
 * TFLM's reference_ops::Softmax exactly. The 256 possible row differences are tabulated at prepare
 * with core's gemmlowp functions (exp_on_negative_values of the rescaled difference; a persistent
 * table of the differences diff_min..0, at most 1 KiB); the row maximum, the sum of the Q12.19 terms, the reciprocal and the output run in
 * WebAssembly. Output quantization as TFLM requires (int8: scale 1/256, zero point -128; int16:
 * 1/65536, -32768). TFLite's uint8 input with a uint8 output (zero point 0) or an int16 output (any
 * zero point): qu8_softmax, TFLite's float kernel (kernel-support's float32 exp table built at prepare,
 * 1 KiB; the row's sum, reciprocal and outputs in float32 in WebAssembly; int16 outputs rounded half away
 * from zero plus the zero point), as ops-reference. Declines other types.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  expOnNegativeValues,
  multiplyByQuantizedMultiplierGreaterThanOne,
  type Node,
  type Registration,
  type SoftmaxOptions,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { S, S_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import {
  calculateSoftmaxInt8Params,
  declineArity,
  declineTypes,
  expectSoftmaxShape,
  expectQuantized,
  expectType,
  INT8_ONLY,
  populateSoftmaxUint8Table,
  setOutputShape,
  SCALED_DIFF_INTEGER_BITS,
  UINT8_SOFTMAX_TABLE_ENTRIES,
} from '@micrort/kernel-support';

const OP = 'SOFTMAX';
const INT8_OR_INT16: readonly TensorType[] = [TensorType.INT8, TensorType.INT16];

const UINT8_ONLY: readonly TensorType[] = [TensorType.UINT8];
const UINT8_OR_INT16: readonly TensorType[] = [TensorType.UINT8, TensorType.INT16];

interface SoftmaxData {
  k: KernelExports | null;
  params: number;
  fixed: number;
  /** TFLite's uint8 kernel (qu8_softmax). */
  u8: boolean;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  if (context.getTensor(node.inputs[0]!).type !== TensorType.UINT8)
    return declineTypes(context, node, [0], INT8_ONLY, INT8_OR_INT16) ?? true;
  const why = declineTypes(context, node, [0], UINT8_ONLY, UINT8_OR_INT16);
  if (why) return why;
  const output = context.getTensor(node.outputs[0]!);
  const zp = output.params.zeroPoint;
  return output.type === TensorType.INT16 || zp === 0 ? true : `uint8 output zero point ${zp} (TFLite's kernel takes 0)`;
}

/**
 * TFLite's uint8 SOFTMAX (activations.cc SoftmaxPrepare, uint8 or int16 output): the float32 exp table in
 * a persistent 1 KiB region, the output scale and zero point beside it.
 */
function prepareUint8(
  context: TfLiteContext,
  node: Node,
  data: SoftmaxData,
  input: Tensor,
  output: Tensor,
  outer: number,
  depth: number,
): void {
  const os = output.params.scale;
  const is = input.params.scale;
  if (!(os > 0) || !Number.isFinite(os) || !(is > 0) || !Number.isFinite(is))
    throw new KernelError(OP, node.index, `input scale ${is} and output scale ${os} must be finite and > 0`);
  const int16 = output.type === TensorType.INT16;
  if (!int16 && output.params.zeroPoint !== 0)
    throw new KernelError(OP, node.index, `uint8 output (tensor ${output.index}) must have zero point 0, got ${output.params.zeroPoint}`);
  const table = context.allocatePersistentBuffer(UINT8_SOFTMAX_TABLE_ENTRIES * 4);
  populateSoftmaxUint8Table(table.f32, is, (node.builtinData as SoftmaxOptions | null)?.beta ?? 1);
  const region = context.allocatePersistentBuffer(S_BYTES);
  data.k = kernelsFor(OP, node, region);
  region.i32.fill(0, 0, S.Words);
  region.i32[S.Outer] = outer;
  region.i32[S.Depth] = depth;
  region.i32[S.Table] = table.offset;
  region.i32[S.Bits] = int16 ? 16 : 8;
  region.f32[S.OutScale] = os;
  region.i32[S.OutZp] = output.params.zeroPoint;
  data.u8 = true;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxData;
  const input = context.getTensor(node.inputs[0]!);
  const output = setOutputShape(OP, context, node, 0, input.dims); // an empty stored shape is inferred
  const { outer, depth } = expectSoftmaxShape(OP, node, input, output);
  if (input.type === TensorType.UINT8) {
    expectType(OP, node, 'output', output, UINT8_OR_INT16);
    expectQuantized(OP, node, 'input', input);
    expectQuantized(OP, node, 'output', output);
    prepareUint8(context, node, data, input, output, outer, depth);
    return;
  }
  expectType(OP, node, 'input', input, TensorType.INT8);
  expectType(OP, node, 'output', output, INT8_OR_INT16);
  const q = calculateSoftmaxInt8Params(OP, node, input, output, (node.builtinData as SoftmaxOptions | null)?.beta ?? 1);
  const bits = q.outputBits;
  const m = { multiplier: q.inputMultiplier, shift: q.inputLeftShift };
  const diffMin = q.diffMin;
  // per difference d in [diff_min, 0] (no lower than -255, the int8 range): the Q0.31 exponential; its
  // Q12.19 term of the sum (gemmlowp Rescale<12>: RoundingDivideByPOT by 12) is taken in the kernel, which
  // skips the differences below diff_min as TFLM does (so a small input scale's table is shorter)
  const lowest = Math.max(diffMin, -255);
  const table = context.allocatePersistentBuffer((1 - lowest) * 4);
  const t = table.i32;
  for (let d = lowest; d <= 0; d++)
    t[d - lowest] = expOnNegativeValues(multiplyByQuantizedMultiplierGreaterThanOne(d, m.multiplier, m.shift), SCALED_DIFF_INTEGER_BITS);
  const region = context.allocatePersistentBuffer(S_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[S.Outer] = outer;
  p[S.Depth] = depth;
  p[S.Bits] = bits;
  p[S.Table] = table.offset;
  p[S.DiffMin] = lowest;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxData;
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  if (data.u8) data.k!.qu8_softmax(data.params, input, output);
  else data.k!.qs8_softmax(data.params, input, output);
}

/** The SOFTMAX registration. */
export function createSoftmax(): Registration<SoftmaxData> {
  return {
    builtinCode: BuiltinOperator.SOFTMAX,
    version: 3,
    provider: PROVIDER,
    name: 'SOFTMAX/wasm-qs8',
    supports,
    init: (): SoftmaxData => ({ k: null, params: 0, fixed: -1, u8: false }),
    prepare,
    invoke,
  };
}
