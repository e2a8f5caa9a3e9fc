import { BuiltinOperator } from '../builtin-ops.js';
import { ActivationFunctionType, FullyConnectedWeightsFormat, MirrorPadMode, Padding, type BuiltinOptions } from '../options.js';
import { BuiltinOptions as BuiltinOptionsType, BuiltinOptions2 as BuiltinOptions2Type } from './generated/tflite.js';

/**
 * Discriminant values of the schema's `BuiltinOptions` union (`BuiltinOptionsType.Conv2DOptions` = 1, ...;
 * 0 = NONE). The value is the member's position in the union, a fact of the file format.
 */
export { BuiltinOptionsType, BuiltinOptions2Type };

/** Number of members of the `BuiltinOptions` union (the largest valid discriminant). */
export const BUILTIN_OPTIONS_MAX = BuiltinOptionsType.RightShiftOptions;

/** Name of a `BuiltinOptions` discriminant (`Conv2DOptions`), or `BuiltinOptions#<n>` when unknown. */
export function builtinOptionsTypeName(type: number): string {
  return (BuiltinOptionsType as unknown as Record<number, string | undefined>)[type] ?? `BuiltinOptions#${type}`;
}

const T = BuiltinOptionsType;
const B = BuiltinOperator;

/**
 * The options tables micrort parses into the interfaces of options.ts, and the ops that use each.
 * For these ops the verifier rejects an operator whose `builtin_options_type` is set to anything else.
 */
const PARSED_OPTIONS_OPS: ReadonlyArray<readonly [BuiltinOptionsType, readonly BuiltinOperator[]]> = [
  [T.Conv2DOptions, [B.CONV_2D]],
  [T.DepthwiseConv2DOptions, [B.DEPTHWISE_CONV_2D]],
  [T.Pool2DOptions, [B.AVERAGE_POOL_2D, B.MAX_POOL_2D, B.L2_POOL_2D]],
  [T.SVDFOptions, [B.SVDF]],
  [T.FullyConnectedOptions, [B.FULLY_CONNECTED]],
  [T.SoftmaxOptions, [B.SOFTMAX]],
  [T.ConcatenationOptions, [B.CONCATENATION]],
  [T.AddOptions, [B.ADD]],
  [T.ReshapeOptions, [B.RESHAPE]],
  [T.MulOptions, [B.MUL]],
  [T.GatherOptions, [B.GATHER]],
  [T.ReducerOptions, [B.MEAN, B.SUM, B.REDUCE_PROD, B.REDUCE_MAX, B.REDUCE_MIN, B.REDUCE_ANY, B.REDUCE_ALL]],
  [T.SubOptions, [B.SUB]],
  [T.DivOptions, [B.DIV]],
  [T.SqueezeOptions, [B.SQUEEZE]],
  [T.StridedSliceOptions, [B.STRIDED_SLICE]],
  [T.SplitOptions, [B.SPLIT]],
  [T.CastOptions, [B.CAST]],
  [T.ArgMaxOptions, [B.ARG_MAX]],
  [T.TransposeConvOptions, [B.TRANSPOSE_CONV]],
  [T.PackOptions, [B.PACK]],
  [T.UnidirectionalSequenceLSTMOptions, [B.UNIDIRECTIONAL_SEQUENCE_LSTM]],
  [T.LeakyReluOptions, [B.LEAKY_RELU]],
  [T.IfOptions, [B.IF]],
  [T.WhileOptions, [B.WHILE]],
  [T.CallOnceOptions, [B.CALL_ONCE]],
  [T.VarHandleOptions, [B.VAR_HANDLE]],
  [T.ArgMinOptions, [B.ARG_MIN]],
  [T.LSHProjectionOptions, [B.LSH_PROJECTION]],
  [T.SkipGramOptions, [B.SKIP_GRAM]],
  [T.HashtableOptions, [B.HASHTABLE]],
  [T.ResizeBilinearOptions, [B.RESIZE_BILINEAR]],
  [T.ResizeNearestNeighborOptions, [B.RESIZE_NEAREST_NEIGHBOR]],
  [T.SpaceToDepthOptions, [B.SPACE_TO_DEPTH]],
  [T.DepthToSpaceOptions, [B.DEPTH_TO_SPACE]],
  [T.MirrorPadOptions, [B.MIRROR_PAD]],
  [T.UnpackOptions, [B.UNPACK]],
  [T.SplitVOptions, [B.SPLIT_V]],
  [T.L2NormOptions, [B.L2_NORMALIZATION]],
  [T.BatchMatMulOptions, [B.BATCH_MATMUL]],
  [T.CumsumOptions, [B.CUMSUM]],
  [T.GeluOptions, [B.GELU]],
  [T.OneHotOptions, [B.ONE_HOT]],
  [T.UniqueOptions, [B.UNIQUE]],
  [T.ReverseSequenceOptions, [B.REVERSE_SEQUENCE]],
  [T.LocalResponseNormalizationOptions, [B.LOCAL_RESPONSE_NORMALIZATION]],
  [T.FakeQuantOptions, [B.FAKE_QUANT]],
  [T.Conv3DOptions, [B.CONV_3D, B.CONV_3D_TRANSPOSE]],
  [T.RandomOptions, [B.RANDOM_STANDARD_NORMAL, B.RANDOM_UNIFORM, B.MULTINOMIAL]],
  [T.BucketizeOptions, [B.BUCKETIZE]],
  [T.EmbeddingLookupSparseOptions, [B.EMBEDDING_LOOKUP_SPARSE]],
  [T.SparseToDenseOptions, [B.SPARSE_TO_DENSE]],
  [T.RNNOptions, [B.RNN]],
  [T.LSTMOptions, [B.LSTM]],
  [T.SequenceRNNOptions, [B.UNIDIRECTIONAL_SEQUENCE_RNN]],
  [T.BidirectionalSequenceLSTMOptions, [B.BIDIRECTIONAL_SEQUENCE_LSTM]],
  [T.BidirectionalSequenceRNNOptions, [B.BIDIRECTIONAL_SEQUENCE_RNN]],
];

/**
 * Options tables the TFLite converter writes for other builtin ops (micrort reads them as `{}`); used by
 * the model builder so that the files it writes look like the converter's.
 */
const OTHER_OPTIONS_OPS: ReadonlyArray<readonly [BuiltinOptionsType, readonly BuiltinOperator[]]> = [
  [T.ConcatEmbeddingsOptions, [B.CONCAT_EMBEDDINGS]],
  [T.CallOptions, [B.CALL]],
  [T.PadOptions, [B.PAD]],
  [T.BatchToSpaceNDOptions, [B.BATCH_TO_SPACE_ND]],
  [T.SpaceToBatchNDOptions, [B.SPACE_TO_BATCH_ND]],
  [T.TransposeOptions, [B.TRANSPOSE]],
  [T.ExpOptions, [B.EXP]],
  [T.TopKV2Options, [B.TOPK_V2]],
  [T.LogSoftmaxOptions, [B.LOG_SOFTMAX]],
  [T.DequantizeOptions, [B.DEQUANTIZE]],
  [T.MaximumMinimumOptions, [B.MAXIMUM, B.MINIMUM]],
  [T.LessOptions, [B.LESS]],
  [T.NegOptions, [B.NEG]],
  [T.PadV2Options, [B.PADV2]],
  [T.GreaterOptions, [B.GREATER]],
  [T.GreaterEqualOptions, [B.GREATER_EQUAL]],
  [T.LessEqualOptions, [B.LESS_EQUAL]],
  [T.SelectOptions, [B.SELECT]],
  [T.SliceOptions, [B.SLICE]],
  [T.TileOptions, [B.TILE]],
  [T.ExpandDimsOptions, [B.EXPAND_DIMS]],
  [T.EqualOptions, [B.EQUAL]],
  [T.NotEqualOptions, [B.NOT_EQUAL]],
  [T.ShapeOptions, [B.SHAPE]],
  [T.PowOptions, [B.POW]],
  [T.LogicalOrOptions, [B.LOGICAL_OR]],
  [T.LogicalAndOptions, [B.LOGICAL_AND]],
  [T.LogicalNotOptions, [B.LOGICAL_NOT]],
  [T.FloorDivOptions, [B.FLOOR_DIV]],
  [T.SquareOptions, [B.SQUARE]],
  [T.ZerosLikeOptions, [B.ZEROS_LIKE]],
  [T.FillOptions, [B.FILL]],
  [T.FloorModOptions, [B.FLOOR_MOD]],
  [T.RangeOptions, [B.RANGE]],
  [T.SquaredDifferenceOptions, [B.SQUARED_DIFFERENCE]],
  [T.AbsOptions, [B.ABS]],
  [T.ReverseV2Options, [B.REVERSE_V2]],
  [T.AddNOptions, [B.ADD_N]],
  [T.GatherNdOptions, [B.GATHER_ND]],
  [T.CosOptions, [B.COS]],
  [T.WhereOptions, [B.WHERE]],
  [T.RankOptions, [B.RANK]],
  [T.MatrixDiagOptions, [B.MATRIX_DIAG]],
  [T.QuantizeOptions, [B.QUANTIZE]],
  [T.MatrixSetDiagOptions, [B.MATRIX_SET_DIAG]],
  [T.HardSwishOptions, [B.HARD_SWISH]],
  [T.NonMaxSuppressionV4Options, [B.NON_MAX_SUPPRESSION_V4]],
  [T.NonMaxSuppressionV5Options, [B.NON_MAX_SUPPRESSION_V5]],
  [T.ScatterNdOptions, [B.SCATTER_ND]],
  [T.SelectV2Options, [B.SELECT_V2]],
  [T.DensifyOptions, [B.DENSIFY]],
  [T.SegmentSumOptions, [B.SEGMENT_SUM]],
  [T.BroadcastToOptions, [B.BROADCAST_TO]],
  [T.Rfft2dOptions, [B.RFFT2D]],
  [T.HashtableFindOptions, [B.HASHTABLE_FIND]],
  [T.HashtableImportOptions, [B.HASHTABLE_IMPORT]],
  [T.HashtableSizeOptions, [B.HASHTABLE_SIZE]],
  [T.ReadVariableOptions, [B.READ_VARIABLE]],
  [T.AssignVariableOptions, [B.ASSIGN_VARIABLE]],
  [T.DynamicUpdateSliceOptions, [B.DYNAMIC_UPDATE_SLICE]],
  [T.UnsortedSegmentProdOptions, [B.UNSORTED_SEGMENT_PROD]],
  [T.UnsortedSegmentMaxOptions, [B.UNSORTED_SEGMENT_MAX]],
  [T.UnsortedSegmentMinOptions, [B.UNSORTED_SEGMENT_MIN]],
  [T.UnsortedSegmentSumOptions, [B.UNSORTED_SEGMENT_SUM]],
  [T.ATan2Options, [B.ATAN2]],
  [T.SignOptions, [B.SIGN]],
  [T.BitcastOptions, [B.BITCAST]],
  [T.BitwiseXorOptions, [B.BITWISE_XOR]],
  [T.RightShiftOptions, [B.RIGHT_SHIFT]],
];

function indexByOp(
  groups: ReadonlyArray<readonly [BuiltinOptionsType, readonly BuiltinOperator[]]>,
  into: Map<number, BuiltinOptionsType>,
): void {
  for (const [type, ops] of groups) for (const op of ops) into.set(op, type);
}

const PARSED_BY_OP = new Map<number, BuiltinOptionsType>();
indexByOp(PARSED_OPTIONS_OPS, PARSED_BY_OP);
const ALL_BY_OP = new Map<number, BuiltinOptionsType>(PARSED_BY_OP);
indexByOp(OTHER_OPTIONS_OPS, ALL_BY_OP);
const PARSED_TYPES = new Set<number>(PARSED_OPTIONS_OPS.map(([type]) => type));

/**
 * The `BuiltinOptions` discriminant the TFLite converter writes for builtin op `code`
 * (`BuiltinOptionsType.NONE` = 0 for ops without options, such as RELU or LOGISTIC).
 */
export function builtinOptionsTypeForOp(code: number): BuiltinOptionsType {
  return ALL_BY_OP.get(code) ?? T.NONE;
}

/**
 * The options type micrort parses for builtin op `code`, or `undefined` when micrort reads that op's
 * options as `{}`. Used by the verifier's "options type matches op" check.
 */
export function parsedOptionsTypeForOp(code: number): BuiltinOptionsType | undefined {
  return PARSED_BY_OP.get(code);
}

const T2 = BuiltinOptions2Type;

/** The `builtin_options_2` table of each StableHLO operator that has one (LiteRT's converter). */
const OPTIONS_2_OPS: ReadonlyArray<readonly [BuiltinOptions2Type, BuiltinOperator]> = [
  [T2.StablehloConcatenateOptions, B.STABLEHLO_CONCATENATE],
  [T2.StablehloBroadcastInDimOptions, B.STABLEHLO_BROADCAST_IN_DIM],
  [T2.StablehloSliceOptions, B.STABLEHLO_SLICE],
  [T2.StablehloConvolutionOptions, B.STABLEHLO_CONVOLUTION],
  [T2.StablehloCustomCallOptions, B.STABLEHLO_CUSTOM_CALL],
  [T2.StablehloReduceOptions, B.STABLEHLO_REDUCE],
  [T2.StablehloScatterOptions, B.STABLEHLO_SCATTER],
  [T2.StablehloCompareOptions, B.STABLEHLO_COMPARE],
  [T2.StablehloDynamicSliceOptions, B.STABLEHLO_DYNAMIC_SLICE],
  [T2.StablehloPadOptions, B.STABLEHLO_PAD],
  [T2.StablehloIotaOptions, B.STABLEHLO_IOTA],
  [T2.StablehloDotGeneralOptions, B.STABLEHLO_DOT_GENERAL],
  [T2.StablehloReduceWindowOptions, B.STABLEHLO_REDUCE_WINDOW],
  [T2.StablehloSortOptions, B.STABLEHLO_SORT],
  [T2.StablehloWhileOptions, B.STABLEHLO_WHILE],
  [T2.StablehloGatherOptions, B.STABLEHLO_GATHER],
  [T2.StablehloTransposeOptions, B.STABLEHLO_TRANSPOSE],
  [T2.DilateOptions, B.DILATE],
  [T2.StablehloRngBitGeneratorOptions, B.STABLEHLO_RNG_BIT_GENERATOR],
  [T2.ReduceWindowOptions, B.REDUCE_WINDOW],
  [T2.StableHLOCompositeOptions, B.STABLEHLO_COMPOSITE],
  [T2.StablehloShiftLeftOptions, B.STABLEHLO_SHIFT_LEFT],
  [T2.StablehloCaseOptions, B.STABLEHLO_CASE],
];
const OPTIONS_2_BY_OP = new Map<number, BuiltinOptions2Type>(OPTIONS_2_OPS.map(([type, op]) => [op, type]));

/**
 * The `builtin_options_2` discriminant of builtin op `code` (the StableHLO ops), or 0 (NONE). The verifier
 * rejects an operator of such an op whose `builtin_options_2_type` is another table.
 */
export function builtinOptions2TypeForOp(code: number): BuiltinOptions2Type {
  return OPTIONS_2_BY_OP.get(code) ?? T2.NONE;
}

/** Name of a `BuiltinOptions2` discriminant, or `BuiltinOptions2#<n>` when unknown. */
export function builtinOptions2TypeName(type: number): string {
  return (BuiltinOptions2Type as unknown as Record<number, string | undefined>)[type] ?? `BuiltinOptions2#${type}`;
}

/** True when micrort parses options of this union type into one of the interfaces of options.ts. */
export function isParsedOptionsType(type: number): boolean {
  return PARSED_TYPES.has(type);
}

/**
 * Options of `type` with every field at its schema default, as the loader produces for a table with no
 * fields set. Types micrort does not parse give `{}`.
 */
export function defaultBuiltinOptions(type: number): BuiltinOptions {
  switch (type) {
    case T.Conv2DOptions:
      return {
        padding: Padding.SAME,
        strideW: 0,
        strideH: 0,
        fusedActivationFunction: ActivationFunctionType.NONE,
        dilationWFactor: 1,
        dilationHFactor: 1,
        quantizedBiasType: 0,
      };
    case T.DepthwiseConv2DOptions:
      return {
        padding: Padding.SAME,
        strideW: 0,
        strideH: 0,
        depthMultiplier: 0,
        fusedActivationFunction: ActivationFunctionType.NONE,
        dilationWFactor: 1,
        dilationHFactor: 1,
      };
    case T.TransposeConvOptions:
      return {
        padding: Padding.SAME,
        strideW: 0,
        strideH: 0,
        fusedActivationFunction: ActivationFunctionType.NONE,
        quantizedBiasType: 0,
      };
    case T.Pool2DOptions:
      return {
        padding: Padding.SAME,
        strideW: 0,
        strideH: 0,
        filterWidth: 0,
        filterHeight: 0,
        fusedActivationFunction: ActivationFunctionType.NONE,
      };
    case T.FullyConnectedOptions:
      return {
        fusedActivationFunction: ActivationFunctionType.NONE,
        weightsFormat: FullyConnectedWeightsFormat.DEFAULT,
        keepNumDims: false,
        asymmetricQuantizeInputs: false,
        quantizedBiasType: 0,
      };
    case T.SoftmaxOptions:
      return { beta: 0 };
    case T.AddOptions:
    case T.SubOptions:
      return { fusedActivationFunction: ActivationFunctionType.NONE, potScaleInt16: true };
    case T.MulOptions:
    case T.DivOptions:
      return { fusedActivationFunction: ActivationFunctionType.NONE };
    case T.ConcatenationOptions:
      return { axis: 0, fusedActivationFunction: ActivationFunctionType.NONE };
    case T.ReshapeOptions:
      return { newShape: new Int32Array(0) };
    case T.ReducerOptions:
      return { keepDims: false };
    case T.StridedSliceOptions:
      return { beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0, offset: false };
    case T.SVDFOptions:
      return { rank: 0, fusedActivationFunction: ActivationFunctionType.NONE, asymmetricQuantizeInputs: false };
    case T.UnidirectionalSequenceLSTMOptions:
      return {
        fusedActivationFunction: ActivationFunctionType.NONE,
        cellClip: 0,
        projClip: 0,
        timeMajor: false,
        asymmetricQuantizeInputs: false,
        diagonalRecurrentTensors: false,
      };
    case T.LeakyReluOptions:
      return { alpha: 0 };
    case T.CastOptions:
      return { inDataType: 0, outDataType: 0 };
    case T.SqueezeOptions:
      return { squeezeDims: new Int32Array(0) };
    case T.GatherOptions:
      return { axis: 0, batchDims: 0 };
    case T.SplitOptions:
      return { numSplits: 0 };
    case T.PackOptions:
      return { valuesCount: 0, axis: 0 };
    case T.ArgMaxOptions:
    case T.ArgMinOptions:
      return { outputType: 0 };
    case T.IfOptions:
      return { thenSubgraphIndex: 0, elseSubgraphIndex: 0 };
    case T.WhileOptions:
      return { condSubgraphIndex: 0, bodySubgraphIndex: 0 };
    case T.CallOnceOptions:
      return { initSubgraphIndex: 0 };
    case T.VarHandleOptions:
      return { container: null, sharedName: null };
    case T.LSHProjectionOptions:
      return { type: 0 };
    case T.SkipGramOptions:
      return { ngramSize: 0, maxSkipSize: 0, includeAllNgrams: false };
    case T.HashtableOptions:
      return { tableId: 0, keyDtype: 0, valueDtype: 0 };
    case T.ResizeBilinearOptions:
    case T.ResizeNearestNeighborOptions:
      return { alignCorners: false, halfPixelCenters: false };
    case T.SpaceToDepthOptions:
    case T.DepthToSpaceOptions:
      return { blockSize: 0 };
    case T.MirrorPadOptions:
      return { mode: MirrorPadMode.REFLECT };
    case T.UnpackOptions:
      return { num: 0, axis: 0 };
    case T.SplitVOptions:
      return { numSplits: 0 };
    case T.L2NormOptions:
      return { fusedActivationFunction: ActivationFunctionType.NONE };
    case T.BatchMatMulOptions:
      return { adjX: false, adjY: false, asymmetricQuantizeInputs: false };
    case T.CumsumOptions:
      return { exclusive: false, reverse: false };
    case T.GeluOptions:
      return { approximate: false };
    case T.OneHotOptions:
      return { axis: 0 };
    case T.UniqueOptions:
      return { idxOutType: 2 }; // INT32
    case T.ReverseSequenceOptions:
      return { seqDim: 0, batchDim: 0 };
    case T.LocalResponseNormalizationOptions:
      return { radius: 0, bias: 0, alpha: 0, beta: 0 };
    case T.FakeQuantOptions:
      return { min: 0, max: 0, numBits: 0, narrowRange: false };
    case T.Conv3DOptions:
      return {
        padding: Padding.SAME,
        strideD: 0,
        strideW: 0,
        strideH: 0,
        fusedActivationFunction: ActivationFunctionType.NONE,
        dilationDFactor: 1,
        dilationWFactor: 1,
        dilationHFactor: 1,
      };
    case T.RandomOptions:
      return { seed: 0n, seed2: 0n };
    case T.BucketizeOptions:
      return { boundaries: new Float32Array(0) };
    case T.EmbeddingLookupSparseOptions:
      return { combiner: 0 };
    case T.RNNOptions:
      return { fusedActivationFunction: ActivationFunctionType.NONE, asymmetricQuantizeInputs: false };
    case T.LSTMOptions:
      return {
        fusedActivationFunction: ActivationFunctionType.NONE,
        cellClip: 0,
        projClip: 0,
        kernelType: 0,
        asymmetricQuantizeInputs: false,
      };
    case T.SequenceRNNOptions:
      return { timeMajor: false, fusedActivationFunction: ActivationFunctionType.NONE, asymmetricQuantizeInputs: false };
    case T.BidirectionalSequenceLSTMOptions:
      return {
        fusedActivationFunction: ActivationFunctionType.NONE,
        cellClip: 0,
        projClip: 0,
        mergeOutputs: false,
        timeMajor: true,
        asymmetricQuantizeInputs: false,
      };
    case T.BidirectionalSequenceRNNOptions:
      return {
        timeMajor: false,
        fusedActivationFunction: ActivationFunctionType.NONE,
        mergeOutputs: false,
        asymmetricQuantizeInputs: false,
      };
    case T.SparseToDenseOptions:
      return { validateIndices: false };
    default:
      return {};
  }
}
