/**
 * What the quantized elementwise binary kernels without a fused activation (int8 PRELU, int8 / int16
 * SQUARED_DIFFERENCE) share: the `supports()` checks (arity; input, second input and output of one handled
 * type, all quantized; TFLM's broadcast up to 4-D that float/binary-common.ts's broadcastPlan lays out; the
 * op's own parameter math, run once to decline what it refuses) and the broadcast plan's words in a
 * parameter block, with byte strides for the element size.
 */
import { tensorTypeName, type Node, type Tensor, type TfLiteContext, type TensorType } from '@micrort/core';
import { broadcastPlan, type BroadcastPlan } from './float/binary-common.js';
import { declineOnError } from './lut-common.js';
import { declineArity } from '@micrort/kernel-support';

/** TFLM's broadcast rank for these ops (BroadcastBinaryFunction4DSlow, BroadcastPrelu4DSlow). */
const MAX_BROADCAST_RANK = 4;

/** The tensors of a binary node: input 1, input 2, output. */
export interface BinaryTensors {
  a: Tensor;
  b: Tensor;
  out: Tensor;
}

/**
 * `supports()` of a quantized binary kernel: the tensors, or the reason to decline the node. `accepts`
 * says whether the input, second-input and output types are handled (`handles` names what is); `params`
 * is the op's prepare arithmetic (a KernelError's message becomes the reason).
 */
export function supportsQuantizedBinaryNode(
  context: TfLiteContext,
  node: Node,
  accepts: (a: TensorType, b: TensorType, out: TensorType) => boolean,
  handles: string,
  params: (t: BinaryTensors) => unknown,
): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const t = binaryTensors(context, node);
  const { a, b, out } = t;
  if (!accepts(a.type, b.type, out.type))
    return `${tensorTypeName(a.type)}, ${tensorTypeName(b.type)} to ${tensorTypeName(out.type)} (handles ${handles})`;
  if (!a.quantization || !b.quantization || !out.quantization) return 'an input or the output not quantized';
  const rank = Math.max(a.dims.length, b.dims.length, out.dims.length);
  if (rank > MAX_BROADCAST_RANK) return `rank ${rank} (TFLM broadcasts up to ${MAX_BROADCAST_RANK}-D)`;
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  if (typeof plan === 'string') return plan;
  return declineOnError(() => params(t)) ?? true;
}

/** Input 1, input 2 and the output of `node`. */
export function binaryTensors(context: TfLiteContext, node: Node): BinaryTensors {
  return { a: context.getTensor(node.inputs[0]!), b: context.getTensor(node.inputs[1]!), out: context.getTensor(node.outputs[0]!) };
}

/**
 * The broadcast plan's words at the block's word indices: the outer counts `n`, the inputs' byte strides
 * `s1` and `s2` (three words each) for elements of `bytes` bytes, the inner run and its mode.
 */
export function writeBytePlan(
  p: Int32Array,
  plan: BroadcastPlan,
  bytes: number,
  n: number,
  s1: number,
  s2: number,
  inner: number,
  mode: number,
): void {
  for (let k = 0; k < 3; k++) {
    p[n + k] = plan.n[k]!;
    p[s1 + k] = (plan.a[k]! / 4) * bytes; // broadcastPlan counts float32 bytes
    p[s2 + k] = (plan.b[k]! / 4) * bytes;
  }
  p[inner] = plan.inner;
  p[mode] = plan.mode;
}
