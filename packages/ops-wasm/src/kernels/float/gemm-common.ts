/**
 * What CONV_2D and FULLY_CONNECTED (float32) share: the parameter block of f32_conv
 * (assembly/float/gemm.ts), the packed weights, and the invoke that repacks weights that are not fixed
 * at prepare before calling the kernel.
 */
import { KernelError, type ArenaRegion, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { G, G_BYTES } from '../../generated/abi.js';
import { Fn } from '../../threads/control.js';
import type { JobExports } from '../../threads/pool.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { threadScratchOffset, type Parallel, type ThreadScratch } from '../parallel.js';
import { floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';
import { gemmPackedFloats, packGemmF32 } from './weight-pack-f32.js';

/** Words of f32_conv's parameter block (G in scripts/abi.mjs). */
export { G };

/** Bytes of the parameter block. */
export const GEMM_PARAMS_BYTES = G_BYTES;

/** Op data of a float GEMM node. */
export interface GemmData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
  packed: Float32Array;
  /** Weights or bias not fixed at prepare: packed again before every invoke. */
  dynamic: boolean;
  outC: number;
  K: number;
  /** Output pixels (GEMM rows). */
  total: number;
  /** The pool's share when the rows are split across threads (CONV_2D), else null. */
  par: Parallel | null;
  /** Sparse layers: the per-thread scratch of the transposed input blocks (bound into G.SparseScratch at invoke), else null. */
  sparseScratch: ThreadScratch | null;
  /** Convolutions with gathered rows: the per-thread scratch of the rows (bound into G.Rows at invoke), else null. */
  rows: ThreadScratch | null;
  /** The parameter block's words (bound at invoke for sparse layers). */
  words: Int32Array;
}

export function initGemmData(): GemmData {
  return {
    k: null,
    params: 0,
    input: -1,
    packed: new Float32Array(0),
    dynamic: false,
    outC: 0,
    K: 0,
    total: 0,
    par: null,
    sparseScratch: null,
    rows: null,
    words: new Int32Array(0),
  };
}

/**
 * Allocates the parameter block and the packed weights (packing them now when filter and bias are fixed)
 * and returns the parameter words to fill. `filter` holds `outC` rows of `K` floats. With `dense` false
 * (the caller packs sparse weights, which must be fixed), no dense packing is allocated.
 */
export function prepareGemm(
  op: string,
  context: TfLiteContext,
  node: Node,
  filter: Tensor,
  bias: Tensor | null,
  outC: number,
  K: number,
  actMin: number,
  actMax: number,
  dense = true,
): { p: Int32Array; region: ArenaRegion } {
  const data = node.userData as GemmData;
  const region = context.allocatePersistentBuffer(GEMM_PARAMS_BYTES);
  data.k = floatKernelsFor(op, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  const packed = dense ? context.allocatePersistentBuffer(gemmPackedFloats(outC, K) * 4) : null;
  data.packed = packed ? packed.f32 : new Float32Array(0);
  data.outC = outC;
  data.K = K;
  data.dynamic = !hasFixedData(filter) || (bias !== null && !hasFixedData(bias));
  if (!dense && data.dynamic) throw new KernelError(op, node.index, 'sparse weights must be fixed at prepare');
  if (packed && !data.dynamic) packGemmF32(data.packed, filter.data as Float32Array, bias ? (bias.data as Float32Array) : null, outC, K);
  const p = region.i32;
  p.fill(0, 0, G.Words);
  p[G.OutC] = outC;
  p[G.K] = K;
  p[G.Packed] = packed ? packed.offset : 0;
  data.words = p;
  region.f32[G.ActMin] = actMin;
  region.f32[G.ActMax] = actMax;
  data.params = region.offset;
  return { p, region };
}

/** Invoke of a float GEMM node: repacks dynamic weights, then runs f32_conv in place (or its rows on the pool's threads). */
export function invokeGemm(context: TfLiteContext, node: Node): void {
  const data = node.userData as GemmData;
  if (data.dynamic) {
    const b = node.inputs.length > 2 && node.inputs[2]! >= 0 ? (context.getEvalTensor(node.inputs[2]!).data as Float32Array) : null;
    packGemmF32(data.packed, context.getEvalTensor(node.inputs[1]!).data as Float32Array, b, data.outC, data.K);
  }
  if (data.sparseScratch) data.words[G.SparseScratch] = threadScratchOffset(context, data.sparseScratch);
  if (data.rows) data.words[G.Rows] = threadScratchOffset(context, data.rows);
  const input = inputOffset(context, node, 0, data.input);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const par = data.par;
  if (par)
    par.pool.run(data.k as unknown as JobExports, par.instance, Fn.F32Conv, data.params, input, output, 0, data.total, 4, par.chunks);
  else data.k!.f32_conv(data.params, input, output);
}
