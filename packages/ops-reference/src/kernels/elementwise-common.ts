/**
 * Shared pieces of the elementwise reference kernels (SUB, MUL, DIV, MAXIMUM, MINIMUM, ABS, SIN, COS,
 * CAST): N-D broadcasting plans precomputed in prepare, TFLM's activation ranges, quantization checks and
 * the persistent op-data blocks TFLM allocates for these kernels.
 */
import {
  ActivationFunctionType,
  KernelError,
  TensorType,
  calculateActivationRangeQuantized,
  numElements,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';

/** Largest finite float32 (std::numeric_limits<float>::max()). */
export const FLT_MAX = 3.4028234663852886e38;
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

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

/** Allocates TFLM's op-data block for a kernel and returns it as int32 words. */
export function allocateOpData(context: TfLiteContext, bytes: number): Int32Array {
  return context.allocatePersistentBuffer(bytes).i32;
}

/** The op data stored in `node.userData` by init, or a KernelError when init did not run. */
export function opDataOf<T>(op: string, node: Node): T {
  if (node.userData === undefined || node.userData === null)
    throw new KernelError(op, node.index, 'op data missing: init() was not called before prepare()');
  return node.userData as T;
}

/** Fused activation of a node's options (`fusedActivationFunction`), NONE when the node has no options. */
export function fusedActivation(node: Node): ActivationFunctionType {
  const opts = node.builtinData as { fusedActivationFunction?: ActivationFunctionType } | null;
  return opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
}

/**
 * TFLM CalculateActivationRange<float>: [lowest, max] of float for NONE (not ±Infinity, so infinities
 * are clamped to ±FLT_MAX as in TFLM).
 */
export function activationRangeFloat(op: string, node: Node, activation: ActivationFunctionType): [number, number] {
  switch (activation) {
    case ActivationFunctionType.NONE:
      return [-FLT_MAX, FLT_MAX];
    case ActivationFunctionType.RELU:
      return [0, FLT_MAX];
    case ActivationFunctionType.RELU6:
      return [0, 6];
    case ActivationFunctionType.RELU_N1_TO_1:
      return [-1, 1];
    default:
      throw new KernelError(op, node.index, `unsupported fused activation ${ActivationFunctionType[activation] ?? activation}`);
  }
}

/** TFLM CalculateActivationRange<int32_t>. */
export function activationRangeInt32(op: string, node: Node, activation: ActivationFunctionType): [number, number] {
  switch (activation) {
    case ActivationFunctionType.NONE:
      return [INT32_MIN, INT32_MAX];
    case ActivationFunctionType.RELU:
      return [0, INT32_MAX];
    case ActivationFunctionType.RELU6:
      return [0, 6];
    case ActivationFunctionType.RELU_N1_TO_1:
      return [-1, 1];
    default:
      throw new KernelError(op, node.index, `unsupported fused activation ${ActivationFunctionType[activation] ?? activation}`);
  }
}

/** TFLM CalculateActivationRangeQuantized for an int8/int16 output, as a KernelError on failure. */
export function activationRangeQuantized(op: string, node: Node, activation: ActivationFunctionType, output: Tensor): [number, number] {
  try {
    return calculateActivationRangeQuantized(activation, output);
  } catch (e) {
    throw new KernelError(op, node.index, (e as Error).message);
  }
}

/** Throws unless `tensor` has per-tensor (or first-channel) affine quantization with a positive, finite scale. */
export function requireQuantized(op: string, node: Node, tensor: Tensor, what: string): void {
  const q = tensor.quantization;
  if (!q || q.scale.length === 0 || !(tensor.params.scale > 0 && tensor.params.scale < Infinity))
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${tensor.index}) of type ${tensorTypeName(tensor.type)} needs affine quantization with a positive finite scale (got ${q && q.scale.length ? tensor.params.scale : 'none'})`,
    );
}

/** Throws unless `tensor` is not quantized (TFLM's kTfLiteNoQuantization). */
export function requireNotQuantized(op: string, node: Node, tensor: Tensor, what: string): void {
  const q = tensor.quantization;
  if (q && q.scale.length > 0)
    throw new KernelError(op, node.index, `${what} (tensor ${tensor.index}) of type ${tensorTypeName(tensor.type)} must not be quantized`);
}

/** Throws unless the zero point of `tensor` is `expected`. */
export function requireZeroPoint(op: string, node: Node, tensor: Tensor, what: string, expected: number): void {
  if (tensor.params.zeroPoint !== expected)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${tensor.index}) zero point must be ${expected}, got ${tensor.params.zeroPoint}`,
    );
}

/** Throws unless `a` and `b` have the same element type. */
export function requireSameType(op: string, node: Node, a: Tensor, b: Tensor, what: string): void {
  if (a.type !== b.type)
    throw new KernelError(
      op,
      node.index,
      `${what}: types differ (tensor ${a.index} is ${tensorTypeName(a.type)}, tensor ${b.index} is ${tensorTypeName(b.type)})`,
    );
}

/** Throws unless `type` is one of `allowed`. */
export function requireType(op: string, node: Node, tensor: Tensor, what: string, allowed: readonly TensorType[]): void {
  if (!allowed.includes(tensor.type))
    throw new KernelError(
      op,
      node.index,
      `unsupported ${what} type ${tensorTypeName(tensor.type)} (tensor ${tensor.index}); supported: ${allowed.map(tensorTypeName).join(', ')}`,
    );
}

/** Throws unless input and output hold the same number of elements (TFLM MatchingFlatSize). */
export function requireSameElementCount(op: string, node: Node, input: Tensor, output: Tensor): number {
  const n = numElements(input.dims);
  const m = numElements(output.dims);
  if (n !== m)
    throw new KernelError(
      op,
      node.index,
      `input (tensor ${input.index}, shape [${input.dims.join(',')}]) and output (tensor ${output.index}, shape [${output.dims.join(',')}]) differ in element count: ${n} vs ${m}`,
    );
  return n;
}

/**
 * How a binary elementwise op walks its two inputs and its output, computed once in prepare.
 *
 * The shapes are right-aligned and broadcast as numpy/TFLite do; output dimensions of size 1 are dropped
 * and neighbouring dimensions that stay contiguous for both inputs are merged, so most cases become a
 * single run (`rows === 1`). The output is walked in order as `rows` runs of `inner` elements; within a
 * run input k advances by `innerStrideK` (0 when it is broadcast along the run, else 1). Between runs
 * `next()` moves `off1`/`off2`/`offOut` to the start of the next run without allocating:
 *
 * ```ts
 * plan.reset();
 * for (let r = 0; r < plan.rows; r++) {
 *   let i1 = plan.off1, i2 = plan.off2;
 *   for (let k = 0, o = plan.offOut; k < plan.inner; k++, o++, i1 += s1, i2 += s2) out[o] = f(a[i1], b[i2]);
 *   plan.next();
 * }
 * ```
 */
export class BroadcastPlan {
  /** Element count of the output. */
  readonly outputSize: number;
  /** Length of one contiguous output run. */
  readonly inner: number;
  /** Step of input 1 within a run (0 or 1). */
  readonly innerStride1: number;
  /** Step of input 2 within a run (0 or 1). */
  readonly innerStride2: number;
  /** Number of runs. */
  readonly rows: number;
  /** Whether an input is actually broadcast (false: plain elementwise over equal shapes). */
  readonly requiresBroadcast: boolean;
  /** The broadcast output shape (rank = the larger input rank). */
  readonly shape: Int32Array;
  /** Start of the current run in input 1. */
  off1 = 0;
  /** Start of the current run in input 2. */
  off2 = 0;
  /** Start of the current run in the output. */
  offOut = 0;

  private readonly outerDims: Int32Array;
  private readonly outerStride1: Int32Array;
  private readonly outerStride2: Int32Array;
  private readonly counter: Int32Array;

  private constructor(shape: Int32Array, requiresBroadcast: boolean, groups: { size: number; s1: number; s2: number }[]) {
    this.shape = shape;
    this.requiresBroadcast = requiresBroadcast;
    this.outputSize = numElements(shape);
    const innermost = groups[0];
    if (this.outputSize === 0 || innermost === undefined) {
      // Empty output, or a single element (every dimension is 1).
      this.inner = this.outputSize === 0 ? 0 : 1;
      this.innerStride1 = 0;
      this.innerStride2 = 0;
      this.rows = this.outputSize === 0 ? 0 : 1;
      groups = [];
    } else {
      this.inner = innermost.size;
      this.innerStride1 = innermost.s1;
      this.innerStride2 = innermost.s2;
      this.rows = this.outputSize / innermost.size;
      groups = groups.slice(1);
    }
    const n = groups.length;
    this.outerDims = new Int32Array(n);
    this.outerStride1 = new Int32Array(n);
    this.outerStride2 = new Int32Array(n);
    this.counter = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.outerDims[i] = groups[i]!.size;
      this.outerStride1[i] = groups[i]!.s1;
      this.outerStride2[i] = groups[i]!.s2;
    }
  }

  /**
   * Plans the broadcast of `dims1` with `dims2`. Returns a string describing the problem when the shapes
   * cannot be broadcast.
   */
  static create(dims1: ArrayLike<number>, dims2: ArrayLike<number>): BroadcastPlan | string {
    const rank = Math.max(dims1.length, dims2.length);
    const e1 = extendShape(dims1, rank);
    const e2 = extendShape(dims2, rank);
    const shape = new Int32Array(rank);
    let requiresBroadcast = false;
    for (let i = 0; i < rank; i++) {
      const a = e1[i]!;
      const b = e2[i]!;
      if (a === b) shape[i] = a;
      else if (a === 1) {
        shape[i] = b;
        requiresBroadcast = true;
      } else if (b === 1) {
        shape[i] = a;
        requiresBroadcast = true;
      } else
        return `shapes [${Array.from(dims1).join(',')}] and [${Array.from(dims2).join(',')}] cannot be broadcast (dimension ${i} of the right-aligned shapes: ${a} vs ${b})`;
    }
    // Contiguous strides of each input in elements, 0 where the input is broadcast.
    const groups: { size: number; s1: number; s2: number }[] = [];
    let stride1 = 1;
    let stride2 = 1;
    for (let i = rank - 1; i >= 0; i--) {
      const size = shape[i]!;
      const s1 = e1[i] === 1 ? 0 : stride1;
      const s2 = e2[i] === 1 ? 0 : stride2;
      stride1 *= e1[i]!;
      stride2 *= e2[i]!;
      if (size === 1) continue;
      const last = groups[groups.length - 1];
      if (last && s1 === last.s1 * last.size && s2 === last.s2 * last.size) last.size *= size;
      else groups.push({ size, s1, s2 });
    }
    return new BroadcastPlan(shape, requiresBroadcast, groups);
  }

  /** Rewinds to the first run. */
  reset(): void {
    this.off1 = 0;
    this.off2 = 0;
    this.offOut = 0;
    const c = this.counter;
    for (let i = 0; i < c.length; i++) c[i] = 0;
  }

  /** Moves to the next run. */
  next(): void {
    this.offOut += this.inner;
    const c = this.counter;
    const dims = this.outerDims;
    for (let d = 0; d < c.length; d++) {
      const s1 = this.outerStride1[d]!;
      const s2 = this.outerStride2[d]!;
      this.off1 += s1;
      this.off2 += s2;
      if (++c[d]! < dims[d]!) return;
      c[d] = 0;
      this.off1 -= s1 * dims[d]!;
      this.off2 -= s2 * dims[d]!;
    }
  }
}

/** Right-aligns `dims` to `rank` dimensions by prepending 1s (RuntimeShape::ExtendedShape). */
export function extendShape(dims: ArrayLike<number>, rank: number): Int32Array {
  const out = new Int32Array(rank).fill(1);
  const pad = rank - dims.length;
  for (let i = 0; i < dims.length; i++) out[pad + i] = dims[i]!;
  return out;
}

/**
 * Plans a binary elementwise op in prepare: checks that the inputs broadcast, that the output has the
 * broadcast shape (or, without broadcasting, the same element count, as TFLM's MatchingElementsSize) and
 * that broadcasting stays within `maxBroadcastRank` dimensions (TFLM's NdArrayDesc size for the op).
 */
export function planBinary(
  op: string,
  node: Node,
  input1: Tensor,
  input2: Tensor,
  output: Tensor,
  maxBroadcastRank: number,
): BroadcastPlan {
  const plan = BroadcastPlan.create(input1.dims, input2.dims);
  if (typeof plan === 'string')
    throw new KernelError(op, node.index, `input 1 (tensor ${input1.index}) and input 2 (tensor ${input2.index}): ${plan}`);
  const outCount = numElements(output.dims);
  if (plan.requiresBroadcast) {
    const rank = Math.max(plan.shape.length, output.dims.length);
    if (rank > maxBroadcastRank)
      throw new KernelError(op, node.index, `broadcasting supports at most ${maxBroadcastRank} dimensions, got rank ${rank}`);
    const a = extendShape(plan.shape, rank);
    const b = extendShape(output.dims, rank);
    for (let i = 0; i < rank; i++)
      if (a[i] !== b[i])
        throw new KernelError(
          op,
          node.index,
          `output (tensor ${output.index}) has shape [${output.dims.join(',')}], expected the broadcast shape [${plan.shape.join(',')}]`,
        );
  } else if (outCount !== plan.outputSize) {
    throw new KernelError(op, node.index, `output (tensor ${output.index}) has ${outCount} elements, inputs have ${plan.outputSize}`);
  }
  return plan;
}

/** The two inputs and the output of a binary op, after arity checks. */
export interface BinaryTensors {
  input1: Tensor;
  input2: Tensor;
  output: Tensor;
}

/** Checks that `node` has 2 inputs and 1 output and returns them. */
export function binaryTensors(op: string, context: TfLiteContext, node: Node): BinaryTensors {
  if (node.inputs.length !== 2) throw new KernelError(op, node.index, `expects 2 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(op, node.index, `expects 1 output, got ${node.outputs.length}`);
  const i1 = node.inputs[0]!;
  const i2 = node.inputs[1]!;
  const o = node.outputs[0]!;
  if (i1 < 0 || i2 < 0) throw new KernelError(op, node.index, 'an input is missing (index -1)');
  if (o < 0) throw new KernelError(op, node.index, 'the output is missing (index -1)');
  return { input1: context.getTensor(i1), input2: context.getTensor(i2), output: context.getTensor(o) };
}

/**
 * `binaryTensors` plus the type checks every binary elementwise kernel starts with: the output type is one
 * of `outputTypes`, input 2 has input 1's type and input 1 the output's.
 */
export function typedBinaryTensors(op: string, context: TfLiteContext, node: Node, outputTypes: readonly TensorType[]): BinaryTensors {
  const t = binaryTensors(op, context, node);
  requireType(op, node, t.output, 'output', outputTypes);
  requireSameType(op, node, t.input1, t.input2, 'inputs');
  requireSameType(op, node, t.input1, t.output, 'input 1 and output');
  return t;
}

/** Throws unless both inputs and the output are quantized (the int8/int16 paths of binary kernels). */
export function requireQuantizedBinary(op: string, node: Node, t: BinaryTensors): void {
  requireQuantized(op, node, t.input1, 'input 1');
  requireQuantized(op, node, t.input2, 'input 2');
  requireQuantized(op, node, t.output, 'output');
}

/** Throws when either input of a binary kernel is quantized (its int32 path; TFLM's kTfLiteNoQuantization). */
export function requireNotQuantizedInputs(op: string, node: Node, t: BinaryTensors): void {
  requireNotQuantized(op, node, t.input1, 'input 1');
  requireNotQuantized(op, node, t.input2, 'input 2');
}

/** The input and the output of a unary op, after arity checks. */
export interface UnaryTensors {
  input: Tensor;
  output: Tensor;
}

/** Checks that `node` has 1 input and 1 output and returns them. */
export function unaryTensors(op: string, context: TfLiteContext, node: Node): UnaryTensors {
  if (node.inputs.length !== 1) throw new KernelError(op, node.index, `expects 1 input, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(op, node.index, `expects 1 output, got ${node.outputs.length}`);
  const i = node.inputs[0]!;
  const o = node.outputs[0]!;
  if (i < 0) throw new KernelError(op, node.index, 'the input is missing (index -1)');
  if (o < 0) throw new KernelError(op, node.index, 'the output is missing (index -1)');
  return { input: context.getTensor(i), output: context.getTensor(o) };
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
