/**
 * What `supports()` answers when a kernel declines a node: a short reason, the same wording in every
 * kernel package, shown by `micrort check` and the conformance tables — `"uint8 input (handles int8)"`,
 * `"3 inputs, 1 output (handles 2 inputs, 1 output)"`, `"filter is not a constant (weights are packed at
 * prepare)"`. Each helper returns `null` when the node passes, so they chain with `??`:
 *
 * ```ts
 * supports: (context, node) =>
 *   declineArity(node, [2, 3], 1) ?? declineTypes(context, node, [0, 1], INT8, 'output', INT8) ?? true,
 * ```
 *
 * A helper that sees a malformed node (a missing input) lets it through (`null`), so that prepare
 * reports the precise problem as a `KernelError`.
 */
import { ActivationFunctionType, TensorType, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { calculateActivationRangeQuantized, fusedActivation, isClampActivation, typeRange } from './activation.js';
import { typeList } from './checks.js';

/** `"uint8 input (handles int8)"`: the one wording for a tensor type a kernel does not take. */
export function typeReason(what: string, type: TensorType, handled: readonly TensorType[]): string {
  return `${tensorTypeName(type)} ${what} (handles ${typeList(handled)})`;
}

/** `null` when the node has `inputs` (a count, or [min, max] with max possibly Infinity) and `outputs` tensors, else the reason. */
export function declineArity(node: Node, inputs: number | readonly [number, number], outputs: number): string | null {
  const [lo, hi] = typeof inputs === 'number' ? [inputs, inputs] : inputs;
  if (node.inputs.length >= lo && node.inputs.length <= hi && node.outputs.length === outputs) return null;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const want = lo === hi ? plural(lo, 'input') : hi === Infinity ? `at least ${plural(lo, 'input')}` : `${lo}-${hi} inputs`;
  return `${plural(node.inputs.length, 'input')}, ${plural(node.outputs.length, 'output')} (handles ${want}, ${plural(outputs, 'output')})`;
}

/** `null` when `t`'s type is one of `handled`, else `typeReason`. */
export function declineType(what: string, t: Tensor, handled: readonly TensorType[]): string | null {
  return handled.includes(t.type) ? null : typeReason(what, t.type, handled);
}

/**
 * `null` when every input at `positions` has a type of `inputTypes` and output 0 one of `outputTypes`
 * (default: the input types), else the reason naming the first tensor that does not (`input`, `input 2`,
 * `output`). Inputs and outputs that are omitted are let through.
 */
export function declineTypes(
  context: TfLiteContext,
  node: Node,
  positions: readonly number[],
  inputTypes: readonly TensorType[],
  outputTypes: readonly TensorType[] = inputTypes,
): string | null {
  for (const pos of positions) {
    const index = node.inputs[pos];
    if (index === undefined || index < 0) continue;
    const why = declineType(positions.length > 1 ? `input ${pos + 1}` : 'input', context.getTensor(index), inputTypes);
    if (why !== null) return why;
  }
  const out = node.outputs[0];
  if (out === undefined || out < 0) return null;
  return declineType('output', context.getTensor(out), outputTypes);
}

/**
 * The `supports()` answer of a kernel that handles `types` for the tensor at input `position`: `true`,
 * or `"int16 input (handles float32, int8)"`.
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
  return declineType(what, context.getTensor(index), types) ?? true;
}

/** `null` when input `position` is a constant tensor (weights a kernel packs at prepare), else the reason. */
export function declineNotConstant(context: TfLiteContext, node: Node, position: number, what: string, why: string): string | null {
  const index = node.inputs[position];
  if (index === undefined || index < 0) return null;
  return context.getTensor(index).isConstant ? null : `${what} is not a constant (${why})`;
}

/** `null` when `t` has no zero point other than 0 (symmetric weights), else the reason. */
export function declineAsymmetric(what: string, t: Tensor): string | null {
  const zp = t.quantization?.zeroPoint;
  if (zp) for (let i = 0; i < zp.length; i++) if (zp[i] !== 0) return `${what} zero point ${zp[i]} (handles symmetric weights)`;
  return null;
}

/** `null` for a fused activation TFLM's kernels clamp to (NONE, RELU, RELU6, RELU_N1_TO_1), else the reason. */
export function declineActivation(activation: ActivationFunctionType): string | null {
  return isClampActivation(activation)
    ? null
    : `fused activation ${ActivationFunctionType[activation] ?? activation} (handles NONE, RELU, RELU6, RELU_N1_TO_1)`;
}

/** `null` when every tensor given is of a type in `handled`, else `"int8 tensor 3 (handles float32)"` for the first that is not. */
export function declineTensorTypes(tensors: readonly (Tensor | null)[], handled: readonly TensorType[]): string | null {
  for (const t of tensors) if (t && !handled.includes(t.type)) return typeReason(`tensor ${t.index}`, t.type, handled);
  return null;
}

const NARROW_INTEGER: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8, TensorType.INT16];

/**
 * `null` when every int8, uint8 and int16 input and output of `node` has its zero points (each channel's)
 * within its type's range and the node's fused clamp activation (`fusedActivationFunction` of its
 * options) leaves a non-empty range at output 0's scale; else the reason — `"output (tensor 2) zero
 * point 255 outside int8 [-128, 127]"`, `"fused RELU6 range [0, -60] at output (tensor 2) scale -0.1,
 * zero point 0 is empty"`. TFLM never checks zero points against the type and runs such nodes (its
 * clamp then gives act_max); a kernel that sizes tables, packs values into narrow lanes or fits
 * coefficients from the zero points and activation bounds declines them, and the reference kernels
 * serve them.
 */
export function declineQuantizationRange(context: TfLiteContext, node: Node): string | null {
  const check = (index: number | undefined, what: string): string | null => {
    if (index === undefined || index < 0) return null;
    const t = context.getTensor(index);
    if (!NARROW_INTEGER.includes(t.type)) return null;
    const [lo, hi] = typeRange(t.type);
    const zps = t.quantization?.zeroPoint;
    const n = zps ? zps.length : 0;
    for (let i = -1; i < n; i++) {
      const zp = i < 0 ? t.params.zeroPoint : zps![i]!;
      if (!(zp >= lo && zp <= hi)) return `${what} (tensor ${index}) zero point ${zp} outside ${tensorTypeName(t.type)} [${lo}, ${hi}]`;
    }
    return null;
  };
  for (let i = 0; i < node.inputs.length; i++) {
    const why = check(node.inputs[i], node.inputs.length > 1 ? `input ${i + 1}` : 'input');
    if (why) return why;
  }
  for (let i = 0; i < node.outputs.length; i++) {
    const why = check(node.outputs[i], node.outputs.length > 1 ? `output ${i + 1}` : 'output');
    if (why) return why;
  }
  const activation = fusedActivation(node);
  const out = node.outputs[0];
  if (activation === ActivationFunctionType.NONE || !isClampActivation(activation) || out === undefined || out < 0) return null;
  const t = context.getTensor(out);
  if (!NARROW_INTEGER.includes(t.type)) return null;
  const [lo, hi] = calculateActivationRangeQuantized(activation, t);
  if (lo <= hi) return null;
  return `fused ${ActivationFunctionType[activation]} range [${lo}, ${hi}] at output (tensor ${out}) scale ${t.params.scale}, zero point ${t.params.zeroPoint} is empty`;
}

/** The types of int8 kernels, for `declineTypes`. */
export const INT8_ONLY: readonly TensorType[] = [TensorType.INT8];
/** float32 kernels. */
export const FLOAT32_ONLY: readonly TensorType[] = [TensorType.FLOAT32];
