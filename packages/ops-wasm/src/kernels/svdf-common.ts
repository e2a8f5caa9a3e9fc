/**
 * What the int8, float32 and hybrid SVDF kernels share: the persistent region (the SV parameter block, the feature
 * weights packed as rows padded to 8 values and filters padded to 4, then the kernel's input-row and
 * per-filter scratch), the shape words of the block, and the arena copies of the constant inputs the
 * kernel reads (input, weights_time, bias).
 */
import type { ArenaRegion, Node, TfLiteContext } from '@micrort/core';
import type { SvdfTensors } from '@micrort/kernel-support';
import { SV, SV_BYTES } from '../generated/abi.js';
import { constantInputCopies } from './kernel-common.js';

/** Where the packed feature weights and the scratch lie in the region, in bytes from its start. */
export interface SvdfLayout {
  /** Input size rounded up to 8 (a packed row). */
  input8: number;
  bytes: number;
  featureAt: number;
  rowAt: number;
  accAt: number;
}

/**
 * The region's layout for feature weights of `weightBytes` per value and an input row scratch of
 * `rowBytes` per value (the per-filter accumulators are 4 bytes each).
 */
export function svdfLayout(t: SvdfTensors, weightBytes: number, rowBytes: number): SvdfLayout {
  const input8 = (t.shape.inputSize + 7) & ~7;
  const filters4 = (t.shape.numFilters + 3) & ~3;
  const featureAt = SV_BYTES;
  const rowAt = featureAt + filters4 * input8 * weightBytes;
  const accAt = rowAt + input8 * rowBytes;
  return { input8, bytes: accAt + filters4 * 4, featureAt, rowAt, accAt };
}

/**
 * Packs the feature weights into `packed` (row f at f * input8, zeros past the input size and the
 * filters) and writes the block's shape and pointer words (the other words zero).
 */
export function writeSvdfBlock<T extends Int8Array | Float32Array>(
  region: ArenaRegion,
  t: SvdfTensors,
  layout: SvdfLayout,
  packed: T,
): void {
  const { inputSize, numFilters } = t.shape;
  const { input8 } = layout;
  packed.fill(0);
  const w = t.weightsFeature.data as T;
  for (let f = 0; f < numFilters; f++) packed.set(w.subarray(f * inputSize, (f + 1) * inputSize) as T & ArrayLike<number>, f * input8);
  const p = region.i32;
  writeSvdfShape(p, t);
  p[SV.Input8] = input8;
  p[SV.Feature] = region.offset + layout.featureAt;
  p[SV.Row] = region.offset + layout.rowAt;
  p[SV.Acc] = region.offset + layout.accAt;
}

/** Clears the SV block `p` and writes its shape words (Batches, InputSize, Filters, Memory, Units, Rank) and HasBias. */
export function writeSvdfShape(p: Int32Array, t: SvdfTensors): void {
  const { batchSize, inputSize, numFilters, numUnits, memorySize, rank } = t.shape;
  p.fill(0, 0, SV.Words);
  p[SV.Batches] = batchSize;
  p[SV.InputSize] = inputSize;
  p[SV.Filters] = numFilters;
  p[SV.Memory] = memorySize;
  p[SV.Units] = numUnits;
  p[SV.Rank] = rank;
  p[SV.HasBias] = t.bias ? 1 : 0;
}

/** Arena copies of the constant inputs the kernel reads (-1: read the eval tensor). */
export interface SvdfCopies {
  inputCopy: number;
  timeCopy: number;
  biasCopy: number;
  hasBias: boolean;
}

/** Fills `data`'s copies of the constant input, weights_time and bias. */
export function svdfInputCopies(context: TfLiteContext, node: Node, t: SvdfTensors, data: SvdfCopies): void {
  data.hasBias = t.bias !== null;
  const copies = constantInputCopies(context, node, data.hasBias ? [0, 2, 3] : [0, 2]);
  data.inputCopy = copies[0]!;
  data.timeCopy = copies[1]!;
  data.biasCopy = copies[2] ?? -1;
}
