/**
 * Helpers shared by the MediaPipe kernels: what `supports()` asks (arity, float32 everywhere), prepare-time
 * checks that throw `KernelError`s naming tensors and shapes, and readers for the two custom-options
 * layouts MediaPipe's ops use — a raw C struct (`TfLiteTransposeConvParams`, `TfLitePoolParams`) and a
 * FlexBuffers map (kernel-support's `readFlexOptions`, over core's bounds-checked `parseFlexMap`).
 */
import { KernelError, TensorType, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { shapeText } from '@micrort/kernel-support';
import { FLOAT32_ONLY, typeReason } from '@micrort/kernel-support';

export { StructPadding, paddingName, readStructFields } from '@micrort/kernel-support';

/**
 * Why the node's arity or types are not handled, or null when they are: exactly `nIn` inputs and `nOut`
 * outputs, none omitted, every one float32. What `supports()` answers (as a reason) and prepare throws.
 */
export function float32NodeProblem(context: TfLiteContext, node: Node, nIn: number, nOut: number): string | null {
  if (node.inputs.length !== nIn || node.outputs.length !== nOut)
    return `expects ${nIn} input(s) and ${nOut} output(s), got ${node.inputs.length} and ${node.outputs.length}`;
  for (let i = 0; i < nIn; i++) if (node.inputs[i]! < 0) return `input ${i} is omitted`;
  for (let i = 0; i < nOut; i++) if (node.outputs[i]! < 0) return `output ${i} is omitted`;
  for (let i = 0; i < nIn; i++) {
    const t = context.getTensor(node.inputs[i]!);
    if (t.type !== TensorType.FLOAT32) return typeReason(`input ${i}`, t.type, FLOAT32_ONLY);
  }
  for (let i = 0; i < nOut; i++) {
    const t = context.getTensor(node.outputs[i]!);
    if (t.type !== TensorType.FLOAT32) return typeReason(`output ${i}`, t.type, FLOAT32_ONLY);
  }
  return null;
}

/** The `supports()` of a kernel with `nIn` inputs and `nOut` outputs, all float32: true, or the `float32NodeProblem`. */
export function float32Supports(nIn: number, nOut: number): (context: TfLiteContext, node: Node) => true | string {
  return (context, node) => float32NodeProblem(context, node, nIn, nOut) ?? true;
}

/** Throws the `float32NodeProblem` as a KernelError. */
export function checkFloat32Node(op: string, context: TfLiteContext, node: Node, nIn: number, nOut: number): void {
  const problem = float32NodeProblem(context, node, nIn, nOut);
  if (problem !== null) throw new KernelError(op, node.index, problem);
}

/** Throws unless `t`'s first dimension is 1 (MediaPipe's kernels process batch 0 only). */
export function checkBatchOne(op: string, node: Node, what: string, t: Tensor): void {
  if (t.dims[0] !== 1)
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) must have batch 1, has shape ${shapeText(t.dims)}`);
}

/** Throws unless `t`'s shape is `expected` (MediaPipe resizes the output to it; micrort's shapes are static). */
export function checkShape(op: string, node: Node, what: string, t: Tensor, expected: ArrayLike<number>): void {
  let same = t.dims.length === expected.length;
  for (let i = 0; same && i < expected.length; i++) same = t.dims[i] === expected[i];
  if (!same)
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected ${shapeText(expected)}`);
}

/** Throws unless `t` has exactly `count` elements. */
export function checkElementCount(op: string, node: Node, what: string, t: Tensor, count: number): void {
  if (t.elementCount !== count)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) has ${t.elementCount} elements (shape ${shapeText(t.dims)}), expected ${count}`,
    );
}

/** Throws unless `value >= min`, naming the option. */
export function checkAtLeast(op: string, node: Node, name: string, value: number, min: number): void {
  if (!(value >= min)) throw new KernelError(op, node.index, `option ${name} is ${value}, must be at least ${min}`);
}

/**
 * A landmark-index subset given as a flat list of indices: consecutive pairs, an odd last index paired
 * with itself (as MediaPipe's attribute parsers do).
 */
export function subsetPairs(flat: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push(flat[i]!, flat[i + 1]!);
  if (flat.length % 2 !== 0) out.push(flat[flat.length - 1]!, flat[flat.length - 1]!);
  return out;
}
