import type { TensorType } from '../types.js';
import type { BuiltinOptions } from '../options.js';

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
  /** Sparse encoding of a constant tensor (its buffer then holds only the stored values). */
  sparsity?: SparsityDef;
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
  /** Discriminant of the `builtin_options_2` union (StableHLO options), when non-zero; its table is not parsed. */
  builtinOptions2Type?: number;
  /**
   * Fields of the `builtin_options` table given by schema slot, for the writer: when set, the table is
   * written from these fields instead of from `builtinOptions` (the way to write the option tables
   * micrort does not parse, such as HashtableOptions or Conv3DOptions). The loader never sets it.
   */
  rawBuiltinOptions?: readonly RawOptionField[];
  /** The same for the `builtin_options_2` table (written only when `builtinOptions2Type` is non-zero). */
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
}
