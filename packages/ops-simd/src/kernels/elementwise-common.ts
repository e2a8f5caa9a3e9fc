/**
 * Shared checks of ADD and MUL: int8 operands of identical shape (CMSIS-NN's element-wise kernels; TFLM's
 * CMSIS-NN ADD/MUL use the reference broadcast code whenever the shapes differ, so ops-simd declines
 * broadcasting nodes and leaves them to the next provider).
 */
import {
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  sameShape,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { expectQuantized } from './conv-common.js';
import { arityReason, int8Reason } from './supports-common.js';

/** `true` for int8 + int8 -> int8 with both inputs of the same shape, else why not (types, broadcasting). */
export function elementwiseSupported(context: TfLiteContext, node: Node): true | string {
  const why = arityReason(node, 2, 1) ?? int8Reason(context, node, [0, 1]);
  if (why) return why;
  const a = context.getTensor(node.inputs[0]!);
  const b = context.getTensor(node.inputs[1]!);
  if (!sameShape(a.dims, b.dims))
    return `broadcasting [${Array.from(a.dims).join(',')}] with [${Array.from(b.dims).join(',')}] (handles same-shape inputs)`;
  return true;
}

/** Validates the node and returns its tensors. */
export function prepareElementwise(op: string, context: TfLiteContext, node: Node): { in1: Tensor; in2: Tensor; out: Tensor } {
  checkArity(op, node, 2, 1);
  const in1 = getInput(context, node, 0, op);
  const in2 = getInput(context, node, 1, op);
  const out = getOutput(context, node, 0, op);
  for (const [what, t] of [
    ['input 1', in1],
    ['input 2', in2],
    ['output', out],
  ] as const) {
    if (t.type !== TensorType.INT8) throw new KernelError(op, node.index, `${what} (tensor ${t.index}) must be int8`);
    expectQuantized(op, node, what, t);
  }
  if (!sameShape(in1.dims, in2.dims)) {
    throw new KernelError(
      op,
      node.index,
      `broadcasting [${Array.from(in1.dims).join(', ')}] with [${Array.from(in2.dims).join(', ')}] is not supported by ops-simd`,
    );
  }
  if (out.elementCount !== in1.elementCount)
    throw new KernelError(op, node.index, `output has ${out.elementCount} elements, inputs ${in1.elementCount}`);
  return { in1, in2, out };
}
