/**
 * Builtin operator options as plain objects. The loader parses each operator's `builtin_options` table
 * into one of these (field names are the schema's, in camelCase; defaults are the schema's defaults);
 * the model writer serializes them back. Kernels read them from `node.builtinData`.
 */

/** `Padding` enum of the schema. */
export enum Padding {
  SAME = 0,
  VALID = 1,
}

/** `ActivationFunctionType` enum of the schema. */
export enum ActivationFunctionType {
  NONE = 0,
  RELU = 1,
  RELU_N1_TO_1 = 2,
  RELU6 = 3,
  TANH = 4,
  SIGN_BIT = 5,
}

/** `FullyConnectedOptionsWeightsFormat` enum. */
export enum FullyConnectedWeightsFormat {
  DEFAULT = 0,
  SHUFFLED4x16INT8 = 1,
}

export interface Conv2DOptions {
  padding: Padding;
  strideW: number;
  strideH: number;
  fusedActivationFunction: ActivationFunctionType;
  dilationWFactor: number;
  dilationHFactor: number;
  /** TensorType of the quantized bias/accumulator (schema field `quantized_bias_type`), 0 when absent. */
  quantizedBiasType: number;
}

export interface DepthwiseConv2DOptions {
  padding: Padding;
  strideW: number;
  strideH: number;
  depthMultiplier: number;
  fusedActivationFunction: ActivationFunctionType;
  dilationWFactor: number;
  dilationHFactor: number;
}

export interface TransposeConvOptions {
  padding: Padding;
  strideW: number;
  strideH: number;
  fusedActivationFunction: ActivationFunctionType;
  quantizedBiasType: number;
}

export interface Pool2DOptions {
  padding: Padding;
  strideW: number;
  strideH: number;
  filterWidth: number;
  filterHeight: number;
  fusedActivationFunction: ActivationFunctionType;
}

export interface FullyConnectedOptions {
  fusedActivationFunction: ActivationFunctionType;
  weightsFormat: FullyConnectedWeightsFormat;
  keepNumDims: boolean;
  asymmetricQuantizeInputs: boolean;
  quantizedBiasType: number;
}

export interface SoftmaxOptions {
  beta: number;
}

export interface AddOptions {
  fusedActivationFunction: ActivationFunctionType;
  potScaleInt16: boolean;
}

export interface SubOptions {
  fusedActivationFunction: ActivationFunctionType;
  potScaleInt16: boolean;
}

export interface MulOptions {
  fusedActivationFunction: ActivationFunctionType;
}

export interface DivOptions {
  fusedActivationFunction: ActivationFunctionType;
}

export interface ConcatenationOptions {
  axis: number;
  fusedActivationFunction: ActivationFunctionType;
}

export interface ReshapeOptions {
  /** `new_shape`; empty when the options table or the vector is absent (the shape then comes from input 1 or the output). */
  newShape: Int32Array;
}

/** `ReducerOptions` (MEAN, SUM, REDUCE_MAX, ...). */
export interface ReducerOptions {
  keepDims: boolean;
}

export interface StridedSliceOptions {
  beginMask: number;
  endMask: number;
  ellipsisMask: number;
  newAxisMask: number;
  shrinkAxisMask: number;
  offset: boolean;
}

export interface SVDFOptions {
  rank: number;
  fusedActivationFunction: ActivationFunctionType;
  asymmetricQuantizeInputs: boolean;
}

export interface UnidirectionalSequenceLSTMOptions {
  fusedActivationFunction: ActivationFunctionType;
  cellClip: number;
  projClip: number;
  timeMajor: boolean;
  asymmetricQuantizeInputs: boolean;
  diagonalRecurrentTensors: boolean;
}

export interface LeakyReluOptions {
  alpha: number;
}

export interface CastOptions {
  inDataType: number;
  outDataType: number;
}

export interface SqueezeOptions {
  squeezeDims: Int32Array;
}

export interface GatherOptions {
  axis: number;
  batchDims: number;
}

export interface SplitOptions {
  numSplits: number;
}

export interface PackOptions {
  valuesCount: number;
  axis: number;
}

export interface ArgMaxOptions {
  outputType: number;
}

/** IF: the subgraphs run when the condition is true / false. */
export interface IfOptions {
  thenSubgraphIndex: number;
  elseSubgraphIndex: number;
}

/** WHILE: the condition subgraph (one bool output) and the body subgraph. */
export interface WhileOptions {
  condSubgraphIndex: number;
  bodySubgraphIndex: number;
}

/** CALL_ONCE: the subgraph run on the first invoke only. */
export interface CallOnceOptions {
  initSubgraphIndex: number;
}

/** VAR_HANDLE: the resource variable's name; `null` when the file leaves the string out. */
export interface VarHandleOptions {
  container: string | null;
  sharedName: string | null;
}

export interface ArgMinOptions {
  outputType: number;
}

/** LSH_PROJECTION: the projection type (schema LSHProjectionType: 1 SPARSE, 2 DENSE, 0 UNKNOWN). */
export interface LSHProjectionOptions {
  type: number;
}

/** SKIP_GRAM options. */
export interface SkipGramOptions {
  ngramSize: number;
  maxSkipSize: number;
  includeAllNgrams: boolean;
}

/** HASHTABLE: the table's id (tables are shared across subgraphs by id) and its key and value types. */
export interface HashtableOptions {
  tableId: number;
  keyDtype: number;
  valueDtype: number;
}

/** RESIZE_BILINEAR options (the deprecated new_height/new_width fields are not read). */
export interface ResizeBilinearOptions {
  alignCorners: boolean;
  halfPixelCenters: boolean;
}

export interface ResizeNearestNeighborOptions {
  alignCorners: boolean;
  halfPixelCenters: boolean;
}

/** SPACE_TO_DEPTH and DEPTH_TO_SPACE options. */
export interface SpaceToDepthOptions {
  blockSize: number;
}

export interface DepthToSpaceOptions {
  blockSize: number;
}

/** MirrorPadMode of the TFLite schema (REFLECT excludes the edge element, SYMMETRIC repeats it). */
export enum MirrorPadMode {
  REFLECT = 0,
  SYMMETRIC = 1,
}

export interface MirrorPadOptions {
  mode: MirrorPadMode;
}

export interface UnpackOptions {
  num: number;
  axis: number;
}

export interface SplitVOptions {
  numSplits: number;
}

export interface L2NormOptions {
  /** TFLM accepts only NONE. */
  fusedActivationFunction: ActivationFunctionType;
}

export interface BatchMatMulOptions {
  adjX: boolean;
  adjY: boolean;
  asymmetricQuantizeInputs: boolean;
}

export interface CumsumOptions {
  exclusive: boolean;
  reverse: boolean;
}

/** GELU: `approximate` selects the tanh approximation instead of the exact erf form. */
export interface GeluOptions {
  approximate: boolean;
}

export interface OneHotOptions {
  axis: number;
}

/** UNIQUE: the TensorType of the index output (INT32 or INT64). */
export interface UniqueOptions {
  idxOutType: number;
}

export interface ReverseSequenceOptions {
  seqDim: number;
  batchDim: number;
}

export interface LocalResponseNormalizationOptions {
  radius: number;
  bias: number;
  alpha: number;
  beta: number;
}

export interface FakeQuantOptions {
  min: number;
  max: number;
  numBits: number;
  narrowRange: boolean;
}

/** CONV_3D and CONV_3D_TRANSPOSE options. */
export interface Conv3DOptions {
  padding: Padding;
  strideD: number;
  strideW: number;
  strideH: number;
  fusedActivationFunction: ActivationFunctionType;
  dilationDFactor: number;
  dilationWFactor: number;
  dilationHFactor: number;
}

/** RANDOM_STANDARD_NORMAL, RANDOM_UNIFORM, MULTINOMIAL: the two 64-bit seeds (0 and 0: unseeded). */
export interface RandomOptions {
  seed: bigint;
  seed2: bigint;
}

export interface BucketizeOptions {
  boundaries: Float32Array;
}

/** EMBEDDING_LOOKUP_SPARSE: CombinerType SUM = 0, MEAN = 1, SQRTN = 2. */
export interface EmbeddingLookupSparseOptions {
  combiner: number;
}

export interface SparseToDenseOptions {
  validateIndices: boolean;
}

/** RNN: the activation of the hidden state. */
export interface RNNOptions {
  fusedActivationFunction: ActivationFunctionType;
  asymmetricQuantizeInputs: boolean;
}

/** LSTM: the cell and hidden activation, clips (0: none), LSTMKernelType FULL = 0 or BASIC = 1. */
export interface LSTMOptions {
  fusedActivationFunction: ActivationFunctionType;
  cellClip: number;
  projClip: number;
  kernelType: number;
  asymmetricQuantizeInputs: boolean;
}

/** UNIDIRECTIONAL_SEQUENCE_RNN. */
export interface SequenceRNNOptions {
  timeMajor: boolean;
  fusedActivationFunction: ActivationFunctionType;
  asymmetricQuantizeInputs: boolean;
}

/** BIDIRECTIONAL_SEQUENCE_LSTM (`timeMajor` defaults to true in the schema). */
export interface BidirectionalSequenceLSTMOptions {
  fusedActivationFunction: ActivationFunctionType;
  cellClip: number;
  projClip: number;
  mergeOutputs: boolean;
  timeMajor: boolean;
  asymmetricQuantizeInputs: boolean;
}

/** BIDIRECTIONAL_SEQUENCE_RNN. */
export interface BidirectionalSequenceRNNOptions {
  timeMajor: boolean;
  fusedActivationFunction: ActivationFunctionType;
  mergeOutputs: boolean;
  asymmetricQuantizeInputs: boolean;
}

/** Options of an op whose options table has no fields micrort reads (PadOptions, TransposeOptions, ...). */
export type EmptyOptions = Record<string, never>;

/** Any parsed builtin options object. */
export type BuiltinOptions =
  | Conv2DOptions
  | DepthwiseConv2DOptions
  | TransposeConvOptions
  | Pool2DOptions
  | FullyConnectedOptions
  | SoftmaxOptions
  | AddOptions
  | SubOptions
  | MulOptions
  | DivOptions
  | ConcatenationOptions
  | ReshapeOptions
  | ReducerOptions
  | StridedSliceOptions
  | SVDFOptions
  | UnidirectionalSequenceLSTMOptions
  | LeakyReluOptions
  | CastOptions
  | SqueezeOptions
  | GatherOptions
  | SplitOptions
  | PackOptions
  | ArgMaxOptions
  | IfOptions
  | WhileOptions
  | CallOnceOptions
  | VarHandleOptions
  | ArgMinOptions
  | LSHProjectionOptions
  | SkipGramOptions
  | HashtableOptions
  | ResizeBilinearOptions
  | ResizeNearestNeighborOptions
  | SpaceToDepthOptions
  | DepthToSpaceOptions
  | MirrorPadOptions
  | UnpackOptions
  | SplitVOptions
  | L2NormOptions
  | BatchMatMulOptions
  | CumsumOptions
  | GeluOptions
  | OneHotOptions
  | UniqueOptions
  | ReverseSequenceOptions
  | LocalResponseNormalizationOptions
  | FakeQuantOptions
  | Conv3DOptions
  | RandomOptions
  | BucketizeOptions
  | EmbeddingLookupSparseOptions
  | SparseToDenseOptions
  | RNNOptions
  | LSTMOptions
  | SequenceRNNOptions
  | BidirectionalSequenceLSTMOptions
  | BidirectionalSequenceRNNOptions
  | EmptyOptions;

// --- BuiltinOptions2: the StableHLO operators (LiteRT) -----------------------------------------------
// The loader reads every `builtin_options_2` table field by field (int64 dimensions and indices as
// int32, which the verifier checks they fit); these are the tables of the ops that have a kernel.

/** STABLEHLO_COMPOSITE: the composite's name and attributes, and the subgraph that decomposes it. */
export interface StablehloCompositeOptions {
  /** e.g. `odml.group_norm`, '' when absent. */
  name: string;
  decompositionSubgraphIndex: number;
  /** `composite_attributes` (a flexbuffer map when the format is FLEXBUFFERS = 0); empty when absent. */
  compositeAttributes: Uint8Array;
  compositeAttributesFormat: number;
  version: number;
}

/** STABLEHLO_SCATTER (XLA's scatter dimension numbers; the update computation is a subgraph). */
export interface StablehloScatterOptions {
  indicesAreSorted: boolean;
  updateWindowDims: Int32Array;
  insertedWindowDims: Int32Array;
  scatterDimsToOperandDims: Int32Array;
  indexVectorDim: number;
  uniqueIndices: boolean;
  updateComputationSubgraphIndex: number;
}

/** STABLEHLO_PAD: low/high edge padding (may be negative) and interior padding, per dimension. */
export interface StablehloPadOptions {
  edgePaddingLow: Int32Array;
  edgePaddingHigh: Int32Array;
  interiorPadding: Int32Array;
}

/** STABLEHLO_GATHER (XLA's gather dimension numbers). */
export interface StablehloGatherOptions {
  offsetDims: Int32Array;
  collapsedSliceDims: Int32Array;
  startIndexMap: Int32Array;
  indexVectorDim: number;
  sliceSizes: Int32Array;
  indicesAreSorted: boolean;
}

/** STABLEHLO_REDUCE_WINDOW: the window, and the body subgraph that names the reduction. */
export interface StablehloReduceWindowOptions {
  windowDimensions: Int32Array;
  windowStrides: Int32Array;
  baseDilations: Int32Array;
  windowDilations: Int32Array;
  /** Low and high padding per dimension, interleaved: [low0, high0, low1, high1, …]. */
  padding: Int32Array;
  bodySubgraphIndex: number;
}

/** STABLEHLO_RNG_BIT_GENERATOR: the `RngAlgorithm` (0 DEFAULT, 1 PHILOX, 2 THREEFRY). */
export interface StablehloRngBitGeneratorOptions {
  algorithm: number;
}

/** REDUCE_WINDOW (deprecated in LiteRT's schema): the `ReduceWindowFunction` (1 ADD … 6 ANY). */
export interface ReduceWindowOptions {
  reduceFunction: number;
}

/** STABLEHLO_CASE: the branch subgraphs, by the index input's value. */
export interface StablehloCaseOptions {
  branchSubgraphIndices: Int32Array;
}

/** Any other `builtin_options_2` table: its fields by camelCase name. */
export type StablehloOptions = Readonly<Record<string, number | boolean | string | Int32Array | Float32Array | Uint8Array>>;

/** Any parsed `builtin_options_2` table. */
export type BuiltinOptions2 =
  | StablehloCompositeOptions
  | StablehloScatterOptions
  | StablehloPadOptions
  | StablehloGatherOptions
  | StablehloReduceWindowOptions
  | StablehloRngBitGeneratorOptions
  | ReduceWindowOptions
  | StablehloCaseOptions
  | StablehloOptions;
