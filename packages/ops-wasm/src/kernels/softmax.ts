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
  KernelError,
  TensorType,
  calculateInputRadius,
  expOnNegativeValues,
  multiplyByQuantizedMultiplierGreaterThanOne,
  numElements,
  preprocessSoftmaxScaling,
  tensorTypeName,
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
import { constantInputCopies, expectQuantized, inputOffset } from './kernel-common.js';

const OP = 'SOFTMAX';
const SCALED_DIFF_INTEGER_BITS = 5;

interface SoftmaxData {
  k: KernelExports | null;
  params: number;
  fixed: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length !== 1 || node.outputs.length !== 1) return 'arity';
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== TensorType.INT8 || (output.type !== TensorType.INT8 && output.type !== TensorType.INT16))
    return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles int8 to int8 or int16)`;
  return true;
}

/** TF_LITE_ENSURE_NEAR on float32 values: |a - b| <= eps evaluated in float32. */
function near(a: number, b: number, eps: number): boolean {
  return Math.abs(Math.fround(Math.fround(a) - Math.fround(b))) <= Math.fround(eps);
}

function checkOutput(node: Node, output: Tensor, zeroPoint: number, scale: number, exact: boolean): void {
  const s = output.params.scale;
  const ok = exact ? s === Math.fround(scale) : near(s, scale, Math.fround(Math.fround(0.001) * Math.fround(scale)));
  if (output.params.zeroPoint !== zeroPoint || !ok)
    throw new KernelError(
      OP,
      node.index,
      `${tensorTypeName(output.type)} output (tensor ${output.index}) must have zero point ${zeroPoint} and scale ${exact ? '' : '≈ '}${scale}, got zero point ${output.params.zeroPoint} and scale ${s}`,
    );
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxData;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const beta = Math.fround((node.builtinData as SoftmaxOptions | null)?.beta ?? 1);
  const rank = input.dims.length;
  if (rank < 1) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must have rank >= 1`);
  const count = numElements(input.dims);
  const depth = input.dims[rank - 1]!;
  if (numElements(output.dims) !== count || output.dims[output.dims.length - 1] !== depth)
    throw new KernelError(
      OP,
      node.index,
      `output shape [${Array.from(output.dims).join(', ')}] must match input shape [${Array.from(input.dims).join(', ')}]`,
    );
  expectQuantized(OP, node, 'input', input);
  expectQuantized(OP, node, 'output', output);
  const bits = output.type === TensorType.INT16 ? 16 : 8;
  if (bits === 16) checkOutput(node, output, -32768, 1 / 65536, false);
  else checkOutput(node, output, -128, 1 / 256, true);
  let m;
  try {
    m = preprocessSoftmaxScaling(beta, input.params.scale, SCALED_DIFF_INTEGER_BITS);
  } catch (e) {
    throw new KernelError(
      OP,
      node.index,
      `input scale ${input.params.scale} with beta ${beta} is too small to rescale: ${(e as Error).message}`,
    );
  }
  const diffMin = -calculateInputRadius(SCALED_DIFF_INTEGER_BITS, m.shift);
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
  p[S.Outer] = depth === 0 ? 0 : count / depth;
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
