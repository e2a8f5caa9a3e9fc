import { MicrortError } from '@micrort/core';

/**
 * A model's metadata or its associated files cannot be read: a malformed `TFLITE_METADATA` flatbuffer
 * (an offset or length outside the buffer), a broken zip archive, an unsupported compression method,
 * a file whose CRC-32 does not match. `where` names the table and field, or the archive entry.
 */
export class MetadataError extends MicrortError {
  constructor(
    message: string,
    /** e.g. `ModelMetadata.subgraph_metadata[0].output_tensor_metadata[1].associated_files`, or `labels.txt`. */
    readonly where: string,
  ) {
    super(`${message} (${where})`);
  }
}
