/**
 * int8 and TFLite's uint8 MEAN, SUM, REDUCE_MAX and REDUCE_MIN in WebAssembly: qs8_reduce
 * (assembly/int8/reduce.ts) over any set of axes of an input of up to 5 dimensions, as the nested loops
 * of reduce-common.ts; byte for byte ops-reference's (TFLM's) results.
 *
 * - REDUCE_MAX, REDUCE_MIN: the raw values compared (TFLM's ReduceGeneric); ops-reference requires the
 *   input's scale and zero point on the output, and the nodes without them are declined (it refuses them).
 * - SUM, MEAN: TFLM's QuantizedMeanOrSum: wrapping int32 sums, sum - zp_in * count, then
 *   MultiplyByQuantizedMultiplier of scale_in / scale_out (MEAN: with 1/count folded in as TFLM's int64
 *   math, `foldCount`), plus zp_out, saturated. uint8 SUM is declined: TFLite rescales it in float32 (or,
 *   with the input's quantization on the output, sums in uint8), which ops-reference keeps. A MEAN whose
 *   rescaled sums could leave int32 is declined (ops-reference adds the output zero point without
 *   wrapping there).
 */
import {
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, setOutputShape } from '@micrort/kernel-support';
import { RD, RD_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { ReduceKind, planOutputShape, planReduce, type ReducePlan } from './reduce-common.js';
import { writeReduceLoops } from './reduce-common.js';

interface QuantizedReduceData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  input: number;
}

/**
 * QuantizedMeanOrSum's rescaling for a mean, as TFLM's int64 math: s = min(floor(log2(count)), 32,
 * 31 + shift); multiplier' = (multiplier << s) / count (truncating); shift' = shift - s. BigInt at
 * prepare only.
 */
export function foldCount(multiplier: number, shift: number, count: number): { multiplier: number; shift: number } {
  const s = Math.min(31 - Math.clz32(count), 32, 31 + shift);
  return { multiplier: Number((BigInt(multiplier) << BigInt(s)) / BigInt(count)), shift: shift - s };
}

/** The multiplier and shift of SUM (scale_in / scale_out) or MEAN (with 1/count folded in), or why not. */
function rescale(
  op: string,
  kind: ReduceKind,
  node: Node,
  input: Tensor,
  output: Tensor,
  count: number,
): { multiplier: number; shift: number } | string {
  const inScale = input.params.scale;
  const outScale = output.params.scale;
  if (!(inScale > 0) || !(outScale > 0)) return `scales input ${inScale}, output ${outScale} (handles positive scales)`;
  let q: { multiplier: number; shift: number };
  try {
    q = checkedQuantizeMultiplier(op, node, inScale / outScale, 'input/output rescale');
  } catch (e) {
    return (e as Error).message;
  }
  if (kind === ReduceKind.Sum) return q;
  const f = foldCount(q.multiplier, q.shift, count);
  // |sum - zp_in * count| <= 255 * count; shifted left it must stay below 2^31 - 256 so that adding
  // zp_out cannot wrap in int32 (ops-reference's MEAN adds it unwrapped before clamping)
  const left = f.shift > 0 ? f.shift : 0;
  if (255 * count * 2 ** left >= 2 ** 31 - 256) return `the rescaled sums of ${count} values could leave int32`;
  return f;
}

/** Why `node` is not taken, or its plan. */
function check(op: string, kind: ReduceKind, context: TfLiteContext, node: Node): ReducePlan | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if ((input.type !== TensorType.INT8 && input.type !== TensorType.UINT8) || output.type !== input.type)
    return `${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} (handles int8 to int8, uint8 to uint8)`;
  if (kind === ReduceKind.Sum && input.type === TensorType.UINT8) return "uint8 SUM: TFLite's float32 rescaling (handles int8)";
  const plan = planReduce(op, context, node);
  if (typeof plan === 'string') return plan;
  if (kind === ReduceKind.Max || kind === ReduceKind.Min) {
    if (input.params.scale !== output.params.scale || input.params.zeroPoint !== output.params.zeroPoint)
      return 'input and output quantization differ (compares raw values; ops-reference refuses them)';
    return plan;
  }
  const q = rescale(op, kind, node, input, output, plan.loops.count);
  return typeof q === 'string' ? q : plan;
}

/** The int8 / uint8 registration of MEAN, SUM, REDUCE_MAX or REDUCE_MIN (`kind`). */
export function quantizedReduceRegistration(
  op: string,
  code: number,
  version: number,
  kind: ReduceKind,
): Registration<QuantizedReduceData> {
  return {
    builtinCode: code,
    version,
    provider: PROVIDER,
    name: `${op}/wasm-qs8`,
    supports(context: TfLiteContext, node: Node): true | string {
      const p = check(op, kind, context, node);
      return typeof p === 'string' ? p : true;
    },
    init: (): QuantizedReduceData => ({ k: null, params: 0, input: -1 }),
    prepare(context: TfLiteContext, node: Node): void {
      const data = node.userData as QuantizedReduceData;
      const plan = check(op, kind, context, node);
      if (typeof plan === 'string') throw new KernelError(op, node.index, plan);
      setOutputShape(op, context, node, 0, planOutputShape(plan, node));
      const region = context.allocatePersistentBuffer(RD_BYTES);
      data.k = kernelsFor(op, node, region);
      const p = region.i32;
      writeReduceLoops(p, kind, plan.loops);
      const { input, output } = plan;
      if (kind === ReduceKind.Mean || kind === ReduceKind.Sum) {
        const q = rescale(op, kind, node, input, output, plan.loops.count) as { multiplier: number; shift: number };
        p[RD.ZpCount] = Math.imul(input.params.zeroPoint, plan.loops.count);
        p[RD.Mult] = q.multiplier;
        p[RD.Left] = q.shift > 0 ? q.shift : 0;
        p[RD.Right] = q.shift > 0 ? 0 : -q.shift;
        p[RD.ZpOut] = output.params.zeroPoint;
      }
      p[RD.U8] = input.type === TensorType.UINT8 ? 1 : 0;
      data.params = region.offset;
      data.input = constantInputCopies(context, node, [0])[0]!;
    },
    invoke(context: TfLiteContext, node: Node): void {
      const data = node.userData as QuantizedReduceData;
      data.k!.qs8_reduce(data.params, inputOffset(context, node, 0, data.input), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
    },
  };
}
