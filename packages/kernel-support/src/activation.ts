/**
 * Fused-activation ranges, as TFLite's `kernels/kernel_util.h` (CalculateActivationRange<float> and
 * <int32_t>, CalculateActivationRangeQuantized) which every TFLM kernel with a fused activation uses:
 * the bounds an output is clamped to after the op's arithmetic.
 *
 * The plain functions follow TFLite to the letter (an open side is the type's limit: float's lowest()
 * and max(), not infinities). The `op, node` variants are what a kernel's prepare calls: they refuse the
 * activations no TFLM kernel fuses (TANH, SIGN_BIT) with a `KernelError`.
 */
import { ActivationFunctionType, KernelError, TensorType, tensorTypeName, type Node, type Tensor } from '@micrort/core';
import { OptionError } from './checks.js';

/** Largest finite float32 (std::numeric_limits<float>::max()). */
export const FLT_MAX = 3.4028234663852886e38;
/** std::numeric_limits<int32_t>::min(). */
export const INT32_MIN = -2147483648;
/** std::numeric_limits<int32_t>::max(). */
export const INT32_MAX = 2147483647;

/** Range of an integer tensor type: int8 [-128, 127], uint8, int16, int32. RangeError for other types. */
export function typeRange(type: TensorType): [number, number] {
  switch (type) {
    case TensorType.INT8:
      return [-128, 127];
    case TensorType.UINT8:
      return [0, 255];
    case TensorType.INT16:
      return [-32768, 32767];
    case TensorType.INT32:
      return [INT32_MIN, INT32_MAX];
    default:
      throw new RangeError(`typeRange: ${tensorTypeName(type)} is not an integer type`);
  }
}

/**
 * TFLite CalculateActivationRange<float>: RELU [0, max], RELU6 [0, 6], RELU_N1_TO_1 [-1, 1], anything
 * else [lowest, max] — so an overflowed ±inf result is clamped to ±FLT_MAX as in C++.
 */
export function calculateActivationRangeFloat(activation: ActivationFunctionType): [number, number] {
  switch (activation) {
    case ActivationFunctionType.RELU:
      return [0, FLT_MAX];
    case ActivationFunctionType.RELU6:
      return [0, 6];
    case ActivationFunctionType.RELU_N1_TO_1:
      return [-1, 1];
    default:
      return [-FLT_MAX, FLT_MAX];
  }
}

/** TFLite CalculateActivationRange<int32_t>: as the float one with int32's limits. */
export function calculateActivationRangeInt32(activation: ActivationFunctionType): [number, number] {
  switch (activation) {
    case ActivationFunctionType.RELU:
      return [0, INT32_MAX];
    case ActivationFunctionType.RELU6:
      return [0, 6];
    case ActivationFunctionType.RELU_N1_TO_1:
      return [-1, 1];
    default:
      return [INT32_MIN, INT32_MAX];
  }
}

function roundAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * TFLite CalculateActivationRangeQuantized: the fused activation's range in the output's quantized
 * domain (TfLiteRound(x / scale) + zero_point, the division in float), intersected with the output
 * type's range. RangeError for TANH / SIGN_BIT (TFLite returns kTfLiteError) and non-integer outputs.
 */
export function calculateActivationRangeQuantized(activation: ActivationFunctionType, output: Tensor): [number, number] {
  const [qmin, qmax] = typeRange(output.type);
  const scale = output.params.scale;
  const zp = output.params.zeroPoint;
  const q = (f: number) => zp + roundAwayFromZero(Math.fround(f / scale));
  switch (activation) {
    case ActivationFunctionType.RELU:
      return [Math.max(qmin, q(0)), qmax];
    case ActivationFunctionType.RELU6:
      return [Math.max(qmin, q(0)), Math.min(qmax, q(6))];
    case ActivationFunctionType.RELU_N1_TO_1:
      return [Math.max(qmin, q(-1)), Math.min(qmax, q(1))];
    case ActivationFunctionType.NONE:
      return [qmin, qmax];
    default:
      throw new RangeError(`unsupported fused activation ${ActivationFunctionType[activation] ?? activation}`);
  }
}

/** Whether TFLM's kernels fuse `activation`: NONE, RELU, RELU6, RELU_N1_TO_1 (a clamp). */
export function isClampActivation(activation: ActivationFunctionType): boolean {
  return (
    activation === ActivationFunctionType.NONE ||
    activation === ActivationFunctionType.RELU ||
    activation === ActivationFunctionType.RELU6 ||
    activation === ActivationFunctionType.RELU_N1_TO_1
  );
}

/** Throws an `OptionError` unless `activation` is one `isClampActivation` accepts. */
export function expectClampActivation(op: string, node: Node, activation: ActivationFunctionType): void {
  if (!isClampActivation(activation))
    throw new OptionError(
      op,
      node.index,
      'fused_activation_function',
      activation,
      `unsupported fused activation ${ActivationFunctionType[activation] ?? activation}`,
    );
}

/** The fused activation of a node's builtin options (`fusedActivationFunction`), NONE when it has none. */
export function fusedActivation(node: Node): ActivationFunctionType {
  const opts = node.builtinData as { fusedActivationFunction?: ActivationFunctionType } | null;
  return opts?.fusedActivationFunction ?? ActivationFunctionType.NONE;
}

/** `calculateActivationRangeFloat` for a kernel's prepare: TANH / SIGN_BIT are a `KernelError`. */
export function activationRangeFloat(op: string, node: Node, activation: ActivationFunctionType): [number, number] {
  expectClampActivation(op, node, activation);
  return calculateActivationRangeFloat(activation);
}

/** `calculateActivationRangeInt32` for a kernel's prepare: TANH / SIGN_BIT are a `KernelError`. */
export function activationRangeInt32(op: string, node: Node, activation: ActivationFunctionType): [number, number] {
  expectClampActivation(op, node, activation);
  return calculateActivationRangeInt32(activation);
}

/** `calculateActivationRangeQuantized` for a kernel's prepare: any refusal is a `KernelError`. */
export function activationRangeQuantized(op: string, node: Node, activation: ActivationFunctionType, output: Tensor): [number, number] {
  expectClampActivation(op, node, activation);
  try {
    return calculateActivationRangeQuantized(activation, output);
  } catch (e) {
    if (e instanceof RangeError) throw new KernelError(op, node.index, e.message);
    throw e;
  }
}
