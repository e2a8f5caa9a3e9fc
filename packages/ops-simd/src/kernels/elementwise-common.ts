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
import { declineArity, declineTypes, expectType, INT8_ONLY, shapeText } from '@micrort/kernel-support';

/** `true` for int8 + int8 -> int8 with both inputs of the same shape, else why not (types, broadcasting). */
export function elementwiseSupported(context: TfLiteContext, node: Node): true | string {
  const why = declineArity(node, 2, 1) ?? declineTypes(context, node, [0, 1], INT8_ONLY);
  if (why) return why;
  const a = context.getTensor(node.inputs[0]!);
  const b = context.getTensor(node.inputs[1]!);
  if (!sameShape(a.dims, b.dims))
    return `broadcasting [${Array.from(a.dims).join(',')}] with [${Array.from(b.dims).join(',')}] (handles same-shape inputs)`;
  return true;
}

/** Validates the node (int8, same shapes; the quantization is checked by kernel-support's op-data calculators) and returns its tensors. */
export function prepareElementwise(op: string, context: TfLiteContext, node: Node): { in1: Tensor; in2: Tensor; out: Tensor } {
  checkArity(op, node, 2, 1);
  const in1 = getInput(context, node, 0, op);
  const in2 = getInput(context, node, 1, op);
  const out = getOutput(context, node, 0, op);
  expectType(op, node, 'input 1', in1, TensorType.INT8);
  expectType(op, node, 'input 2', in2, TensorType.INT8);
  expectType(op, node, 'output', out, TensorType.INT8);
  if (!sameShape(in1.dims, in2.dims))
    throw new KernelError(op, node.index, `broadcasting ${shapeText(in1.dims)} with ${shapeText(in2.dims)} is not supported by ops-simd`);
  if (out.elementCount !== in1.elementCount)
    throw new KernelError(op, node.index, `output has ${out.elementCount} elements, inputs ${in1.elementCount}`);
  return { in1, in2, out };
}
