/**
 * The checks a kernel's prepare makes before it computes anything (TFLM's `TF_LITE_ENSURE*` in the
 * kernels' Prepare): each throws a typed `KernelError` that names the op, the node, the tensor (its role
 * and index) and the numbers involved, so a failing model says exactly what is wrong. One wording for
 * every kernel package. The same conditions answered as strings instead of thrown — what `supports()`
 * returns when a kernel declines a node — are in decline.ts.
 *
 * Roles (`what`) are the words TFLM's comments use: `input`, `input 1`, `filter`, `bias`, `output`.
 */
import { KernelError, numElements, tensorTypeName, type Node, type Tensor, type TensorType } from '@micrort/core';

/** `[1, 2, 3]` for messages. */
export function shapeText(dims: ArrayLike<number>): string {
  return `[${Array.from(dims).join(', ')}]`;
}

/** Comma-separated type names, for messages (`float32, int8`). */
export function typeList(types: readonly TensorType[]): string {
  return types.map(tensorTypeName).join(', ');
}

/** A tensor of a type the kernel does not take. */
export class TensorTypeError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    /** The tensor's role (`input`, `filter`, `output 1`...). */
    readonly what: string,
    /** The tensor's index in the subgraph. */
    readonly tensor: number,
    readonly actual: TensorType,
    /** The types the kernel takes there. */
    readonly expected: readonly TensorType[],
    detail = `unsupported ${what} type ${tensorTypeName(actual)} (tensor ${tensor}); supported: ${typeList(expected)}`,
  ) {
    super(op, nodeIndex, detail);
  }
}

/** A tensor whose shape (rank, sizes, element count) is not what the kernel needs. */
export class TensorShapeError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    readonly what: string,
    readonly tensor: number,
    /** The tensor's dimensions. */
    readonly dims: readonly number[],
    detail: string,
  ) {
    super(op, nodeIndex, detail);
  }
}

/** A tensor whose quantization (scales, zero points, axis) the kernel cannot use. */
export class QuantizationError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    readonly what: string,
    readonly tensor: number,
    detail: string,
  ) {
    super(op, nodeIndex, detail);
  }
}

/** An option (stride, dilation, filter size, padding, activation, beta...) outside what the kernel takes. */
export class OptionError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    /** The option's name in the schema (`stride_h`, `dilation_w_factor`...). */
    readonly option: string,
    readonly value: number,
    detail: string,
  ) {
    super(op, nodeIndex, detail);
  }
}

/** Throws a `TensorTypeError` unless `t`'s type is `types` (or one of them). */
export function expectType(op: string, node: Node, what: string, t: Tensor, types: TensorType | readonly TensorType[]): void {
  const list: readonly TensorType[] = typeof types === 'number' ? [types] : types;
  if (!list.includes(t.type)) throw new TensorTypeError(op, node.index, what, t.index, t.type, list);
}

/** Throws unless `a` and `b` have the same element type (`what` names the pair, e.g. `input 1 and output`). */
export function expectSameType(op: string, node: Node, what: string, a: Tensor, b: Tensor): void {
  if (a.type !== b.type)
    throw new TensorTypeError(
      op,
      node.index,
      what,
      b.index,
      b.type,
      [a.type],
      `${what}: types differ (tensor ${a.index} is ${tensorTypeName(a.type)}, tensor ${b.index} is ${tensorTypeName(b.type)})`,
    );
}

/** Throws a `TensorShapeError` unless `t` has rank `rank`. */
export function expectRank(op: string, node: Node, what: string, t: Tensor, rank: number): void {
  if (t.dims.length !== rank)
    throw new TensorShapeError(
      op,
      node.index,
      what,
      t.index,
      Array.from(t.dims),
      `${what} (tensor ${t.index}) must have rank ${rank}, got shape ${shapeText(t.dims)}`,
    );
}

/** Throws unless `t` has at most `max` dimensions. */
export function expectMaxRank(op: string, node: Node, what: string, t: Tensor, max: number): void {
  if (t.dims.length > max)
    throw new TensorShapeError(
      op,
      node.index,
      what,
      t.index,
      Array.from(t.dims),
      `${what} (tensor ${t.index}) has ${t.dims.length} dimensions, at most ${max} are supported`,
    );
}

/**
 * Throws unless `input` and `output` hold the same number of elements (TFLM's MatchingFlatSize) and
 * returns that number.
 */
export function expectSameElementCount(op: string, node: Node, input: Tensor, output: Tensor): number {
  const n = numElements(input.dims);
  const m = numElements(output.dims);
  if (n !== m)
    throw new TensorShapeError(
      op,
      node.index,
      'output',
      output.index,
      Array.from(output.dims),
      `input (tensor ${input.index}, shape ${shapeText(input.dims)}) and output (tensor ${output.index}, shape ${shapeText(output.dims)}) differ in element count: ${n} vs ${m}`,
    );
  return n;
}

/** Throws an `OptionError` unless `value` is an integer >= 1 (strides, dilations, filter sizes, depth multipliers). */
export function expectPositive(op: string, node: Node, name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1)
    throw new OptionError(op, node.index, name, value, `${name} must be an integer >= 1, got ${value}`);
}

/**
 * Throws a `QuantizationError` unless `t` has affine quantization with a positive, finite (per-tensor or
 * first-channel) scale.
 */
export function expectQuantized(op: string, node: Node, what: string, t: Tensor): void {
  const q = t.quantization;
  if (!q || q.scale.length === 0 || !(t.params.scale > 0 && t.params.scale < Infinity))
    throw new QuantizationError(
      op,
      node.index,
      what,
      t.index,
      `${what} (tensor ${t.index}) of type ${tensorTypeName(t.type)} needs affine quantization with a positive finite scale (got ${q && q.scale.length ? t.params.scale : 'none'})`,
    );
}

/** Throws unless `t` is not quantized (TFLM's kTfLiteNoQuantization: int32 and float paths). */
export function expectNotQuantized(op: string, node: Node, what: string, t: Tensor): void {
  const q = t.quantization;
  if (q && q.scale.length > 0)
    throw new QuantizationError(
      op,
      node.index,
      what,
      t.index,
      `${what} (tensor ${t.index}) of type ${tensorTypeName(t.type)} must not be quantized`,
    );
}

/** Throws unless `t`'s zero point is `expected`. */
export function expectZeroPoint(op: string, node: Node, what: string, t: Tensor, expected: number): void {
  if (t.params.zeroPoint !== expected)
    throw new QuantizationError(
      op,
      node.index,
      what,
      t.index,
      `${what} (tensor ${t.index}) zero point must be ${expected}, got ${t.params.zeroPoint}`,
    );
}

/**
 * Checks an optional bias: its type is one of `allowed` (given with the input type they go with) and it
 * holds one value per output channel. Returns the bias type, or null when the node has no bias.
 */
export function expectBias(
  op: string,
  node: Node,
  bias: Tensor | null,
  allowed: readonly TensorType[],
  outChannels: number,
  inputType: TensorType,
): TensorType | null {
  if (!bias) return null;
  if (!allowed.includes(bias.type))
    throw new TensorTypeError(
      op,
      node.index,
      'bias',
      bias.index,
      bias.type,
      allowed,
      `bias (tensor ${bias.index}) type ${tensorTypeName(bias.type)} is not supported with ${tensorTypeName(inputType)} input; expected ${allowed.map(tensorTypeName).join(' or ')}`,
    );
  const n = numElements(bias.dims);
  if (n !== outChannels)
    throw new TensorShapeError(
      op,
      node.index,
      'bias',
      bias.index,
      Array.from(bias.dims),
      `bias (tensor ${bias.index}) has ${n} elements, expected ${outChannels} (one per output channel)`,
    );
  return bias.type;
}
