/**
 * Shared prepare of the int8 and TFLite uint8 pooling kernels: kernel-support's `calculateOpDataPooling`
 * (TFLM kernels/pooling_common.cc) written into the parameter block of assembly/int8/pool.ts.
 */
import { TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { FP, Q, Q_BYTES } from '../generated/abi.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, INT8_OR_UINT8 } from './kernel-common.js';
import { calculateOpDataPooling, declineArity, declineTypes, type OpDataPooling } from '@micrort/kernel-support';

/** The parameter block Q (scripts/abi.mjs); TFLM's OpDataPooling is 32 bytes. */
export const POOL_PARAMS_BYTES = Q_BYTES;

/** Op data of a pooling node. */
export interface PoolData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** Why a pooling node is not handled (int8 and TFLite's uint8, output of the input's type), or true. */
export function supportsPool(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  return declineTypes(context, node, [0], INT8_OR_UINT8, [input.type]) ?? true;
}

/**
 * The geometry words of the pooling parameter blocks Q (assembly/int8/pool.ts) and FP
 * (assembly/float/pool.ts), which scripts/abi.mjs lays out alike: batches, input height, width, depth,
 * output height, width, filter height, width, strides, padding.
 */
export function writePoolGeometry(p: Int32Array, d: OpDataPooling, B: typeof Q | typeof FP = Q): void {
  p[B.Batches] = d.batches;
  p[B.InH] = d.inHeight;
  p[B.InW] = d.inWidth;
  p[B.C] = d.depth;
  p[B.OutH] = d.outHeight;
  p[B.OutW] = d.outWidth;
  p[B.FH] = d.filterHeight;
  p[B.FW] = d.filterWidth;
  p[B.SH] = d.strideHeight;
  p[B.SW] = d.strideWidth;
  p[B.PadH] = d.padding.height;
  p[B.PadW] = d.padding.width;
}

/** Validates the node and writes the parameter block; `op` names the op in errors. */
export function preparePool(op: string, context: TfLiteContext, node: Node): void {
  const data = node.userData as PoolData;
  const d = calculateOpDataPooling(op, context, node, INT8_OR_UINT8);
  const region = context.allocatePersistentBuffer(POOL_PARAMS_BYTES);
  data.k = kernelsFor(op, node, region);
  writePoolGeometry(region.i32, d, Q);
  region.i32[Q.ActMin] = d.actMin;
  region.i32[Q.ActMax] = d.actMax;
  region.i32[Q.U8] = context.getTensor(node.inputs[0]!).type === TensorType.UINT8 ? 1 : 0;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}
