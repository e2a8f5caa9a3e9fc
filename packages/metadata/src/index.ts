/**
 * @micrort/metadata — TFLite model metadata: the `TFLITE_METADATA` flatbuffer (tflite-support's
 * metadata_schema.fbs) and the associated files TFLite Support appends to a `.tflite` as a zip archive.
 * Class labels for top-k output, the normalization an image input expects, what each tensor is. Read
 * with bounds checks and typed errors (`MetadataError`); synchronous, the same in Node and the browser
 * (its own inflate for deflated entries).
 */
export { MetadataError } from './errors.js';
export {
  ASSOCIATED_FILE_TYPES,
  parseModelMetadata,
  type AssociatedFile,
  type AssociatedFileType,
  type ImageContent,
  type ModelMetadata,
  type Normalization,
  type SubgraphMetadata,
  type TensorContent,
  type TensorMetadata,
} from './metadata-schema.js';
export { TFLITE_METADATA, TfliteMetadata, parseLabels, readTfliteMetadata, type LabelOptions } from './tflite-metadata.js';
export { crc32, readZipDirectory, readZipEntry, type ZipEntry } from './zip.js';
export { inflateRaw } from './inflate.js';
