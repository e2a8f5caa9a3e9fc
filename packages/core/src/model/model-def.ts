import type { TensorType } from '../types.js';
import type { BuiltinOptions, BuiltinOptions2 } from '../options.js';

/**
 * Plain, verified description of a TFLite model: what the loader produces and what the model writer
 * consumes. Arrays of indices are Int32Array; constant data are `Uint8Array` views (zero-copy into the
 * model bytes where the loader could).
 */
export interface QuantizationDef {
  /** Per-tensor (length 1) or per-channel scales. Empty when the tensor is not quantized. */
  scale: Float32Array;
  /** Zero points, same length as `scale` (the schema's int64, range-checked to int32). */
  zeroPoint: Int32Array;
  /** Dimension the per-channel arrays run along (schema `quantized_dimension`). */
  quantizedDimension: number;
  /** Optional float min/max recorded by the converter. */
  min?: Float32Array;
  max?: Float32Array;
  /**
   * The schema's `details` union when the file sets it. For blockwise and multi-axis quantization it
   * replaces scale/zero_point (which are then empty): the scales and zero points are other tensors.
   */
  details?: QuantizationDetailsDef;
}

/**
 * The `QuantizationDetails` union: a converter's opaque payload, or quantization whose scales and zero
 * points are tensors of the same subgraph (ai-edge-quantizer's blockwise weights).
 */
export type QuantizationDetailsDef =
  | { kind: 'custom'; custom: Uint8Array }
  | {
      /** Blockwise: one scale (and zero point) per `blockSize` consecutive elements along the quantized dimension. */
      kind: 'blockwise';
      /** Index of the scale tensor in the same subgraph. */
      scales: number;
      /** Index of the zero-point tensor, or -1 (all zero points are 0). */
      zeroPoints: number;
      blockSize: number;
    }
  | {
      /** Along every dimension of `quantizedDimensions` (`blockSize` 0: per channel). */
      kind: 'multiAxis';
      scales: number;
      zeroPoints: number;
      blockSize: number;
      quantizedDimensions: Int32Array;
    };

/** The nested element type of a VARIANT tensor (schema `VariantSubType`). */
export interface VariantSubTypeDef {
  shape: Int32Array;
  type: TensorType;
  /** false: the rank is unknown (and `shape` is empty). */
  hasRank: boolean;
}

/** Element type of a sparse index array as stored in the file (schema union `SparseIndexVector`). */
export type SparseIndexType = 'int32' | 'uint16' | 'uint8';

/** An index array of a sparse dimension (`array_segments` or `array_indices`). */
export interface SparseIndexArrayDef {
  /** The values, widened to int32. */
  values: Int32Array;
  /** The type they are stored as. */
  type: SparseIndexType;
}

/** One dimension of a sparse tensor, in traversal order (schema `DimensionMetadata`). */
export interface DimensionMetadataDef {
  /** `dense`: `denseSize` entries; `sparseCsr`: runs of `arrayIndices` delimited by `arraySegments`. */
  format: 'dense' | 'sparseCsr';
  /** Size of a dense dimension (0 for sparse ones in converter files). */
  denseSize: number;
  /** Sparse dimensions only: segment boundaries, one more than the positions of the enclosing level. */
  arraySegments: SparseIndexArrayDef | null;
  /** Sparse dimensions only: the coordinate of each stored entry. */
  arrayIndices: SparseIndexArrayDef | null;
}

/**
 * Sparsity of a constant tensor (schema `SparsityParameters`, TACO format): the buffer holds only the
 * stored values, enumerated in `traversalOrder` over the original dimensions followed by the block
 * dimensions (`blockMap[k]` is the original dimension block dimension `k` splits).
 */
export interface SparsityDef {
  traversalOrder: Int32Array;
  blockMap: Int32Array;
  dimMetadata: DimensionMetadataDef[];
}

export interface TensorDef {
  name: string;
  type: TensorType;
  shape: Int32Array;
  /** `shape_signature` (-1 marks a dynamic dimension), if present. */
  shapeSignature?: Int32Array;
  /** Index into `ModelDef.buffers`; 0 is the empty sentinel buffer. */
  buffer: number;
  quantization: QuantizationDef | null;
  isVariable: boolean;
  /**
   * Sparse encoding of a constant tensor (its buffer then holds only the stored values). The loader keeps
   * it only on constants: as TFLite, it drops it from a tensor with no data (a graph input, say), which
   * is then an ordinary dense tensor.
   */
  sparsity?: SparsityDef;
  /**
   * `has_rank` when the file sets it: true for a scalar stored with shape [] (rather than an unknown
   * rank). Older converters never write it, so false says nothing when `shape` is not empty.
   */
  hasRank?: boolean;
  /** VARIANT tensors: the nested element type (schema `variant_tensors`), when present. */
  variantTensors?: VariantSubTypeDef[];
  /**
   * Id of the `ExternalBuffer` (ModelDef.externalBuffers) whose bytes are this constant's data, when the
   * file keeps them in an external file. The loader resolves it from `LoadOptions.externalFiles` into an
   * ordinary buffer (`buffer` then names it); the id stays here to say where the data came from.
   */
  externalBuffer?: number;
}

export interface OperatorDef {
  /** Index into `ModelDef.operatorCodes`. */
  opcodeIndex: number;
  /** Tensor indices; -1 marks an omitted optional input. */
  inputs: Int32Array;
  outputs: Int32Array;
  intermediates: Int32Array;
  /** Value of the `BuiltinOptions` union discriminant (0 = NONE). */
  builtinOptionsType: number;
  /** Parsed builtin options; `null` when absent. */
  builtinOptions: BuiltinOptions | null;
  /** Raw `custom_options` bytes (flexbuffer for most custom ops); `null` when absent. */
  customOptions: Uint8Array | null;
  /** `mutating_variable_inputs` (one flag per input), when the file has a non-empty list. */
  mutatingVariableInputs?: boolean[];
  /** Discriminant of the `builtin_options_2` union (StableHLO options), when non-zero. */
  builtinOptions2Type?: number;
  /**
   * The parsed `builtin_options_2` table (every field, schema defaults for absent ones), when the file has
   * one. Kernels see it as `node.builtinData` when the op has no `builtin_options` (the StableHLO ops).
   */
  builtinOptions2?: BuiltinOptions2;
  /**
   * Fields of the `builtin_options` table given by schema slot, for the writer: when set, the table is
   * written from these fields instead of from `builtinOptions` (the way to write the option tables
   * micrort does not parse, such as HashtableOptions or Conv3DOptions). The loader never sets it.
   */
  rawBuiltinOptions?: readonly RawOptionField[];
  /** The same for the `builtin_options_2` table (written only when `builtinOptions2Type` is non-zero), in place of `builtinOptions2`. */
  rawBuiltinOptions2?: readonly RawOptionField[];
}

/**
 * One field of a FlatBuffers options table, by its slot: `id` is the field's position among the
 * table's fields in TFLite's schema.fbs (from 0, deprecated fields counted). Scalars are always
 * written, even when equal to the schema default.
 */
export interface RawOptionField {
  id: number;
  type: 'bool' | 'int8' | 'int16' | 'int32' | 'int64' | 'float32' | 'string' | 'int32[]' | 'int64[]' | 'float32[]';
  value: boolean | number | string | readonly number[];
}

export interface SubgraphDef {
  name: string;
  tensors: TensorDef[];
  inputs: Int32Array;
  outputs: Int32Array;
  operators: OperatorDef[];
}

export interface OperatorCodeDef {
  /** Effective builtin code: max(deprecated_builtin_code, builtin_code), as TFLite's GetBuiltinCode. */
  builtinCode: number;
  deprecatedBuiltinCode: number;
  /** `custom_code` for CUSTOM ops, else `null`. */
  customCode: string | null;
  version: number;
}

export interface BufferDef {
  /** Constant bytes (empty for buffers with no data). For the offset/size form this is the slice of the file. */
  data: Uint8Array;
  /** True when `data` is a view into the model bytes rather than a copy. */
  zeroCopy?: boolean;
  /** For buffers stored outside the flatbuffer (`offset`/`size` fields), their file offset and size. */
  offset?: number;
  size?: number;
}

/** A file holding external buffers (schema `ExternalBufferGroup`): the name the model knows it by. */
export interface ExternalBufferGroupDef {
  name: string;
}

/** Constant bytes kept outside the .tflite file (schema `ExternalBuffer`, LiteRT 3d). */
export interface ExternalBufferDef {
  /** What `TensorDef.externalBuffer` refers to (ids are positive). */
  id: number;
  /** Index into `ModelDef.externalBufferGroups`: which file. */
  group: number;
  /** Byte offset and length in that file. */
  offset: number;
  length: number;
  /** How the bytes are packed (`"unpacked"`, …), '' when the file leaves it out. */
  packing: string;
}

export interface MetadataDef {
  name: string;
  /** Index into `ModelDef.buffers`. */
  buffer: number;
}

export interface SignatureTensorDef {
  name: string;
  tensorIndex: number;
}

export interface SignatureDefDef {
  signatureKey: string;
  subgraphIndex: number;
  inputs: SignatureTensorDef[];
  outputs: SignatureTensorDef[];
}

export interface ModelDef {
  version: number;
  description: string;
  operatorCodes: OperatorCodeDef[];
  subgraphs: SubgraphDef[];
  buffers: BufferDef[];
  metadata: MetadataDef[];
  signatureDefs: SignatureDefDef[];
  /** Deprecated `metadata_buffer` list of buffer indices, when the file has a non-empty one. */
  metadataBuffer?: Int32Array;
  /** Files holding external buffers and the buffers themselves (LiteRT schema 3d), when the file has any. */
  externalBufferGroups?: ExternalBufferGroupDef[];
  externalBuffers?: ExternalBufferDef[];
}
