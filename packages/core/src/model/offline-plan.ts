import { ModelError } from '../errors.js';
import type { ModelDef } from './model-def.js';

/** Name of the metadata entry holding an offline memory plan (TFLM `kOfflineMemAllocMetadata`). */
export const OFFLINE_MEMORY_ALLOCATION_METADATA = 'OfflineMemoryAllocation';
/** Offset value meaning "plan this tensor online" (TFLM `kOnlinePlannedBuffer`). */
export const ONLINE_PLANNED_BUFFER = -1;

/** Words before the offsets: format version, number of subgraphs, number of offsets. */
const HEADER_WORDS = 3;

/**
 * Reads the offline memory plan of subgraph `subgraph` from the model's `OfflineMemoryAllocation`
 * metadata, or returns null when the model has none.
 *
 * The metadata buffer holds little-endian int32 words `[version, subgraphs, n, offset_0 .. offset_n-1]`
 * (tflite-micro docs/memory_management.md): one head-relative byte offset per tensor, -1 to plan that
 * tensor online. With several subgraphs the tensors of all subgraphs are concatenated in subgraph order,
 * and `n` must equal the total tensor count (TFLM rejects any other count). The version and subgraph
 * words are not interpreted (TFLM ignores them too). Trailing padding words are allowed.
 *
 * Returns a fresh Int32Array with one entry per tensor of `subgraph`. Throws `ModelError` for a buffer
 * that is not a whole number of words, too short for its count, a count that differs from the tensor
 * count, or an offset below -1.
 */
export function readOfflineMemoryAllocation(def: ModelDef, subgraph = 0): Int32Array | null {
  const entry = def.metadata.findIndex((m) => m.name === OFFLINE_MEMORY_ALLOCATION_METADATA);
  if (entry < 0) return null;
  const path = `model.metadata[${entry}]`;
  if (!Number.isInteger(subgraph) || subgraph < 0 || subgraph >= def.subgraphs.length) {
    throw new ModelError(`subgraph ${subgraph} out of range (model has ${def.subgraphs.length} subgraphs)`, {
      table: 'Metadata',
      path,
    });
  }
  const bufferIndex = def.metadata[entry]!.buffer;
  const buffer = def.buffers[bufferIndex];
  if (!buffer) {
    throw new ModelError(`${OFFLINE_MEMORY_ALLOCATION_METADATA} refers to buffer ${bufferIndex} (model has ${def.buffers.length})`, {
      table: 'Metadata',
      field: 'buffer',
      index: entry,
      path,
    });
  }
  const data = buffer.data;
  const loc = { table: 'Buffer', index: bufferIndex, path: `model.buffers[${bufferIndex}]` };
  if (data.byteLength % 4 !== 0 || data.byteLength < HEADER_WORDS * 4) {
    throw new ModelError(
      `${OFFLINE_MEMORY_ALLOCATION_METADATA} buffer has ${data.byteLength} bytes; expected at least ${HEADER_WORDS} whole int32 words`,
      loc,
    );
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getInt32(8, true);
  const words = data.byteLength / 4;
  const totalTensors = def.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
  if (count !== totalTensors) {
    throw new ModelError(`${OFFLINE_MEMORY_ALLOCATION_METADATA} has ${count} offsets but the model has ${totalTensors} tensors`, loc);
  }
  if (HEADER_WORDS + count > words) {
    throw new ModelError(`${OFFLINE_MEMORY_ALLOCATION_METADATA} declares ${count} offsets but holds only ${words - HEADER_WORDS}`, loc);
  }
  let first = 0;
  for (let s = 0; s < subgraph; s++) first += def.subgraphs[s]!.tensors.length;
  const tensors = def.subgraphs[subgraph]!.tensors.length;
  const out = new Int32Array(tensors);
  for (let i = 0; i < tensors; i++) {
    const offset = view.getInt32(4 * (HEADER_WORDS + first + i), true);
    if (offset < ONLINE_PLANNED_BUFFER) {
      throw new ModelError(`${OFFLINE_MEMORY_ALLOCATION_METADATA} offset ${offset} for tensor ${i} of subgraph ${subgraph} is below -1`, {
        ...loc,
        index: i,
      });
    }
    out[i] = offset;
  }
  return out;
}
