/**
 * Binary layout of the TFLite tables micrort reads, as the structural verifier needs it: for each table,
 * the vtable slot (field id) and kind of every field, mirroring schema/tflite.fbs. Field ids count union
 * fields twice (the hidden `<name>_type` byte takes the slot before the value).
 */

/** How the bytes of one field are laid out. */
export type FieldKind =
  | { readonly kind: 'scalar'; readonly size: 1 | 2 | 4 | 8 }
  | { readonly kind: 'string' }
  | { readonly kind: 'vector'; readonly elementSize: 1 | 2 | 4 | 8 }
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

/** A table whose fields micrort does not read: only its own bounds are verified. */
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
const lshProjection = scalars('LSHProjectionOptions', [['type', 1]]);
const skipGram = scalars('SkipGramOptions', [
  ['ngram_size', 4],
  ['max_skip_size', 4],
  ['include_all_ngrams', 1],
]);
const hashtable = scalars('HashtableOptions', [
  ['table_id', 4],
  ['key_dtype', 1],
  ['value_dtype', 1],
]);

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
  4: lshProjection,
  5: pool2D,
  6: svdf,
  8: fullyConnected,
  9: softmax,
  10: concatenation,
  11: add,
  12: l2Norm,
  15: resizeBilinear,
  17: reshape,
  18: skipGram,
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
  107: hashtable,
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
const BUILTIN_OPTIONS_MEMBERS = 126;
/** Number of members of the BuiltinOptions2 union (StableHLOCompositeOptions = 21). */
const BUILTIN_OPTIONS_2_MEMBERS = 21;

const builtinOptionsMembers: TableLayout[] = [];
for (let i = 1; i <= BUILTIN_OPTIONS_MEMBERS; i++) {
  builtinOptionsMembers.push(PARSED_MEMBERS[i] ?? opaque(`BuiltinOptions#${i}`));
}
const builtinOptions2Members: TableLayout[] = [];
for (let i = 1; i <= BUILTIN_OPTIONS_2_MEMBERS; i++) builtinOptions2Members.push(opaque(`BuiltinOptions2#${i}`));

// --- model tables ----------------------------------------------------------------------------------------

const customQuantization = table('CustomQuantization', [['custom', bytes]]);

export const QUANTIZATION_LAYOUT = table('QuantizationParameters', [
  ['min', floats],
  ['max', floats],
  ['scale', floats],
  ['zero_point', longs],
  ['details', { kind: 'union', union: 'QuantizationDetails', members: [customQuantization] }],
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
]);

export const SUBGRAPH_LAYOUT = table('SubGraph', [
  ['tensors', { kind: 'tableVector', table: TENSOR_LAYOUT }],
  ['inputs', ints],
  ['outputs', ints],
  ['operators', { kind: 'tableVector', table: OPERATOR_LAYOUT }],
  ['name', str],
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
]);
