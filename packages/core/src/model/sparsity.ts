/**
 * Sparse tensors (schema `SparsityParameters`, TFLite's TACO-style format): reading the table into a
 * `SparsityDef` and checking that its metadata describe a well-formed tensor, so that densifying it
 * (TFLite's FormatConverter::SparseToDense, which DENSIFY runs) stays in bounds and reads exactly the
 * stored values.
 */
import {
  DimensionMetadata,
  DimensionType,
  Int32Vector,
  SparseIndexVector,
  Uint16Vector,
  Uint8Vector,
  type SparsityParameters,
} from './generated/tflite.js';
import type { DimensionMetadataDef, SparseIndexArrayDef, SparsityDef } from './model-def.js';

function copyInt32(length: number, at: (i: number) => number | null): Int32Array {
  const out = new Int32Array(length);
  for (let i = 0; i < length; i++) out[i] = at(i) ?? 0;
  return out;
}

/** A sparse index array of any of the union's types, widened to int32; null when absent. */
function readSparseIndexArray(type: SparseIndexVector, read: (obj: unknown) => unknown): SparseIndexArrayDef | null {
  switch (type) {
    case SparseIndexVector.Int32Vector: {
      const v = read(new Int32Vector()) as Int32Vector | null;
      return v ? { type: 'int32', values: copyInt32(v.valuesLength(), (i) => v.values(i)) } : null;
    }
    case SparseIndexVector.Uint16Vector: {
      const v = read(new Uint16Vector()) as Uint16Vector | null;
      return v ? { type: 'uint16', values: copyInt32(v.valuesLength(), (i) => v.values(i)) } : null;
    }
    case SparseIndexVector.Uint8Vector: {
      const v = read(new Uint8Vector()) as Uint8Vector | null;
      return v ? { type: 'uint8', values: copyInt32(v.valuesLength(), (i) => v.values(i)) } : null;
    }
    default:
      return null;
  }
}

/** The vector elements `readSparsity` copies from a table (for the verifier's work budget). */
export function sparsityElementCount(s: SparsityParameters): number {
  let n = s.traversalOrderLength() + s.blockMapLength() + s.dimMetadataLength();
  const dm = new DimensionMetadata();
  for (let i = 0, k = s.dimMetadataLength(); i < k; i++) {
    const d = s.dimMetadata(i, dm)!;
    for (const [type, read] of [
      [d.arraySegmentsType(), (o: unknown) => d.arraySegments(o)],
      [d.arrayIndicesType(), (o: unknown) => d.arrayIndices(o)],
    ] as const) {
      if (type === SparseIndexVector.Int32Vector) n += (read(new Int32Vector()) as Int32Vector | null)?.valuesLength() ?? 0;
      else if (type === SparseIndexVector.Uint16Vector) n += (read(new Uint16Vector()) as Uint16Vector | null)?.valuesLength() ?? 0;
      else if (type === SparseIndexVector.Uint8Vector) n += (read(new Uint8Vector()) as Uint8Vector | null)?.valuesLength() ?? 0;
    }
  }
  return n;
}

/** The SparsityParameters table as a plain SparsityDef. */
export function readSparsity(s: SparsityParameters): SparsityDef {
  const dimMetadata: DimensionMetadataDef[] = [];
  const dm = new DimensionMetadata();
  for (let i = 0, n = s.dimMetadataLength(); i < n; i++) {
    const d = s.dimMetadata(i, dm)!;
    dimMetadata.push({
      format: d.format() === DimensionType.SPARSE_CSR ? 'sparseCsr' : 'dense',
      denseSize: d.denseSize(),
      arraySegments: readSparseIndexArray(d.arraySegmentsType(), (obj) => d.arraySegments(obj)),
      arrayIndices: readSparseIndexArray(d.arrayIndicesType(), (obj) => d.arrayIndices(obj)),
    });
  }
  return {
    traversalOrder: copyInt32(s.traversalOrderLength(), (i) => s.traversalOrder(i)),
    blockMap: copyInt32(s.blockMapLength(), (i) => s.blockMap(i)),
    dimMetadata,
  };
}

/** What densifying needs besides the metadata, derived and checked by {@link sparseLayout}. */
export interface SparseLayout {
  /** Levels of the traversal: the original rank plus the number of block dimensions. */
  levels: number;
  /** Per block dimension k: its size (TFLite's block_size_, from the metadata of level traversal_order[rank + k]). */
  blockSizes: Int32Array;
  /** Values stored in the tensor's buffer (the leaves of the traversal). */
  storedValues: number;
}

/** A malformed sparsity description: which schema field is wrong and why. */
export class SparsityError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks `s` against the dense `shape` and returns the layout densifying needs. A well-formed description
 * (what TFLite's converter writes, and all FormatConverter handles in bounds):
 * - `traversal_order` lists the original dimensions (a permutation of 0..rank-1) then the block
 *   dimensions (a permutation of rank..rank+blocks-1); `dim_metadata` has one entry per level;
 * - `block_map` names strictly increasing original dimensions; each block level is DENSE with a size
 *   that divides its dimension;
 * - a DENSE level's `dense_size` is its extent (the dimension, divided by its block size if blocked);
 * - a SPARSE_CSR level has `array_segments` of one more entry than the positions of the levels above it,
 *   starting at 0, non-decreasing, ending at the length of `array_indices`, whose values lie in [0, extent).
 * Throws SparsityError naming the field.
 */
export function sparseLayout(shape: ArrayLike<number>, s: SparsityDef): SparseLayout {
  const rank = shape.length;
  const blocks = s.blockMap.length;
  const levels = s.traversalOrder.length;
  const fail = (field: string, message: string): never => {
    throw new SparsityError(field, message);
  };
  if (levels !== rank + blocks)
    fail('traversal_order', `traversal_order has ${levels} entries, expected rank ${rank} + ${blocks} block dimensions`);
  if (s.dimMetadata.length !== levels)
    fail('dim_metadata', `dim_metadata has ${s.dimMetadata.length} entries, expected ${levels} (one per traversal level)`);
  const seen = new Uint8Array(levels);
  for (let l = 0; l < levels; l++) {
    const d = s.traversalOrder[l]!;
    const [lo, hi] = l < rank ? [0, rank] : [rank, levels];
    if (d < lo || d >= hi || seen[d]) {
      fail(
        'traversal_order',
        `traversal_order[${l}] = ${d}: the first ${rank} entries must be a permutation of the dimensions 0..${rank - 1}, the rest of ${rank}..${levels - 1}`,
      );
    }
    seen[d] = 1;
  }
  for (let k = 0; k < blocks; k++) {
    const d = s.blockMap[k]!;
    if (d < 0 || d >= rank) fail('block_map', `block_map[${k}] = ${d} is not a dimension of the rank-${rank} tensor`);
    if (k > 0 && d <= s.blockMap[k - 1]!)
      fail('block_map', `block_map must be strictly increasing, got ${Array.from(s.blockMap).join(', ')}`);
  }
  // Block sizes as TFLite's converter reads them, and the blocked extents of the original dimensions.
  const blockSizes = new Int32Array(blocks);
  const extentOfDim = Array.from(shape);
  for (let k = 0; k < blocks; k++) {
    const meta = s.dimMetadata[s.traversalOrder[rank + k]!]!;
    const size = meta.denseSize;
    const d = s.blockMap[k]!;
    if (meta.format !== 'dense' || !(size > 0))
      fail('dim_metadata', `block dimension ${k} must be DENSE with a positive dense_size, got ${meta.format} with ${size}`);
    if (shape[d]! % size !== 0) fail('dim_metadata', `block size ${size} does not divide dimension ${d} (size ${shape[d]})`);
    blockSizes[k] = size;
    extentOfDim[d] = shape[d]! / size;
  }
  let positions = 1;
  for (let l = 0; l < levels; l++) {
    const meta = s.dimMetadata[l]!;
    const t = s.traversalOrder[l]!;
    const extent = l < rank ? extentOfDim[t]! : blockSizes[t - rank]!;
    if (meta.format === 'dense') {
      if (meta.denseSize !== extent)
        fail('dim_metadata', `level ${l} (dimension ${t}) is DENSE with dense_size ${meta.denseSize}, expected ${extent}`);
      positions *= extent;
      continue;
    }
    const seg = meta.arraySegments?.values;
    const idx = meta.arrayIndices?.values;
    if (!seg || !idx) fail('dim_metadata', `level ${l} is SPARSE_CSR but lacks array_segments or array_indices`);
    if (seg!.length !== positions + 1)
      fail('dim_metadata', `level ${l}: array_segments has ${seg!.length} entries, expected ${positions + 1}`);
    if (seg![0] !== 0) fail('dim_metadata', `level ${l}: array_segments must start at 0, got ${seg![0]}`);
    for (let i = 1; i < seg!.length; i++) {
      if (seg![i]! < seg![i - 1]!) fail('dim_metadata', `level ${l}: array_segments decreases at [${i}] (${seg![i - 1]} then ${seg![i]})`);
    }
    if (seg![positions] !== idx!.length)
      fail('dim_metadata', `level ${l}: array_segments ends at ${seg![positions]} but array_indices has ${idx!.length} entries`);
    for (let i = 0; i < idx!.length; i++) {
      const v = idx![i]!;
      if (v < 0 || v >= extent) fail('dim_metadata', `level ${l}: array_indices[${i}] = ${v} is outside [0, ${extent})`);
    }
    positions = idx!.length;
  }
  return { levels, blockSizes, storedValues: positions };
}
