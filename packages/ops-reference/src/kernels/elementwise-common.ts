/**
 * Shared pieces of the elementwise reference kernels (SUB, MUL, DIV, MAXIMUM, MINIMUM, ABS, SIN, COS,
 * CAST): the sizes of the op-data blocks TFLM allocates for them, the arity and type checks they start
 * with, and the float clamp. (Broadcast plans, activation ranges and the quantization checks are
 * @micrort/kernel-support's.)
 */
import { KernelError, type Node, type Registration, type Tensor, type TensorType, type TfLiteContext } from '@micrort/core';
import {
  type BroadcastPlan,
  expectNotQuantized,
  followBroadcastShapes,
  opData,
  expectQuantized,
  expectSameType,
  expectType,
  isDataDependent,
  setBinaryOutputShape,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';

/**
 * Bytes of the op-data structs TFLM allocates with AllocatePersistentBuffer in each kernel's init
 * (x86-64 layout), so the arena figures of micrort match TFLM's. The numeric parameters are stored in
 * these blocks.
 */
export const TFLM_OP_DATA_BYTES = {
  /** OpDataSub: bool + 12 int32. */
  SUB: 52,
  /** OpDataMul: 7 int32 + 2 float. */
  MUL: 36,
  /** OpDataDiv: 7 int32. */
  DIV: 28,
  /** OpDataAbsRsqrt: 4 int32, bool, 2 enums. */
  ABS: 28,
  /** OpDataLogistic: 4 int32. */
  LOGISTIC: 16,
  /** Tanh OpData: 4 int32. */
  TANH: 16,
  /** ReluOpData (ReluParams): activation type, 6 int32. */
  RELU: 28,
  /** Relu6OpData: six and zero in the input type (stored here as two int16). */
  RELU6: 4,
  /** LeakyReluOpData: 6 int32. */
  LEAKY_RELU: 24,
} as const;

/** The two inputs and the output of a binary op, after arity checks. */
export interface BinaryTensors {
  input1: Tensor;
  input2: Tensor;
  output: Tensor;
}

/**
 * Checks that `node` has 2 inputs and 1 output, gives the output the inputs' broadcast shape
 * (setBinaryOutputShape) and returns them.
 */
export function binaryTensors(op: string, context: TfLiteContext, node: Node): BinaryTensors {
  if (node.inputs.length !== 2) throw new KernelError(op, node.index, `expects 2 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(op, node.index, `expects 1 output, got ${node.outputs.length}`);
  const i1 = node.inputs[0]!;
  const i2 = node.inputs[1]!;
  const o = node.outputs[0]!;
  if (i1 < 0 || i2 < 0) throw new KernelError(op, node.index, 'an input is missing (index -1)');
  if (o < 0) throw new KernelError(op, node.index, 'the output is missing (index -1)');
  const input1 = context.getTensor(i1);
  const input2 = context.getTensor(i2);
  return { input1, input2, output: setBinaryOutputShape(op, context, node, input1, input2) };
}

/**
 * `binaryTensors` plus the type checks every binary elementwise kernel starts with: the output type is one
 * of `outputTypes`, input 2 has input 1's type and input 1 the output's.
 */
export function typedBinaryTensors(op: string, context: TfLiteContext, node: Node, outputTypes: readonly TensorType[]): BinaryTensors {
  const t = binaryTensors(op, context, node);
  expectType(op, node, 'output', t.output, outputTypes);
  expectSameType(op, node, 'inputs', t.input1, t.input2);
  expectSameType(op, node, 'input 1 and output', t.input1, t.output);
  return t;
}

/** Throws unless both inputs and the output are quantized (the int8/int16 paths of binary kernels). */
export function requireQuantizedBinary(op: string, node: Node, t: BinaryTensors): void {
  expectQuantized(op, node, 'input 1', t.input1);
  expectQuantized(op, node, 'input 2', t.input2);
  expectQuantized(op, node, 'output', t.output);
}

/** Throws when either input of a binary kernel is quantized (its int32 path; TFLM's kTfLiteNoQuantization). */
export function requireNotQuantizedInputs(op: string, node: Node, t: BinaryTensors): void {
  expectNotQuantized(op, node, 'input 1', t.input1);
  expectNotQuantized(op, node, 'input 2', t.input2);
}

/** The input and the output of a unary op, after arity checks. */
export interface UnaryTensors {
  input: Tensor;
  output: Tensor;
}

/**
 * Checks that `node` has 1 input and 1 output, gives the output the input's shape and returns them. A
 * data-dependent input (only a kernel with `dynamicInputShapes` gets one) makes the output data-dependent
 * with the same bound; the kernel then follows the input's actual dims at invoke (`followActualShape`).
 */
export function unaryTensors(op: string, context: TfLiteContext, node: Node): UnaryTensors {
  if (node.inputs.length !== 1) throw new KernelError(op, node.index, `expects 1 input, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(op, node.index, `expects 1 output, got ${node.outputs.length}`);
  const i = node.inputs[0]!;
  const o = node.outputs[0]!;
  if (i < 0) throw new KernelError(op, node.index, 'the input is missing (index -1)');
  if (o < 0) throw new KernelError(op, node.index, 'the output is missing (index -1)');
  const input = context.getTensor(i);
  return { input, output: setOutputShapeOrBound(op, context, node, 0, input.upperBound ?? input.dims, isDataDependent(input)) };
}

/** Clamps an int32 value to [lo, hi]. */
export function clampInt(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * TFLM ActivationFunctionWithMinMax for floats: min(max(x, lo), hi) with std::max/std::min semantics
 * (a NaN input stays NaN).
 */
export function clampFloat(x: number, lo: number, hi: number): number {
  const y = x < lo ? lo : x;
  return hi < y ? hi : y;
}

/**
 * A binary elementwise kernel (its walk a kernel-support `BroadcastPlan` that `planOf` finds in its op
 * data) made a consumer of data-dependent shapes (`dynamicInputShapes`): when either of inputs
 * `positions` has a data-dependent shape, its prepare (which states the output's bound from the inputs'
 * bounds through `setBinaryOutputShape`) marks the plan to follow the actual dims, and every invoke
 * first replans the broadcast from the inputs' actual dims into the plan's own storage and sets the
 * output's actual dims (`followBroadcastShapes`; nothing allocated). (Such a node never runs in place:
 * `broadcastInPlace` declines data-dependent inputs.)
 */
export function followsBroadcast<T>(
  reg: Registration<T>,
  planOf: (data: T) => BroadcastPlan | null,
  positions: readonly [number, number] = [0, 1],
): Registration<T> {
  const name = reg.name ?? 'binary op';
  const prepare = reg.prepare;
  const invoke = reg.invoke;
  const [p1, p2] = positions;
  const bounded = (context: TfLiteContext, node: Node): boolean => {
    for (const p of positions) {
      const i = node.inputs[p] ?? -1;
      if (i >= 0 && isDataDependent(context.getTensor(i))) return true;
    }
    return false;
  };
  return {
    ...reg,
    dynamicInputShapes: true,
    prepare(context: TfLiteContext, node: Node): void {
      if (prepare) prepare(context, node);
      if (!bounded(context, node)) return;
      const plan = planOf(opData<T>(name, node));
      if (plan === null) throw new KernelError(name, node.index, 'has no broadcast plan to follow a data-dependent input with');
      plan.followActualShapes(context.getTensor(node.outputs[0]!).dims.length);
    },
    invoke(context: TfLiteContext, node: Node): void {
      const plan = planOf(node.userData as T);
      if (plan !== null && plan.actualOutputDims !== null) followBroadcastShapes(name, context, node, plan, p1, p2);
      invoke(context, node);
    },
  };
}
