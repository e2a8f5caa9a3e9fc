/**
 * Shared pieces of the math, comparison, logic and reduction kernels (ADD_N ... SUM, see
 * registrations/math.ts): TFLM's op-data sizes for them, `supports()` answers for the (op, type) pairs
 * TFLM refuses, the shape checks TFLM's prepares repeat, and the float unary kernel builder.
 */
import { KernelError, TensorType, sameShape, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { unaryKernel, type UnaryOpData } from './unary-common.js';
import { opData, quantizedAddParams, supportsInputTypes } from '@micrort/kernel-support';

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
  const s = input.params.scale;
  let q;
  try {
    // CalculateOpDataAdd's rescaling with both inputs in `input`'s quantization (left shift 20 for int8)
    q = quantizedAddParams(
      {
        input1Scale: s,
        input1ZeroPoint: input.params.zeroPoint,
        input2Scale: s,
        input2ZeroPoint: input.params.zeroPoint,
        outputScale: output.params.scale,
        outputZeroPoint: output.params.zeroPoint,
      },
      leftShift === 15,
    );
  } catch (e) {
    if (e instanceof RangeError) throw new KernelError(op, node.index, `cannot rescale: ${e.message}`);
    throw e;
  }
  p[EightBitAddWord.ActivationMin] = -128;
  p[EightBitAddWord.ActivationMax] = 127;
  p[EightBitAddWord.InputOffset] = q.input1Offset;
  p[EightBitAddWord.OutputOffset] = q.outputOffset;
  p[EightBitAddWord.InputMultiplier] = q.input1Multiplier;
  p[EightBitAddWord.InputShift] = q.input1Shift;
  p[EightBitAddWord.OutputMultiplier] = q.outputMultiplier;
  p[EightBitAddWord.OutputShift] = q.outputShift;
  p[EightBitAddWord.LeftShift] = q.leftShift;
}

/** Bytes of a TfLiteIntArray of `rank` dims (TfLiteIntArrayGetSizeInBytes: int size + int data[rank]). */
export function intArrayBytes(rank: number): number {
  return 4 + 4 * rank;
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
    readsActualDims: true,
    name,
    builtinCode: spec.builtinCode,
    version: spec.version,
    types: FLOAT32,
    init: () => ({ count: 0 }),
    prepare: spec.sameShape ? (_context, node, _data, input, output) => requireSameShape(name, node, input, output) : undefined,
    invoke(context: TfLiteContext, node: Node): void {
      const d = opData<UnaryOpData>(name, node);
      run(
        context.getEvalTensor(node.inputs[0]!).data as Float32Array,
        context.getEvalTensor(node.outputs[0]!).data as Float32Array,
        d.count,
      );
    },
  });
  return { ...base, supports: (context, node) => supportsInputTypes(context, node, FLOAT32) };
}
