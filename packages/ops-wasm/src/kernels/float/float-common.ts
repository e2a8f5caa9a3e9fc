/**
 * Prepare-time helpers shared by the float32 kernels of ops-wasm: what `supports()` declines and which
 * tensors hold data fixed at prepare (weights); activation ranges and checks are kernel-support's. (Constant inputs are
 * copied into the arena with kernel-common's `constantInputCopies`: the kernels only address the
 * WebAssembly memory, where the model's constant buffers are not.)
 */
import { AllocationType, type ArenaRegion, type Node, type Tensor } from '@micrort/core';
import { FLOAT32_ONLY, declineTensorTypes } from '@micrort/kernel-support';
import { kernelsFor } from '../../wasm-arena.js';

/** The float32 exports of the kernels module (assembly/float/): byte offsets into the arena. */
export interface FloatKernelExports {
  f32_conv(params: number, input: number, output: number): void;
  f32_dwconv(params: number, input: number, output: number): void;
  f32_tconv(params: number, input: number, output: number): void;
  f32_binary(params: number, input1: number, input2: number, output: number): void;
  f32_clamp(params: number, input: number, output: number): void;
  f32_sigmoid(params: number, input: number, output: number): void;
  f32_tanh(params: number, input: number, output: number): void;
  f32_softmax(params: number, input: number, output: number): void;
  f32_hardswish(params: number, input: number, output: number): void;
  /** ABS, NEG, SQRT, RSQRT or SQUARE (U.Op) over U.Count floats. */
  f32_math(params: number, input: number, output: number): void;
  f32_maxpool(params: number, input: number, output: number): void;
  f32_avgpool(params: number, input: number, output: number): void;
  /** MEAN, SUM, REDUCE_MAX or REDUCE_MIN over the loops of parameter block RD (kernel-support's reduceLoops). */
  f32_reduce(params: number, input: number, output: number): void;
  f32_resize_bilinear(params: number, input: number, output: number): void;
  /** SVDF (the state updated in place; bias read only with SV.HasBias), before the fused activation. */
  f32_svdf(params: number, input: number, time: number, bias: number, state: number, output: number): void;
  f32_lstm_step(params: number, input: number, outputState: number, cellState: number, output: number): void;
}

/** The float32 kernels of the instance over the arena `region` lives in (null in arena `'auto'`'s measuring pass). */
export function floatKernelsFor(op: string, node: Node, region: ArenaRegion): FloatKernelExports | null {
  return kernelsFor(op, node, region) as unknown as FloatKernelExports | null;
}

/** Why a node whose `tensors` must all be float32 is declined (`"int8 tensor 3 (handles float32)"`), or null. */
export function declineNonFloat(tensors: readonly (Tensor | null)[]): string | null {
  return declineTensorTypes(tensors, FLOAT32_ONLY);
}

/**
 * Whether `t`'s data are fixed once prepare has run: a model constant, or a persistent output a kernel
 * computed in its prepare (float16 weights DEQUANTIZE folds), which is not a variable.
 */
export function hasFixedData(t: Tensor): boolean {
  return t.isConstant || (t.allocationType === AllocationType.ArenaRwPersistent && !t.isVariable);
}

/** Shape as text for errors. */
export function shapeText(t: Tensor): string {
  return `[${Array.from(t.dims).join(', ')}]`;
}
