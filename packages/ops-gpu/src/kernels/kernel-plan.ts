/**
 * What a GPU op kernel tells the delegate about one node: the gpu.js kernel function to compile, its
 * constants (compiled into the shader), the output size and where each argument comes from.
 *
 * Every tensor is a flat float32 array on the device (row-major, as in the arena); kernels compute one
 * output element per thread (`this.thread.x` is the flat output index) and decompose it into
 * coordinates with the shape constants.
 */
import { KernelError, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { FLOAT32_ONLY, expectType } from '@micrort/kernel-support';

/** `this` inside a gpu.js kernel function, as far as these kernels use it. */
export interface KernelThis<C> {
  readonly thread: { readonly x: number };
  readonly constants: C;
}

/** A gpu.js kernel function over flat float32 arrays, returning one output element. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kernel's constants have their own shape
export type KernelSource = (this: KernelThis<any>, ...args: Float32Array[]) => number;

/** Where one kernel argument comes from. */
export type KernelArg =
  /** A tensor of the model (a subset input, a constant, or the output of an earlier node). */
  | { readonly tensor: number }
  /** An array the op made at prepare (e.g. a zero bias); uploaded once like a constant. */
  | { readonly data: Float32Array; readonly label: string };

/** How the delegate runs one node. */
export interface KernelPlan {
  /** Op name, for messages. */
  readonly op: string;
  /** Cache key: op, attributes and shapes (never tensor indices), so equal nodes share a compiled kernel. */
  readonly key: string;
  /** The kernel function, or null when the output aliases argument 0 (RESHAPE: same bytes, new shape). */
  readonly source: KernelSource | null;
  /** Shader constants (shapes, strides, activation bounds). */
  readonly constants: Readonly<Record<string, number>>;
  /** Constants that must be floats in the shader; the others are integers. */
  readonly floatConstants: readonly string[];
  /** Output element count (the kernel's 1-D output size). */
  readonly outputSize: number;
  /** The output tensor. */
  readonly output: number;
  readonly args: readonly KernelArg[];
}

/** One op the GPU delegate can run. */
export interface GpuOpKernel {
  readonly builtinCode: number;
  readonly name: string;
  /**
   * Validates the node (types, shapes, options) and describes its kernel. Throws `KernelError` naming
   * what is unsupported; the delegate then leaves the node on the CPU. Needs `context.getTensor`.
   */
  plan(context: TfLiteContext, node: Node): KernelPlan;
}

/** Tensor at input position `i`, or throws when it is missing. */
export function inputTensor(context: TfLiteContext, op: string, node: Node, i: number): Tensor {
  const idx = node.inputs[i];
  if (idx === undefined || idx < 0) throw new KernelError(op, node.index, `input ${i} is missing`);
  return context.getTensor(idx);
}

/** Optional input at position `i` (null when omitted). */
export function optionalInput(context: TfLiteContext, node: Node, i: number): Tensor | null {
  const idx = node.inputs[i];
  return idx === undefined || idx < 0 ? null : context.getTensor(idx);
}

/** The single output tensor; throws unless the node has exactly one. */
export function singleOutput(context: TfLiteContext, op: string, node: Node): Tensor {
  if (node.outputs.length !== 1 || node.outputs[0]! < 0)
    throw new KernelError(op, node.index, `expects 1 output, got ${node.outputs.length}`);
  return context.getTensor(node.outputs[0]!);
}

/** Throws unless every tensor is float32. */
export function requireFloat32(op: string, node: Node, ...tensors: { t: Tensor; what: string }[]): void {
  for (const { t, what } of tensors) expectType(op, node, what, t, FLOAT32_ONLY);
}

/** Throws unless the tensor has data from the model (weights, paddings, axes). */
export function requireConstant(op: string, node: Node, t: Tensor, what: string): void {
  if (!t.isConstant) throw new KernelError(op, node.index, `${what} (tensor ${t.index}) must be a constant for the GPU delegate`);
}

/** Throws unless `cond`. */
export function ensure(cond: unknown, op: string, node: Node, detail: string): asserts cond {
  if (!cond) throw new KernelError(op, node.index, detail);
}

/** The shape padded on the left with 1s to `rank` dimensions; throws when it has more. */
export function padShape(op: string, node: Node, dims: ArrayLike<number>, rank: number, what: string): number[] {
  ensure(dims.length <= rank, op, node, `${what} has rank ${dims.length}; the GPU kernel handles up to ${rank}`);
  const out: number[] = [];
  for (let i = 0; i < rank - dims.length; i++) out.push(1);
  for (let i = 0; i < dims.length; i++) out.push(dims[i]!);
  return out;
}

/** `a x b x c` for cache keys. */
export function shapeKey(dims: ArrayLike<number>): string {
  return Array.from(dims).join('x');
}

/** The bias argument: the float32 bias tensor (checked), or a zero array when the bias is omitted. */
export function biasArgument(op: string, node: Node, bias: Tensor | null, channels: number): KernelArg {
  if (!bias) return { data: new Float32Array(channels), label: 'zero bias' };
  requireFloat32(op, node, { t: bias, what: 'bias' });
  ensure(bias.elementCount === channels, op, node, `bias has ${bias.elementCount} elements, expected ${channels}`);
  return { tensor: bias.index };
}
