/**
 * DEPTH_TO_SPACE and SPACE_TO_DEPTH in WebAssembly: each is one transpose of a 6-D view of its input
 * (kernel-support's blockRearrangeDims and BLOCK_REARRANGE_PERM), so both run on TRANSPOSE's
 * transpose_bytes (assembly/layout/transpose.ts) with the parameter block prepareTransposeBytes writes.
 * Only bytes move, so every type kernel-support's prepareBlockRearrange accepts (float32, int8, uint8,
 * int32, int64) is exact; the node checks and the output shape are kernel-support's, as in ops-reference.
 */
import { elementSize, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import {
  BLOCK_REARRANGE_PERM,
  BLOCK_REARRANGE_TYPES,
  blockRearrangeDims,
  declineArity,
  declineType,
  prepareBlockRearrange,
  type BlockRearrangeKind,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { prepareTransposeBytes } from './transpose.js';

interface BlockRearrangeData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** The registration of DEPTH_TO_SPACE (`kind` 'depthToSpace') or SPACE_TO_DEPTH. */
export function createBlockRearrange(op: string, builtinCode: number, kind: BlockRearrangeKind): Registration<BlockRearrangeData> {
  return {
    builtinCode,
    version: 2,
    provider: PROVIDER,
    name: `${op}/wasm-bytes`,
    supports: (context: TfLiteContext, node: Node): true | string =>
      declineArity(node, 1, 1) ?? declineType('input', context.getTensor(node.inputs[0]!), BLOCK_REARRANGE_TYPES) ?? true,
    init: (): BlockRearrangeData => ({ k: null, params: 0, fixed: -1 }),
    prepare(context: TfLiteContext, node: Node): void {
      const data = node.userData as BlockRearrangeData;
      const g = prepareBlockRearrange(op, kind, context, node);
      const t = prepareTransposeBytes(op, context, node, blockRearrangeDims(g), BLOCK_REARRANGE_PERM, elementSize(g.input.type)!);
      data.k = t.k;
      data.params = t.params;
      data.fixed = constantInputCopies(context, node, [0])[0]!;
    },
    invoke(context: TfLiteContext, node: Node): void {
      const data = node.userData as BlockRearrangeData;
      data.k!.transpose_bytes(
        data.params,
        inputOffset(context, node, 0, data.fixed),
        context.getEvalTensor(node.outputs[0]!).data.byteOffset,
      );
    },
  };
}
