/**
 * Prepare-time helpers shared by the float32 kernels of ops-wasm: what `supports()` declines, which
 * tensors hold data fixed at prepare (weights) and the fused activation's range. (Constant inputs are
 * copied into the arena with kernel-common's `constantInputCopies`: the kernels only address the
 * WebAssembly memory, where the model's constant buffers are not.)
 */
import {
  ActivationFunctionType,
  AllocationType,
  KernelError,
  TensorType,
  calculateActivationRangeFloat,
  tensorTypeName,
  type ArenaRegion,
  type Node,
  type Tensor,
} from '@micrort/core';
import { kernelsFor } from '../../wasm-arena.js';

/** The float32 exports of the kernels module (assembly/float/): byte offsets into the arena. */
export interface FloatKernelExports {
  f32_conv(params: number, input: number, output: number): void;
  f32_dwconv(params: number, input: number, output: number): void;
  f32_binary(params: number, input1: number, input2: number, output: number): void;
  f32_clamp(params: number, input: number, output: number): void;
  f32_sigmoid(params: number, input: number, output: number): void;
  f32_hardswish(params: number, input: number, output: number): void;
  f32_maxpool(params: number, input: number, output: number): void;
  f32_avgpool(params: number, input: number, output: number): void;
  f32_mean_hw(params: number, input: number, output: number): void;
  f32_resize_bilinear(params: number, input: number, output: number): void;
}

/** The float32 kernels of the instance over the arena `region` lives in (null in arena `'auto'`'s measuring pass). */
export function floatKernelsFor(op: string, node: Node, region: ArenaRegion): FloatKernelExports | null {
  return kernelsFor(op, node, region) as unknown as FloatKernelExports | null;
}

/** Why a node whose `tensors` must all be float32 is declined, or null. */
export function declineNonFloat(tensors: readonly (Tensor | null)[]): string | null {
  for (const t of tensors) if (t && t.type !== TensorType.FLOAT32) return `${tensorTypeName(t.type)} tensor ${t.index} (handles float32)`;
  return null;
}

/**
 * Whether `t`'s data are fixed once prepare has run: a model constant, or a persistent output a kernel
 * computed in its prepare (float16 weights DEQUANTIZE folds), which is not a variable.
 */
export function hasFixedData(t: Tensor): boolean {
  return t.isConstant || (t.allocationType === AllocationType.ArenaRwPersistent && !t.isVariable);
}

/** Whether a fused activation is one the float kernels clamp to (TFLite's CalculateActivationRange). */
export function isClampActivation(a: ActivationFunctionType): boolean {
  return (
    a === ActivationFunctionType.NONE ||
    a === ActivationFunctionType.RELU ||
    a === ActivationFunctionType.RELU6 ||
    a === ActivationFunctionType.RELU_N1_TO_1
  );
}

/** The clamp of a fused activation; throws KernelError for one that is not a clamp. */
export function floatActivationRange(op: string, node: Node, a: ActivationFunctionType): [number, number] {
  if (!isClampActivation(a)) throw new KernelError(op, node.index, `unsupported fused activation ${ActivationFunctionType[a] ?? a}`);
  return calculateActivationRangeFloat(a);
}

/** Throws unless `t` has rank `rank`. */
export function expectRankF(op: string, node: Node, what: string, t: Tensor, rank: number): void {
  if (t.dims.length !== rank)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) must have rank ${rank}, got shape [${Array.from(t.dims).join(', ')}]`,
    );
}

/** Shape as text for errors. */
export function shapeText(t: Tensor): string {
  return `[${Array.from(t.dims).join(', ')}]`;
}
