/**
 * Shared prepare of the int8 pooling kernels: kernel-support's `calculateOpDataPooling` (TFLM
 * kernels/pooling_common.cc) written into the parameter block of assembly/int8/pool.ts.
 */
import { type Node, type TfLiteContext } from '@micrort/core';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies } from './kernel-common.js';
import { calculateOpDataPooling, declineArity, declineTypes, INT8_ONLY } from '@micrort/kernel-support';

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

/** Validates the node and writes the parameter block; `op` names the op in errors. */
export function preparePool(op: string, context: TfLiteContext, node: Node): void {
  const data = node.userData as PoolData;
  const d = calculateOpDataPooling(op, context, node, INT8_ONLY);
  const region = context.allocatePersistentBuffer(POOL_PARAMS_BYTES);
  data.k = kernelsFor(op, node, region);
  region.i32.set([
    d.batches,
    d.inHeight,
    d.inWidth,
    d.depth,
    d.outHeight,
    d.outWidth,
    d.filterHeight,
    d.filterWidth,
    d.strideHeight,
    d.strideWidth,
    d.padding.height,
    d.padding.width,
    d.actMin,
    d.actMax,
  ]);
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}
