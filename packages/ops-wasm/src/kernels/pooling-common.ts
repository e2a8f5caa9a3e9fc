/**
 * Shared prepare of the int8 pooling kernels: kernel-support's `calculateOpDataPooling` (TFLM
 * kernels/pooling_common.cc) written into the parameter block of assembly/int8/pool.ts.
 */
import { type Node, type TfLiteContext } from '@micrort/core';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies } from './kernel-common.js';
import { calculateOpDataPooling, declineArity, declineTypes, INT8_ONLY, type OpDataPooling } from '@micrort/kernel-support';

/** The parameter block: 14 int32 (TFLM's OpDataPooling is 32 bytes; this block is 64). */
export const POOL_PARAMS_BYTES = 64;

/** Op data of a pooling node. */
export interface PoolData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** Why an int8 pooling node is not handled, or true. */
export function supportsPool(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  return declineTypes(context, node, [0], INT8_ONLY) ?? true;
}

/**
 * Words 0..11 of the pooling parameter blocks (assembly/int8/pool.ts, assembly/float/pool.ts): batches,
 * input height, width, depth, output height, width, filter height, width, strides, padding.
 */
export function writePoolGeometry(p: Int32Array, d: OpDataPooling): void {
  p[0] = d.batches;
  p[1] = d.inHeight;
  p[2] = d.inWidth;
  p[3] = d.depth;
  p[4] = d.outHeight;
  p[5] = d.outWidth;
  p[6] = d.filterHeight;
  p[7] = d.filterWidth;
  p[8] = d.strideHeight;
  p[9] = d.strideWidth;
  p[10] = d.padding.height;
  p[11] = d.padding.width;
}

/** Validates the node and writes the parameter block; `op` names the op in errors. */
export function preparePool(op: string, context: TfLiteContext, node: Node): void {
  const data = node.userData as PoolData;
  const d = calculateOpDataPooling(op, context, node, INT8_ONLY);
  const region = context.allocatePersistentBuffer(POOL_PARAMS_BYTES);
  data.k = kernelsFor(op, node, region);
  writePoolGeometry(region.i32, d);
  region.i32[12] = d.actMin;
  region.i32[13] = d.actMax;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}
