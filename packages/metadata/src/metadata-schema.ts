/**
 * The TFLite metadata flatbuffer (tflite-support's `metadata_schema.fbs`, file identifier `M001`) as
 * plain objects: ModelMetadata → SubGraphMetadata → TensorMetadata, with each tensor's content
 * properties (image, feature, bounding box, audio), process units (normalization, score thresholding)
 * and associated files. Transcribed from the schema's field order (a field's id is its position among
 * the table's fields, a union taking two: its type, then its value); fields micrort does not use are
 * not read.
 */
import { rootTable, type FlatTable } from './flat-reader.js';

/** `AssociatedFileType` of the schema (byte enum). */
export const ASSOCIATED_FILE_TYPES = [
  'UNKNOWN',
  'DESCRIPTIONS',
  'TENSOR_AXIS_LABELS',
  'TENSOR_VALUE_LABELS',
  'TENSOR_AXIS_SCORE_CALIBRATION',
  'VOCABULARY',
  'SCANN_INDEX_FILE',
] as const;

/** What an associated file holds; `TYPE_<n>` for a type newer than this reader. */
export type AssociatedFileType = (typeof ASSOCIATED_FILE_TYPES)[number] | `TYPE_${number}`;

/** A file packed into the model's zip archive and described by the metadata. */
export interface AssociatedFile {
  /** The file's name in the archive. */
  name: string;
  description: string;
  type: AssociatedFileType;
  /** e.g. `en`; '' when not given. */
  locale: string;
}

/** `NormalizationOptions`: a value x becomes (x − mean) / std, per channel (one value: every channel). */
export interface Normalization {
  mean: number[];
  std: number[];
}

/** `ImageProperties`. */
export interface ImageContent {
  kind: 'image';
  colorSpace: 'UNKNOWN' | 'RGB' | 'GRAYSCALE' | `TYPE_${number}`;
  /** Default width and height, when given (for tensors whose shape is dynamic). */
  defaultSize?: { width: number; height: number };
}

/** The content of a tensor (`Content.content_properties`). */
export type TensorContent =
  | ImageContent
  | { kind: 'feature' }
  | { kind: 'bounding-box'; index: number[]; type: number; coordinateType: number }
  | { kind: 'audio'; sampleRate: number; channels: number }
  | { kind: 'unknown'; type: number };

/** `TensorMetadata`: what one input or output of a subgraph is. */
export interface TensorMetadata {
  name: string;
  description: string;
  dimensionNames: string[];
  content: TensorContent | null;
  /** The first `NormalizationOptions` process unit, when there is one. */
  normalization: Normalization | null;
  /** The first `ScoreThresholdingOptions` process unit's threshold, when there is one. */
  scoreThreshold: number | null;
  /** `Stats`: per-channel min and max, when given. */
  stats: { min: number[]; max: number[] } | null;
  associatedFiles: AssociatedFile[];
}

/** `SubGraphMetadata`. */
export interface SubgraphMetadata {
  name: string;
  description: string;
  /** One per input of the subgraph, in the subgraph's input order. */
  inputs: TensorMetadata[];
  /** One per output of the subgraph, in the subgraph's output order. */
  outputs: TensorMetadata[];
  associatedFiles: AssociatedFile[];
}

/** `ModelMetadata`, the root table. */
export interface ModelMetadata {
  name: string;
  description: string;
  version: string;
  author: string;
  license: string;
  /** The first is the main subgraph. */
  subgraphs: SubgraphMetadata[];
  associatedFiles: AssociatedFile[];
  minParserVersion: string;
}

const enumName = <T extends string>(names: readonly T[], v: number): T | `TYPE_${number}` => names[v] ?? `TYPE_${v}`;

function associatedFiles(t: FlatTable, id: number): AssociatedFile[] {
  // AssociatedFile: name, description, type, locale, version
  return t.tables(id, 'associated_files').map((f) => ({
    name: f.string(0, 'name'),
    description: f.string(1, 'description'),
    type: enumName(ASSOCIATED_FILE_TYPES, f.u8(2, 'type')),
    locale: f.string(3, 'locale'),
  }));
}

function content(t: FlatTable | null): TensorContent | null {
  if (!t) return null;
  // Content: content_properties (union: type 0, value 1), range
  const type = t.u8(0, 'content_properties_type');
  const props = t.table(1, 'content_properties');
  switch (type) {
    case 0:
      return null;
    case 1:
      return { kind: 'feature' };
    case 2: {
      // ImageProperties: color_space, default_size (ImageSize: width, height)
      const size = props?.table(1, 'default_size');
      return {
        kind: 'image',
        colorSpace: enumName(['UNKNOWN', 'RGB', 'GRAYSCALE'] as const, props?.u8(0, 'color_space') ?? 0),
        ...(size ? { defaultSize: { width: size.u32(0, 'width'), height: size.u32(1, 'height') } } : {}),
      };
    }
    case 3:
      // BoundingBoxProperties: index, type, coordinate_type
      return {
        kind: 'bounding-box',
        index: props?.uints(0, 'index') ?? [],
        type: props?.u8(1, 'type') ?? 0,
        coordinateType: props?.u8(2, 'coordinate_type') ?? 0,
      };
    case 4:
      // AudioProperties: sample_rate, channels
      return { kind: 'audio', sampleRate: props?.u32(0, 'sample_rate') ?? 0, channels: props?.u32(1, 'channels') ?? 0 };
    default:
      return { kind: 'unknown', type };
  }
}

function tensorMetadata(t: FlatTable): TensorMetadata {
  // TensorMetadata: name, description, dimension_names, content, process_units, stats, associated_files
  let normalization: Normalization | null = null;
  let scoreThreshold: number | null = null;
  for (const unit of t.tables(4, 'process_units')) {
    // ProcessUnit: options (union: type 0, value 1); ProcessUnitOptions: NormalizationOptions = 1, ScoreCalibrationOptions = 2, ScoreThresholdingOptions = 3, …
    const type = unit.u8(0, 'options_type');
    const options = unit.table(1, 'options');
    if (!options) continue;
    if (type === 1 && !normalization) normalization = { mean: options.floats(0, 'mean'), std: options.floats(1, 'std') };
    if (type === 3 && scoreThreshold === null) scoreThreshold = readFloatField(options);
  }
  const stats = t.table(5, 'stats');
  return {
    name: t.string(0, 'name'),
    description: t.string(1, 'description'),
    dimensionNames: t.strings(2, 'dimension_names'),
    content: content(t.table(3, 'content')),
    normalization,
    scoreThreshold,
    // Stats: max, min
    stats: stats ? { max: stats.floats(0, 'max'), min: stats.floats(1, 'min') } : null,
    associatedFiles: associatedFiles(t, 6),
  };
}

/** ScoreThresholdingOptions.global_score_threshold (field 0, a float32 scalar). */
function readFloatField(t: FlatTable): number {
  const bits = t.u32(0, 'global_score_threshold');
  const f = new Float32Array(Uint32Array.of(bits).buffer)[0]!;
  return f;
}

/** Reads a `TFLITE_METADATA` buffer (identifier `M001`). Throws `MetadataError` for a malformed one. */
export function parseModelMetadata(bytes: Uint8Array): ModelMetadata {
  const root = rootTable(bytes, 'ModelMetadata', 'M001');
  // ModelMetadata: name, description, version, subgraph_metadata, author, license, associated_files, min_parser_version
  return {
    name: root.string(0, 'name'),
    description: root.string(1, 'description'),
    version: root.string(2, 'version'),
    // SubGraphMetadata: name, description, input_tensor_metadata, output_tensor_metadata, associated_files, …
    subgraphs: root.tables(3, 'subgraph_metadata').map((sg) => ({
      name: sg.string(0, 'name'),
      description: sg.string(1, 'description'),
      inputs: sg.tables(2, 'input_tensor_metadata').map(tensorMetadata),
      outputs: sg.tables(3, 'output_tensor_metadata').map(tensorMetadata),
      associatedFiles: associatedFiles(sg, 4),
    })),
    author: root.string(4, 'author'),
    license: root.string(5, 'license'),
    associatedFiles: associatedFiles(root, 6),
    minParserVersion: root.string(7, 'min_parser_version'),
  };
}
