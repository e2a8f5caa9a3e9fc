/**
 * SOFTMAX, int8 input, int8 or int16 output, in WebAssembly: qs8_softmax (assembly/int8/softmax.ts),
 * TFLM's reference_ops::Softmax exactly. The 256 possible row differences are tabulated at prepare
 * with core's gemmlowp functions (exp_on_negative_values of the rescaled difference; a 1 KiB
 * persistent table); the row maximum, the sum of the Q12.19 terms, the reciprocal and the output run in
 * WebAssembly. Output quantization as TFLM requires (int8: scale 1/256, zero point -128; int16:
 * 1/65536, -32768). Declines other types.
 */
import {
  BuiltinOperator,
  TensorType,
  expOnNegativeValues,
  multiplyByQuantizedMultiplierGreaterThanOne,
  type Node,
  type Registration,
  type SoftmaxOptions,
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
  expectType,
  INT8_ONLY,
  SCALED_DIFF_INTEGER_BITS,
} from '@micrort/kernel-support';

const OP = 'SOFTMAX';
const INT8_OR_INT16: readonly TensorType[] = [TensorType.INT8, TensorType.INT16];

interface SoftmaxData {
  k: KernelExports | null;
  params: number;
  fixed: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  return declineTypes(context, node, [0], INT8_ONLY, INT8_OR_INT16) ?? true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxData;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const { outer, depth } = expectSoftmaxShape(OP, node, input, output);
  expectType(OP, node, 'input', input, TensorType.INT8);
  expectType(OP, node, 'output', output, INT8_OR_INT16);
  const q = calculateSoftmaxInt8Params(OP, node, input, output, (node.builtinData as SoftmaxOptions | null)?.beta ?? 1);
  const bits = q.outputBits;
  const m = { multiplier: q.inputMultiplier, shift: q.inputLeftShift };
  const diffMin = q.diffMin;
  // per difference d in [-255, 0]: the Q0.31 exponential (-1 below diff_min); its Q12.19 term of the sum
  // (gemmlowp Rescale<12>: RoundingDivideByPOT by 12) is taken in the kernel
  const table = context.allocatePersistentBuffer(256 * 4);
  const t = table.i32;
  for (let d = -255; d <= 0; d++)
    t[d + 255] =
      d >= diffMin
        ? expOnNegativeValues(multiplyByQuantizedMultiplierGreaterThanOne(d, m.multiplier, m.shift), SCALED_DIFF_INTEGER_BITS)
        : -1;
  const region = context.allocatePersistentBuffer(S_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[S.Outer] = outer;
  p[S.Depth] = depth;
  p[S.Bits] = bits;
  p[S.Table] = table.offset;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxData;
  data.k!.qs8_softmax(data.params, inputOffset(context, node, 0, data.fixed), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The SOFTMAX registration. */
export function createSoftmax(): Registration<SoftmaxData> {
  return {
    builtinCode: BuiltinOperator.SOFTMAX,
    version: 3,
    provider: PROVIDER,
    name: 'SOFTMAX/wasm-qs8',
    supports,
    init: (): SoftmaxData => ({ k: null, params: 0, fixed: -1 }),
    prepare,
    invoke,
  };
}
