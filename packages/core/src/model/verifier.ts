import * as flatbuffers from 'flatbuffers';
import { Model } from './generated/tflite.js';
import { verifySemantics } from './verify-semantics.js';
import { verifyStructure, type StructureOptions } from './verify-structure.js';

export { TFLITE_FILE_IDENTIFIER } from './verify-structure.js';
export { TFLITE_SCHEMA_VERSION } from './verify-semantics.js';

/** Options of {@link verifyModel}. */
export type VerifyOptions = StructureOptions;

/**
 * Verifies a .tflite file before anything reads it, in two passes:
 *
 * 1. structure (FlatBuffers level): root/uoffsets/soffsets/vtables in bounds and aligned, table, vector and
 *    string extents inside the file, strings NUL-terminated, union discriminants known, nesting depth and
 *    total work bounded by the file size;
 * 2. semantics (TFLite level): schema version 3, buffer/opcode/tensor/subgraph/metadata indices in range
 *    (-1 only for optional operator inputs), known tensor types, non-negative shapes whose byte size fits
 *    in int32, constant buffer sizes equal to element count × element size (string tensors excluded),
 *    scale/zero_point lengths equal and per-channel lengths equal to `shape[quantized_dimension]`,
 *    external (offset/size) buffers and large custom options inside the file, and builtin options of the
 *    type micrort parses for the op.
 *
 * The "TFL3" file identifier is required unless `requireIdentifier: false` (TFLite's verifier requires
 * it; TFLM's `GetModel` does not look at it). Every failure is a `ModelError` carrying a location
 * `{ path, table, field, index, offset }`; no other exception escapes for any input.
 */
export function verifyModel(bytes: Uint8Array, options: VerifyOptions = {}): void {
  verifyStructure(bytes, options);
  const model = Model.getRootAsModel(new flatbuffers.ByteBuffer(bytes));
  verifySemantics(model, bytes.byteLength);
}
