/**
 * The preparation steps the kernels of registrations/tflite-builtins.ts (TFLite builtins TFLM lacks)
 * repeat: one input and one output of the same type and shape (TFLite's GenericPrepare), two inputs
 * broadcast against each other (TFLite's `CalculateShapeForBroadcast`), and constant shape operands read
 * in prepare. Every output shape goes through kernel-support's `setOutputShape`.
 */
import {
  KernelError,
  TensorType,
  checkArity,
  elementSize,
  getInput,
  getOutput,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import {
  BroadcastPlan,
  TensorTypeError,
  expectSameType,
  expectType,
  isDataDependent,
  setOutputShape,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';

/** One input, one output: the output takes the input's shape. */
export interface UnaryPrepared {
  input: Tensor;
  output: Tensor;
  count: number;
}

/**
 * TFLite's GenericPrepare: 1 input, 1 output, the input's type one of `types`, the output of the input's
 * type (unless `outputTypes` says otherwise) and shape.
 */
export function prepareUnary(
  op: string,
  context: TfLiteContext,
  node: Node,
  types: readonly TensorType[],
  outputTypes?: readonly TensorType[],
): UnaryPrepared {
  checkArity(op, node, 1, 1);
  const input = getInput(context, node, 0, op);
  expectType(op, node, 'input', input, types);
  const output = getOutput(context, node, 0, op);
  if (outputTypes) expectType(op, node, 'output', output, outputTypes);
  else expectSameType(op, node, 'input and output', input, output);
  setOutputShape(op, context, node, 0, input.dims);
  return { input, output, count: output.elementCount };
}

/**
 * Two inputs of one type among `types`, broadcast against each other (TFLite's ProcessBroadcastShapes);
 * the output (of `outputType`, default the inputs' type) takes the broadcast shape. Returns the plan
 * invoke walks.
 */
export function prepareBroadcastBinary(
  op: string,
  context: TfLiteContext,
  node: Node,
  types: readonly TensorType[],
  outputType?: TensorType,
): BroadcastPlan {
  checkArity(op, node, 2, 1);
  const a = getInput(context, node, 0, op);
  const b = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input 1', a, types);
  expectSameType(op, node, 'input 1 and input 2', a, b);
  if (outputType === undefined) expectSameType(op, node, 'inputs and output', a, output);
  else expectType(op, node, 'output', output, [outputType]);
  const plan = BroadcastPlan.create(a.dims, b.dims);
  if (typeof plan === 'string')
    throw new KernelError(op, node.index, `input 1 (tensor ${a.index}) and input 2 (tensor ${b.index}): ${plan}`);
  // a data-dependent input: the broadcast of the bounds is the output's bound (followsBroadcast replans at invoke)
  if (isDataDependent(a) || isDataDependent(b)) setOutputShapeOrBound(op, context, node, 0, plan.shape, true);
  else setOutputShape(op, context, node, 0, plan.requiresBroadcast ? plan.shape : a.dims);
  return plan;
}

/**
 * The integer values of a constant int32 or int64 tensor (a shape, a count, multiples), read in prepare;
 * `null` when the tensor is not constant. int64 values must fit in a double exactly (|v| ≤ 2^53).
 */
export function constantInts(op: string, node: Node, t: Tensor, what: string): number[] | null {
  if (!t.isConstant) return null;
  const n = t.elementCount;
  const out = new Array<number>(n);
  if (t.type === TensorType.INT32) {
    const d = t.data as Int32Array;
    for (let i = 0; i < n; i++) out[i] = d[i]!;
  } else if (t.type === TensorType.INT64) {
    const d = t.data as BigInt64Array;
    for (let i = 0; i < n; i++) {
      const v = d[i]!;
      if (v > 9007199254740991n || v < -9007199254740991n) throw new KernelError(op, node.index, `${what}[${i}] = ${v} is out of range`);
      out[i] = Number(v);
    }
  } else {
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) has type ${tensorTypeName(t.type)}, expected int32 or int64`);
  }
  return out;
}

/** Throws unless every value of `dims` is a non-negative integer (a shape read from a tensor). */
export function expectShapeValues(op: string, node: Node, what: string, dims: readonly number[]): void {
  dims.forEach((d, i) => {
    if (!Number.isInteger(d) || d < 0)
      throw new KernelError(op, node.index, `${what}[${i}] = ${d}: a dimension must be a non-negative integer`);
  });
}

/** Copies `count` elements of `size` bytes from `src` (element `from`) to `dst` (element `to`): a byte loop, no allocation. */
export function copyElements(src: Uint8Array, from: number, dst: Uint8Array, to: number, count: number, size: number): void {
  let s = from * size;
  let d = to * size;
  const end = s + count * size;
  while (s < end) dst[d++] = src[s++]!;
}

/** The element size of a fixed-size type; a KernelError naming the tensor for types without one (string). */
export function fixedElementSize(op: string, node: Node, what: string, t: Tensor): number {
  const size = elementSize(t.type);
  if (size === undefined)
    throw new TensorTypeError(
      op,
      node.index,
      what,
      t.index,
      t.type,
      [],
      `unsupported ${what} type ${tensorTypeName(t.type)} (tensor ${t.index}): this kernel moves elements of a fixed size`,
    );
  return size;
}

/** The `supports()` answer of a kernel that moves elements of any fixed size: declines string (and other unsized) inputs at `position`. */
export function supportsFixedSize(context: TfLiteContext, node: Node, position = 0): true | string {
  const index = node.inputs[position];
  if (index === undefined || index < 0) return true;
  const t = context.getTensor(index);
  return elementSize(t.type) === undefined ? `${tensorTypeName(t.type)} input (handles fixed-size element types)` : true;
}
