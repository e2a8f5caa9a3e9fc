/**
 * Binary layout of the TFLite tables, as the structural verifier needs it: for each table, the vtable slot
 * (field id) and kind of every field, mirroring schema/tflite.fbs (every table with fields, LiteRT's current
 * schema). Field ids count union fields twice (the hidden `<name>_type` byte takes the slot before the value).
 */
import { BuiltinOptions as B1, BuiltinOptions2 as B2 } from './generated/tflite.js';

/** How a scalar or a vector element is read (by the generic options codec, options2-codec.ts). */
export type ScalarRead = 'bool' | 'uint8' | 'int32' | 'uint32' | 'float32' | 'int64' | 'uint64';

/** How the bytes of one field are laid out (`read`: set on the tables the generic codec reads). */
export type FieldKind =
  | { readonly kind: 'scalar'; readonly size: 1 | 2 | 4 | 8; readonly read?: ScalarRead }
  | { readonly kind: 'string' }
  | { readonly kind: 'vector'; readonly elementSize: 1 | 2 | 4 | 8; readonly read?: ScalarRead }
  | { readonly kind: 'tableVector'; readonly table: TableLayout }
  | { readonly kind: 'table'; readonly table: TableLayout }
  | {
      readonly kind: 'union';
      /** Name of the union (for messages). */
      readonly union: string;
      /** Member tables; discriminant i (1-based) selects `members[i - 1]`. */
      readonly members: readonly TableLayout[];
    };

export interface FieldLayout {
  readonly name: string;
  /** Vtable slot. For a union, the slot of the value; its `_type` byte is at `id - 1`. */
  readonly id: number;
  readonly type: FieldKind;
}

export interface TableLayout {
  readonly name: string;
  readonly fields: readonly FieldLayout[];
}

const u8: FieldKind = { kind: 'scalar', size: 1 };
const i32: FieldKind = { kind: 'scalar', size: 4 };
const f32: FieldKind = { kind: 'scalar', size: 4 };
const u64: FieldKind = { kind: 'scalar', size: 8 };
const str: FieldKind = { kind: 'string' };
const bytes: FieldKind = { kind: 'vector', elementSize: 1 };
const ints: FieldKind = { kind: 'vector', elementSize: 4 };
const floats: FieldKind = { kind: 'vector', elementSize: 4 };
const longs: FieldKind = { kind: 'vector', elementSize: 8 };

/** Builds a table layout from `[name, kind]` pairs in declaration order; a union takes two slots. */
function table(name: string, fields: ReadonlyArray<readonly [string, FieldKind]>): TableLayout {
  const out: FieldLayout[] = [];
  let id = 0;
  for (const [fieldName, type] of fields) {
    if (type.kind === 'union') id++; // the hidden `<name>_type` slot
    out.push({ name: fieldName, id, type });
    id++;
  }
  return { name, fields: out };
}

/** Field kinds by the short names of {@link compact}, with how each is read. */
const KINDS: Readonly<Record<string, FieldKind>> = {
  bool: { kind: 'scalar', size: 1, read: 'bool' },
  u8: { kind: 'scalar', size: 1, read: 'uint8' },
  i32: { kind: 'scalar', size: 4, read: 'int32' },
  u32: { kind: 'scalar', size: 4, read: 'uint32' },
  f32: { kind: 'scalar', size: 4, read: 'float32' },
  i64: { kind: 'scalar', size: 8, read: 'int64' },
  u64: { kind: 'scalar', size: 8, read: 'uint64' },
  str,
  bytes: { kind: 'vector', elementSize: 1, read: 'uint8' },
  ints: { kind: 'vector', elementSize: 4, read: 'int32' },
  floats: { kind: 'vector', elementSize: 4, read: 'float32' },
  longs: { kind: 'vector', elementSize: 8, read: 'int64' },
};

/** A table layout from `"name:kind name:kind …"` (kinds of KINDS: bool, u8, i32, u32, f32, i64, u64, str, bytes, ints, floats, longs). */
function compact(name: string, spec: string): TableLayout {
  return table(
    name,
    spec.split(' ').map((f) => {
      const [n, k] = f.split(':');
      return [n!, KINDS[k!]!] as const;
    }),
  );
}

/** A table without fields (or whose fields are not verified): only its own bounds are verified. */
function opaque(name: string): TableLayout {
  return { name, fields: [] };
}

/** Every scalar field of a table (enums, bools, ints, floats) as `[name, size]`. */
function scalars(name: string, fields: ReadonlyArray<readonly [string, 1 | 4]>): TableLayout {
  return table(
    name,
    fields.map(([n, size]) => [n, size === 1 ? u8 : i32] as const),
  );
}

// --- builtin options -------------------------------------------------------------------------------------

const conv2D = scalars('Conv2DOptions', [
  ['padding', 1],
  ['stride_w', 4],
  ['stride_h', 4],
  ['fused_activation_function', 1],
  ['dilation_w_factor', 4],
  ['dilation_h_factor', 4],
  ['quantized_bias_type', 1],
]);
const depthwiseConv2D = scalars('DepthwiseConv2DOptions', [
  ['padding', 1],
  ['stride_w', 4],
  ['stride_h', 4],
  ['depth_multiplier', 4],
  ['fused_activation_function', 1],
  ['dilation_w_factor', 4],
  ['dilation_h_factor', 4],
]);
const pool2D = scalars('Pool2DOptions', [
  ['padding', 1],
  ['stride_w', 4],
  ['stride_h', 4],
  ['filter_width', 4],
  ['filter_height', 4],
  ['fused_activation_function', 1],
]);
const svdf = scalars('SVDFOptions', [
  ['rank', 4],
  ['fused_activation_function', 1],
  ['asymmetric_quantize_inputs', 1],
]);
const fullyConnected = scalars('FullyConnectedOptions', [
  ['fused_activation_function', 1],
  ['weights_format', 1],
  ['keep_num_dims', 1],
  ['asymmetric_quantize_inputs', 1],
  ['quantized_bias_type', 1],
]);
const softmax = table('SoftmaxOptions', [['beta', f32]]);
const concatenation = scalars('ConcatenationOptions', [
  ['axis', 4],
  ['fused_activation_function', 1],
]);
const add = scalars('AddOptions', [
  ['fused_activation_function', 1],
  ['pot_scale_int16', 1],
]);
const reshape = table('ReshapeOptions', [['new_shape', ints]]);
const mul = scalars('MulOptions', [['fused_activation_function', 1]]);
const gather = scalars('GatherOptions', [
  ['axis', 4],
  ['batch_dims', 4],
]);
const reducer = scalars('ReducerOptions', [['keep_dims', 1]]);
const sub = scalars('SubOptions', [
  ['fused_activation_function', 1],
  ['pot_scale_int16', 1],
]);
const div = scalars('DivOptions', [['fused_activation_function', 1]]);
const squeeze = table('SqueezeOptions', [['squeeze_dims', ints]]);
const stridedSlice = scalars('StridedSliceOptions', [
  ['begin_mask', 4],
  ['end_mask', 4],
  ['ellipsis_mask', 4],
  ['new_axis_mask', 4],
  ['shrink_axis_mask', 4],
  ['offset', 1],
]);
const split = scalars('SplitOptions', [['num_splits', 4]]);
const cast = scalars('CastOptions', [
  ['in_data_type', 1],
  ['out_data_type', 1],
]);
const argMax = scalars('ArgMaxOptions', [['output_type', 1]]);
const transposeConv = scalars('TransposeConvOptions', [
  ['padding', 1],
  ['stride_w', 4],
  ['stride_h', 4],
  ['fused_activation_function', 1],
  ['quantized_bias_type', 1],
]);
const pack = scalars('PackOptions', [
  ['values_count', 4],
  ['axis', 4],
]);
const unidirectionalSequenceLstm = table('UnidirectionalSequenceLSTMOptions', [
  ['fused_activation_function', u8],
  ['cell_clip', f32],
  ['proj_clip', f32],
  ['time_major', u8],
  ['asymmetric_quantize_inputs', u8],
  ['diagonal_recurrent_tensors', u8],
]);
const leakyRelu = table('LeakyReluOptions', [['alpha', f32]]);
const ifOptions = scalars('IfOptions', [
  ['then_subgraph_index', 4],
  ['else_subgraph_index', 4],
]);
const whileOptions = scalars('WhileOptions', [
  ['cond_subgraph_index', 4],
  ['body_subgraph_index', 4],
]);
const callOnce = scalars('CallOnceOptions', [['init_subgraph_index', 4]]);
const varHandle = table('VarHandleOptions', [
  ['container', str],
  ['shared_name', str],
]);
const resizeBilinear = scalars('ResizeBilinearOptions', [
  ['new_height', 4],
  ['new_width', 4],
  ['align_corners', 1],
  ['half_pixel_centers', 1],
]);
const spaceToDepth = scalars('SpaceToDepthOptions', [['block_size', 4]]);
const argMin = scalars('ArgMinOptions', [['output_type', 1]]);
const unpack = scalars('UnpackOptions', [
  ['num', 4],
  ['axis', 4],
]);
const resizeNearestNeighbor = scalars('ResizeNearestNeighborOptions', [
  ['align_corners', 1],
  ['half_pixel_centers', 1],
]);
const mirrorPad = scalars('MirrorPadOptions', [['mode', 1]]);
const splitV = scalars('SplitVOptions', [['num_splits', 4]]);
const depthToSpace = scalars('DepthToSpaceOptions', [['block_size', 4]]);
const l2Norm = scalars('L2NormOptions', [['fused_activation_function', 1]]);
const batchMatMul = scalars('BatchMatMulOptions', [
  ['adj_x', 1],
  ['adj_y', 1],
  ['asymmetric_quantize_inputs', 1],
]);
const cumsum = scalars('CumsumOptions', [
  ['exclusive', 1],
  ['reverse', 1],
]);

/** The other BuiltinOptions tables with fields (LiteRT's schema), by union member. */
const MORE_MEMBERS: ReadonlyArray<readonly [number, TableLayout]> = [
  [
    B1.ConcatEmbeddingsOptions,
    compact('ConcatEmbeddingsOptions', 'num_channels:i32 num_columns_per_channel:ints embedding_dim_per_channel:ints'),
  ],
  [B1.LSHProjectionOptions, compact('LSHProjectionOptions', 'type:u8')],
  [B1.RNNOptions, compact('RNNOptions', 'fused_activation_function:u8 asymmetric_quantize_inputs:bool')],
  [B1.LocalResponseNormalizationOptions, compact('LocalResponseNormalizationOptions', 'radius:i32 bias:f32 alpha:f32 beta:f32')],
  [
    B1.LSTMOptions,
    compact('LSTMOptions', 'fused_activation_function:u8 cell_clip:f32 proj_clip:f32 kernel_type:u8 asymmetric_quantize_inputs:bool'),
  ],
  [B1.CallOptions, compact('CallOptions', 'subgraph:u32')],
  [B1.SkipGramOptions, compact('SkipGramOptions', 'ngram_size:i32 max_skip_size:i32 include_all_ngrams:bool')],
  [B1.EmbeddingLookupSparseOptions, compact('EmbeddingLookupSparseOptions', 'combiner:u8')],
  [B1.SequenceRNNOptions, compact('SequenceRNNOptions', 'time_major:bool fused_activation_function:u8 asymmetric_quantize_inputs:bool')],
  [B1.SparseToDenseOptions, compact('SparseToDenseOptions', 'validate_indices:bool')],
  [B1.ShapeOptions, compact('ShapeOptions', 'out_type:u8')],
  [B1.FakeQuantOptions, compact('FakeQuantOptions', 'min:f32 max:f32 num_bits:i32 narrow_range:bool')],
  [B1.OneHotOptions, compact('OneHotOptions', 'axis:i32')],
  [
    B1.BidirectionalSequenceLSTMOptions,
    compact(
      'BidirectionalSequenceLSTMOptions',
      'fused_activation_function:u8 cell_clip:f32 proj_clip:f32 merge_outputs:bool time_major:bool asymmetric_quantize_inputs:bool',
    ),
  ],
  [
    B1.BidirectionalSequenceRNNOptions,
    compact(
      'BidirectionalSequenceRNNOptions',
      'time_major:bool fused_activation_function:u8 merge_outputs:bool asymmetric_quantize_inputs:bool',
    ),
  ],
  [B1.UniqueOptions, compact('UniqueOptions', 'idx_out_type:u8')],
  [B1.ReverseSequenceOptions, compact('ReverseSequenceOptions', 'seq_dim:i32 batch_dim:i32')],
  [
    B1.Conv3DOptions,
    compact(
      'Conv3DOptions',
      'padding:u8 stride_d:i32 stride_w:i32 stride_h:i32 fused_activation_function:u8 dilation_d_factor:i32 dilation_w_factor:i32 dilation_h_factor:i32',
    ),
  ],
  [B1.HashtableOptions, compact('HashtableOptions', 'table_id:i32 key_dtype:u8 value_dtype:u8')],
  [B1.RandomOptions, compact('RandomOptions', 'seed:i64 seed2:i64')],
  [B1.BucketizeOptions, compact('BucketizeOptions', 'boundaries:floats')],
  [B1.GeluOptions, compact('GeluOptions', 'approximate:bool')],
];

/** The BuiltinOptions2 tables with fields (StableHLO and later), by union member. */
const OPTIONS_2_MEMBERS: ReadonlyArray<readonly [number, TableLayout]> = [
  [B2.StablehloConcatenateOptions, compact('StablehloConcatenateOptions', 'dimension:i64')],
  [B2.StablehloBroadcastInDimOptions, compact('StablehloBroadcastInDimOptions', 'broadcast_dimensions:longs')],
  [B2.StablehloSliceOptions, compact('StablehloSliceOptions', 'start_indices:longs limit_indices:longs strides:longs')],
  [
    B2.StablehloConvolutionOptions,
    compact(
      'StablehloConvolutionOptions',
      'window_strides:longs padding:longs lhs_dilation:longs rhs_dilation:longs window_reversal:bytes input_batch_dimension:i64 ' +
        'input_feature_dimension:i64 input_spatial_dimensions:longs kernel_input_feature_dimension:i64 ' +
        'kernel_output_feature_dimension:i64 kernel_spatial_dimensions:longs output_batch_dimension:i64 ' +
        'output_feature_dimension:i64 output_spatial_dimensions:longs feature_group_count:i64 batch_group_count:i64 precision_config:ints',
    ),
  ],
  [
    B2.StablehloCustomCallOptions,
    compact(
      'StablehloCustomCallOptions',
      'call_target_name:str has_side_effect:bool backend_config:str api_version:i32 called_computations:ints custom_attributes:bytes',
    ),
  ],
  [B2.StablehloReduceOptions, compact('StablehloReduceOptions', 'dimensions:longs body_subgraph_index:i32')],
  [
    B2.StablehloScatterOptions,
    compact(
      'StablehloScatterOptions',
      'indices_are_sorted:bool update_window_dims:longs inserted_window_dims:longs scatter_dims_to_operand_dims:longs ' +
        'index_vector_dim:i64 unique_indices:bool update_computation_subgraph_index:i32',
    ),
  ],
  [B2.StablehloCompareOptions, compact('StablehloCompareOptions', 'comparison_direction:u32 compare_type:u32')],
  [B2.StablehloDynamicSliceOptions, compact('StablehloDynamicSliceOptions', 'slice_sizes:longs')],
  [B2.StablehloPadOptions, compact('StablehloPadOptions', 'edge_padding_low:longs edge_padding_high:longs interior_padding:longs')],
  [B2.StablehloIotaOptions, compact('StablehloIotaOptions', 'iota_dimension:i64')],
  [
    B2.StablehloDotGeneralOptions,
    compact(
      'StablehloDotGeneralOptions',
      'lhs_batching_dimensions:longs rhs_batching_dimensions:longs lhs_contracting_dimensions:longs rhs_contracting_dimensions:longs precision_config:ints',
    ),
  ],
  [
    B2.StablehloReduceWindowOptions,
    compact(
      'StablehloReduceWindowOptions',
      'window_dimensions:longs window_strides:longs base_dilations:longs window_dilations:longs padding:longs body_subgraph_index:i32',
    ),
  ],
  [B2.StablehloSortOptions, compact('StablehloSortOptions', 'dimension:i64 is_stable:bool comparator_subgraph_index:i32')],
  [B2.StablehloWhileOptions, compact('StablehloWhileOptions', 'cond_subgraph_index:i32 body_subgraph_index:i32')],
  [
    B2.StablehloGatherOptions,
    compact(
      'StablehloGatherOptions',
      'offset_dims:longs collapsed_slice_dims:longs start_index_map:longs index_vector_dim:i64 slice_sizes:longs indices_are_sorted:bool',
    ),
  ],
  [B2.StablehloTransposeOptions, compact('StablehloTransposeOptions', 'permutation:longs')],
  [B2.StablehloRngBitGeneratorOptions, compact('StablehloRngBitGeneratorOptions', 'algorithm:u8')],
  [B2.ReduceWindowOptions, compact('ReduceWindowOptions', 'reduce_function:i32')],
  [
    B2.StableHLOCompositeOptions,
    compact(
      'StableHLOCompositeOptions',
      'name:str decomposition_subgraph_index:i32 composite_attributes:bytes composite_attributes_format:u8 version:i32',
    ),
  ],
  [B2.StablehloCaseOptions, compact('StablehloCaseOptions', 'branch_subgraph_indices:ints')],
];

const gelu = scalars('GeluOptions', [['approximate', 1]]);
const oneHot = scalars('OneHotOptions', [['axis', 4]]);
const unique = scalars('UniqueOptions', [['idx_out_type', 1]]);
const reverseSequence = scalars('ReverseSequenceOptions', [
  ['seq_dim', 4],
  ['batch_dim', 4],
]);
const lrn = table('LocalResponseNormalizationOptions', [
  ['radius', i32],
  ['bias', f32],
  ['alpha', f32],
  ['beta', f32],
]);
const fakeQuant = table('FakeQuantOptions', [
  ['min', f32],
  ['max', f32],
  ['num_bits', i32],
  ['narrow_range', u8],
]);
const conv3D = scalars('Conv3DOptions', [
  ['padding', 1],
  ['stride_d', 4],
  ['stride_w', 4],
  ['stride_h', 4],
  ['fused_activation_function', 1],
  ['dilation_d_factor', 4],
  ['dilation_w_factor', 4],
  ['dilation_h_factor', 4],
]);
const random = table('RandomOptions', [
  ['seed', u64],
  ['seed2', u64],
]);
const bucketize = table('BucketizeOptions', [['boundaries', floats]]);
const embeddingLookupSparse = scalars('EmbeddingLookupSparseOptions', [['combiner', 1]]);
const sparseToDense = scalars('SparseToDenseOptions', [['validate_indices', 1]]);
const rnn = scalars('RNNOptions', [
  ['fused_activation_function', 1],
  ['asymmetric_quantize_inputs', 1],
]);
const lstm = table('LSTMOptions', [
  ['fused_activation_function', u8],
  ['cell_clip', f32],
  ['proj_clip', f32],
  ['kernel_type', u8],
  ['asymmetric_quantize_inputs', u8],
]);
const sequenceRnn = scalars('SequenceRNNOptions', [
  ['time_major', 1],
  ['fused_activation_function', 1],
  ['asymmetric_quantize_inputs', 1],
]);
const bidirectionalSequenceLstm = table('BidirectionalSequenceLSTMOptions', [
  ['fused_activation_function', u8],
  ['cell_clip', f32],
  ['proj_clip', f32],
  ['merge_outputs', u8],
  ['time_major', u8],
  ['asymmetric_quantize_inputs', u8],
]);
const bidirectionalSequenceRnn = scalars('BidirectionalSequenceRNNOptions', [
  ['time_major', 1],
  ['fused_activation_function', 1],
  ['merge_outputs', 1],
  ['asymmetric_quantize_inputs', 1],
]);

/** Parsed option tables by their (1-based) position in the BuiltinOptions union. */
const PARSED_MEMBERS: Readonly<Record<number, TableLayout>> = {
  1: conv2D,
  2: depthwiseConv2D,
  5: pool2D,
  6: svdf,
  8: fullyConnected,
  9: softmax,
  10: concatenation,
  11: add,
  12: l2Norm,
  15: resizeBilinear,
  17: reshape,
  19: spaceToDepth,
  21: mul,
  23: gather,
  27: reducer,
  28: sub,
  29: div,
  30: squeeze,
  32: stridedSlice,
  35: split,
  37: cast,
  40: argMax,
  49: transposeConv,
  57: argMin,
  59: pack,
  64: unpack,
  71: unidirectionalSequenceLstm,
  74: resizeNearestNeighbor,
  75: leakyRelu,
  92: ifOptions,
  93: whileOptions,
  103: callOnce,
  111: varHandle,
  77: mirrorPad,
  79: splitV,
  94: depthToSpace,
  101: batchMatMul,
  102: cumsum,
  13: lrn,
  20: embeddingLookupSparse,
  50: sparseToDense,
  58: fakeQuant,
  61: oneHot,
  80: unique,
  87: reverseSequence,
  106: conv3D,
  114: random,
  115: bucketize,
  116: gelu,
  7: rnn,
  14: lstm,
  31: sequenceRnn,
  69: bidirectionalSequenceLstm,
  70: bidirectionalSequenceRnn,
};

/** Number of members of the BuiltinOptions union (RightShiftOptions = 126). */
const BUILTIN_OPTIONS_MEMBERS = B1.RightShiftOptions;
/** Number of members of the BuiltinOptions2 union (StablehloCaseOptions = 23). */
const BUILTIN_OPTIONS_2_MEMBERS = B2.StablehloCaseOptions;

const more = new Map(MORE_MEMBERS);
const builtinOptionsMembers: TableLayout[] = [];
for (let i = 1; i <= BUILTIN_OPTIONS_MEMBERS; i++) {
  builtinOptionsMembers.push(PARSED_MEMBERS[i] ?? more.get(i) ?? opaque(B1[i] ?? `BuiltinOptions#${i}`));
}
const options2 = new Map(OPTIONS_2_MEMBERS);
const builtinOptions2Members: TableLayout[] = [];
for (let i = 1; i <= BUILTIN_OPTIONS_2_MEMBERS; i++)
  builtinOptions2Members.push(options2.get(i) ?? opaque(B2[i] ?? `BuiltinOptions2#${i}`));

// --- model tables ----------------------------------------------------------------------------------------

const customQuantization = table('CustomQuantization', [['custom', bytes]]);

const blockwiseQuantization = compact('BlockwiseQuantization', 'scales:i32 zero_points:i32 block_size:i32');
const multiAxisQuantization = compact('MultiAxisQuantization', 'scales:i32 zero_points:i32 block_size:i32 quantized_dimensions:ints');

export const QUANTIZATION_LAYOUT = table('QuantizationParameters', [
  ['min', floats],
  ['max', floats],
  ['scale', floats],
  ['zero_point', longs],
  ['details', { kind: 'union', union: 'QuantizationDetails', members: [customQuantization, blockwiseQuantization, multiAxisQuantization] }],
  ['quantized_dimension', i32],
]);

const shorts: FieldKind = { kind: 'vector', elementSize: 2 };
const sparseIndexVector: FieldKind = {
  kind: 'union',
  union: 'SparseIndexVector',
  members: [
    table('Int32Vector', [['values', ints]]),
    table('Uint16Vector', [['values', shorts]]),
    table('Uint8Vector', [['values', bytes]]),
  ],
};

const dimensionMetadata = table('DimensionMetadata', [
  ['format', u8],
  ['dense_size', i32],
  ['array_segments', sparseIndexVector],
  ['array_indices', sparseIndexVector],
]);

export const SPARSITY_LAYOUT = table('SparsityParameters', [
  ['traversal_order', ints],
  ['block_map', ints],
  ['dim_metadata', { kind: 'tableVector', table: dimensionMetadata }],
]);

export const TENSOR_LAYOUT = table('Tensor', [
  ['shape', ints],
  ['type', u8],
  ['buffer', i32],
  ['name', str],
  ['quantization', { kind: 'table', table: QUANTIZATION_LAYOUT }],
  ['is_variable', u8],
  ['sparsity', { kind: 'table', table: SPARSITY_LAYOUT }],
  ['shape_signature', ints],
  ['has_rank', u8],
  ['variant_tensors', { kind: 'tableVector', table: compact('VariantSubType', 'shape:ints type:u8 has_rank:bool') }],
  ['external_buffer', i32],
]);

export const OPERATOR_LAYOUT = table('Operator', [
  ['opcode_index', i32],
  ['inputs', ints],
  ['outputs', ints],
  ['builtin_options', { kind: 'union', union: 'BuiltinOptions', members: builtinOptionsMembers }],
  ['custom_options', bytes],
  ['custom_options_format', u8],
  ['mutating_variable_inputs', bytes],
  ['intermediates', ints],
  ['large_custom_options_offset', u64],
  ['large_custom_options_size', u64],
  ['builtin_options_2', { kind: 'union', union: 'BuiltinOptions2', members: builtinOptions2Members }],
  ['debug_metadata_index', i32],
]);

export const SUBGRAPH_LAYOUT = table('SubGraph', [
  ['tensors', { kind: 'tableVector', table: TENSOR_LAYOUT }],
  ['inputs', ints],
  ['outputs', ints],
  ['operators', { kind: 'tableVector', table: OPERATOR_LAYOUT }],
  ['name', str],
  ['debug_metadata_index', i32],
]);

export const OPERATOR_CODE_LAYOUT = table('OperatorCode', [
  ['deprecated_builtin_code', u8],
  ['custom_code', str],
  ['version', i32],
  ['builtin_code', i32],
]);

export const BUFFER_LAYOUT = table('Buffer', [
  ['data', bytes],
  ['offset', u64],
  ['size', u64],
]);

const metadata = table('Metadata', [
  ['name', str],
  ['buffer', i32],
]);

const tensorMap = table('TensorMap', [
  ['name', str],
  ['tensor_index', i32],
]);

const signatureDef = table('SignatureDef', [
  ['inputs', { kind: 'tableVector', table: tensorMap }],
  ['outputs', { kind: 'tableVector', table: tensorMap }],
  ['signature_key', str],
  ['deprecated_tag', str],
  ['subgraph_index', i32],
]);

/** Root table of a .tflite file. */
export const MODEL_LAYOUT = table('Model', [
  ['version', i32],
  ['operator_codes', { kind: 'tableVector', table: OPERATOR_CODE_LAYOUT }],
  ['subgraphs', { kind: 'tableVector', table: SUBGRAPH_LAYOUT }],
  ['description', str],
  ['buffers', { kind: 'tableVector', table: BUFFER_LAYOUT }],
  ['metadata_buffer', ints],
  ['metadata', { kind: 'tableVector', table: metadata }],
  ['signature_defs', { kind: 'tableVector', table: signatureDef }],
  ['external_buffer_groups', { kind: 'tableVector', table: compact('ExternalBufferGroup', 'name:str') }],
  ['external_buffers', { kind: 'tableVector', table: compact('ExternalBuffer', 'id:u32 group:u32 offset:u64 length:u64 packing:str') }],
]);

/** The layout of `builtin_options_2` member `type` (1-based), or undefined when out of range. */
export function builtinOptions2Layout(type: number): TableLayout | undefined {
  return builtinOptions2Members[type - 1];
}
