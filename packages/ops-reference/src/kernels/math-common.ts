/**
 * Shared pieces of the math, comparison, logic and reduction kernels (ADD_N ... SUM, see
 * registrations/math.ts): TFLM's op-data sizes for them, `supports()` answers for the (op, type) pairs
 * TFLM refuses, the shape checks TFLM's prepares repeat, and the float unary kernel builder.
 */
import {
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  quantizeMultiplierSmallerThanOneExp,
  sameShape,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { unaryKernel, type UnaryOpData } from './unary-common.js';

/**
 * Bytes of the structs TFLM allocates with AllocatePersistentBuffer for these kernels (x86-64 layout,
 * sizeof as the compiler lays them out), so micrort's arena figures match TFLM's.
 */
export const MATH_OP_DATA_BYTES = {
  /** ADD_N OpData (int8 only): 10 int32 (activation min/max, offsets, multipliers, shifts, left shift, scratch index). */
  ADD_N: 40,
  /** CUMSUM OpData (int8 only): 9 int32. */
  CUMSUM: 36,
  /** ComparisonParams: 7 int32 + bool is_broadcast, padded to 4. */
  COMPARISON: 32,
  /** OpDataAbsRsqrt: multiplier, shift, input/output offsets, bool, two enums. */
  RSQRT: 28,
  /** squared_difference OpData: bool requires_broadcast + ArithmeticParams (104 bytes, 8-aligned for its int64 fields). */
  SQUARED_DIFFERENCE: 112,
  /** ELU OpData: int8 table[256]. */
  ELU: 256,
  /** HardSwishParams: 3 int16, int, int16, int (2-byte padding twice). */
  HARD_SWISH: 20,
  /** PreluParams: 7 int32. */
  PRELU: 28,
  /** L2NormalizationParams: int32 input_zero_point. */
  L2_NORMALIZATION: 4,
  /** LogSoftmaxOpData (int8 only): 5 int32, then two size_t (8-aligned). */
  LOG_SOFTMAX: 40,
  /** select OpData: two bools. */
  SELECT_V2: 2,
  /** OpDataBatchMatmul: three pointers and three bools. */
  BATCH_MATMUL: 32,
  /** QuantizationOpDataBatchMatmul (int8/int16 only): 7 int32. */
  BATCH_MATMUL_QUANTIZATION: 28,
  /** TfLiteEvalTensor (data pointer, dims pointer, type), for BATCH_MATMUL's transposed operands. */
  EVAL_TENSOR: 24,
} as const;

/**
 * Word offsets in the int8 OpData of ADD_N and CUMSUM (add_n.cc, cumsum.cc): both start with the same
 * nine int32 of TFLM's 8-bit add path (ADD_N's then holds its scratch index).
 */
export enum EightBitAddWord {
  ActivationMin = 0,
  ActivationMax = 1,
  InputOffset = 2,
  OutputOffset = 3,
  InputMultiplier = 4,
  OutputMultiplier = 5,
  InputShift = 6,
  OutputShift = 7,
  LeftShift = 8,
}

/**
 * Fills the EightBitAddWord words of ADD_N's / CUMSUM's int8 OpData as their prepares do (the 8-bit add
 * path with every input in `input`'s quantization): input multiplier scale / (2 * scale) and output
 * multiplier 2 * scale / (2^leftShift * output scale), both QuantizeMultiplierSmallerThanOneExp; input
 * offset -zero point, output offset the output zero point; activation range [-128, 127].
 */
export function fillEightBitAddOpData(op: string, node: Node, p: Int32Array, input: Tensor, output: Tensor, leftShift: number): void {
  const twiceMaxInputScale = 2 * input.params.scale;
  const inputMultiplier = checkedQuantizeMultiplier(
    op,
    node,
    input.params.scale / twiceMaxInputScale,
    'input multiplier',
    quantizeMultiplierSmallerThanOneExp,
  );
  const outputMultiplier = checkedQuantizeMultiplier(
    op,
    node,
    twiceMaxInputScale / (2 ** leftShift * output.params.scale),
    'output multiplier',
    quantizeMultiplierSmallerThanOneExp,
  );
  p[EightBitAddWord.ActivationMin] = -128;
  p[EightBitAddWord.ActivationMax] = 127;
  p[EightBitAddWord.InputOffset] = -input.params.zeroPoint;
  p[EightBitAddWord.OutputOffset] = output.params.zeroPoint;
  p[EightBitAddWord.InputMultiplier] = inputMultiplier.multiplier;
  p[EightBitAddWord.InputShift] = inputMultiplier.shift;
  p[EightBitAddWord.OutputMultiplier] = outputMultiplier.multiplier;
  p[EightBitAddWord.OutputShift] = outputMultiplier.shift;
  p[EightBitAddWord.LeftShift] = leftShift;
}

/** Bytes of a TfLiteIntArray of `rank` dims (TfLiteIntArrayGetSizeInBytes: int size + int data[rank]). */
export function intArrayBytes(rank: number): number {
  return 4 + 4 * rank;
}

/** The int range of an int8 or int16 tensor type. */
export function intRange(type: TensorType): [number, number] {
  return type === TensorType.INT8 ? [-128, 127] : [-32768, 32767];
}

/** Comma-separated type names, for messages ("float32, int8"). */
export function typeList(types: readonly TensorType[]): string {
  return types.map(tensorTypeName).join(', ');
}

/**
 * The `supports()` answer for a kernel that handles `types` for the tensor at input `position`: `true`,
 * or a reason such as `"int16 input (handles float32, int8)"`. Malformed nodes (missing input) are
 * accepted so that prepare reports the precise problem.
 */
export function supportsInputTypes(
  context: TfLiteContext,
  node: Node,
  types: readonly TensorType[],
  position = 0,
  what = 'input',
): true | string {
  const index = node.inputs[position];
  if (index === undefined || index < 0) return true;
  const type = context.getTensor(index).type;
  return types.includes(type) ? true : `${tensorTypeName(type)} ${what} (handles ${typeList(types)})`;
}

/** Throws unless `tensor`'s type is one of `types`, naming the type and what the kernel handles (TFLM refuses these too). */
export function requireHandledType(op: string, node: Node, tensor: Tensor, what: string, types: readonly TensorType[]): void {
  if (!types.includes(tensor.type))
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${tensor.index}) has type ${tensorTypeName(tensor.type)}; ${op} handles ${typeList(types)}`,
    );
}

/** Throws unless input and output have identical dims (TFLM's per-dimension TF_LITE_ENSURE_EQ / HaveSameShapes). */
export function requireSameShape(op: string, node: Node, input: Tensor, output: Tensor): void {
  if (!sameShape(input.dims, output.dims))
    throw new KernelError(
      op,
      node.index,
      `output (tensor ${output.index}) shape [${output.dims.join(',')}] differs from input (tensor ${input.index}) shape [${input.dims.join(',')}]`,
    );
}

/** Throws unless the tensor has at most `max` dimensions. */
export function requireMaxRank(op: string, node: Node, tensor: Tensor, what: string, max: number): void {
  if (tensor.dims.length > max)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${tensor.index}) has ${tensor.dims.length} dimensions, at most ${max} are supported`,
    );
}

const FLOAT32: readonly TensorType[] = [TensorType.FLOAT32];

/** What a float32-only unary kernel (CEIL, FLOOR, ROUND, EXP, LOG, SQRT, SQUARE, NEG) supplies. */
export interface FloatUnarySpec {
  name: string;
  builtinCode: number;
  version: number;
  /** TFLM also requires identical input and output dims (EXP, CEIL, ROUND), not only the element count. */
  sameShape?: boolean;
  /** y[i] = f(x[i]) for i < count; x and y may be the same array (in place). */
  run(x: Float32Array, y: Float32Array, count: number): void;
}

/**
 * The registration of a float32-only elementwise kernel: unary-common's shared prepare (arity, float32,
 * same element count) plus `supports()` declining other types, an optional same-shape check, and an
 * invoke that hands the two float views to `spec.run`. No op data in the arena (TFLM allocates none).
 */
export function floatUnaryKernel(spec: FloatUnarySpec): Registration<UnaryOpData> {
  const { name, run } = spec;
  const base = unaryKernel<UnaryOpData>({
    name,
    builtinCode: spec.builtinCode,
    version: spec.version,
    types: FLOAT32,
    init: () => ({ count: 0 }),
    prepare: spec.sameShape ? (_context, node, _data, input, output) => requireSameShape(name, node, input, output) : undefined,
    invoke(context: TfLiteContext, node: Node): void {
      const d = node.userData as UnaryOpData;
      run(
        context.getEvalTensor(node.inputs[0]!).data as Float32Array,
        context.getEvalTensor(node.outputs[0]!).data as Float32Array,
        d.count,
      );
    },
  });
  return { ...base, supports: (context, node) => supportsInputTypes(context, node, FLOAT32) };
}
