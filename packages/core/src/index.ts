/**
 * @micrort/core — model loading, the TfLiteContext callback table, the arena, the interpreter, the
 * op-resolver registry and the planner / delegate / schedule interfaces. Imports no plugin package.
 *
 * The public API, named one by one and grouped by who needs it. Internals stay internal: the graph
 * layer, the allocators, the context implementation, delegate partitioning, lifetime marking and the
 * allocation's jobs are reached through `MicroInterpreter` and the context only. The kernel test
 * harness is `@micrort/core/testing`.
 */

// --- Models: loading, verifying, writing and building .tflite files ----------------------------------
export { loadModel, type LoadOptions } from './model/loader.js';
export { verifyModel, TFLITE_FILE_IDENTIFIER, TFLITE_SCHEMA_VERSION, type VerifyOptions } from './model/verifier.js';
export { writeModel, type WriteOptions } from './model/writer.js';
export {
  ModelBuilder,
  type ModelBuilderOptions,
  type TensorSpec,
  type OperatorSpec,
  type QuantizationSpec,
  type BuiltinOptionsSpec,
} from './model/model-builder.js';
export type {
  ModelDef,
  SubgraphDef,
  TensorDef,
  OperatorDef,
  OperatorCodeDef,
  BufferDef,
  QuantizationDef,
  QuantizationDetailsDef,
  VariantSubTypeDef,
  ExternalBufferDef,
  ExternalBufferGroupDef,
  SparsityDef,
  SparseIndexType,
  SparseIndexArrayDef,
  DimensionMetadataDef,
  MetadataDef,
  RawOptionField,
  SignatureDefDef,
  SignatureTensorDef,
} from './model/model-def.js';
export { readOfflineMemoryAllocation, OFFLINE_MEMORY_ALLOCATION_METADATA, ONLINE_PLANNED_BUFFER } from './model/offline-plan.js';
export {
  BuiltinOptionsType,
  BuiltinOptions2Type,
  BUILTIN_OPTIONS_MAX,
  builtinOptions2TypeForOp,
  defaultBuiltinOptions,
  isParsedOptionsType,
} from './model/options-map.js';
export { defaultBuiltinOptions2 } from './model/options2-codec.js';
export { FlexBufferError, FlexType, FlexMap, parseFlexMap, type FlexValue } from './model/flexbuffers.js';
export { sparseLayout, SparsityError, type SparseLayout } from './model/sparsity.js';
export { BuiltinOperator, builtinOperatorName } from './builtin-ops.js';
export {
  ActivationFunctionType,
  Padding,
  FullyConnectedWeightsFormat,
  MirrorPadMode,
  type BuiltinOptions,
  type EmptyOptions,
  type AddOptions,
  type SubOptions,
  type MulOptions,
  type DivOptions,
  type Conv2DOptions,
  type DepthwiseConv2DOptions,
  type TransposeConvOptions,
  type Pool2DOptions,
  type FullyConnectedOptions,
  type SoftmaxOptions,
  type ConcatenationOptions,
  type ReshapeOptions,
  type SqueezeOptions,
  type StridedSliceOptions,
  type PackOptions,
  type UnpackOptions,
  type SplitOptions,
  type SplitVOptions,
  type GatherOptions,
  type CastOptions,
  type ArgMaxOptions,
  type ArgMinOptions,
  type ReducerOptions,
  type LeakyReluOptions,
  type L2NormOptions,
  type MirrorPadOptions,
  type ResizeBilinearOptions,
  type ResizeNearestNeighborOptions,
  type SpaceToDepthOptions,
  type DepthToSpaceOptions,
  type BatchMatMulOptions,
  type CumsumOptions,
  type SVDFOptions,
  type UnidirectionalSequenceLSTMOptions,
  type IfOptions,
  type WhileOptions,
  type CallOnceOptions,
  type VarHandleOptions,
  type BuiltinOptions2,
  type StablehloOptions,
  type StablehloCompositeOptions,
  type StablehloScatterOptions,
  type StablehloPadOptions,
  type StablehloGatherOptions,
  type StablehloReduceWindowOptions,
  type StablehloRngBitGeneratorOptions,
  type ReduceWindowOptions,
  type StablehloCaseOptions,
  type GeluOptions,
  type OneHotOptions,
  type UniqueOptions,
  type ReverseSequenceOptions,
  type LocalResponseNormalizationOptions,
  type FakeQuantOptions,
  type Conv3DOptions,
  type RandomOptions,
  type BucketizeOptions,
  type EmbeddingLookupSparseOptions,
  type SparseToDenseOptions,
  type LSHProjectionOptions,
  type RNNOptions,
  type LSTMOptions,
  type SequenceRNNOptions,
  type BidirectionalSequenceLSTMOptions,
  type BidirectionalSequenceRNNOptions,
  type SkipGramOptions,
  type HashtableOptions,
} from './options.js';

// --- Tensors and element types ---------------------------------------------------------------------
export {
  TensorType,
  ARENA_ALIGNMENT,
  alignUp,
  dataByteLength,
  elementSize,
  makeTypedView,
  numElements,
  tensorTypeFromName,
  tensorTypeName,
  type TensorData,
} from './types.js';
export { Tensor, AllocationType, type EvalTensor, type AffineQuantization, type QuantizationParams } from './kernel/tensor.js';
export { decodeStrings, encodeStrings, stringCount, stringHeaderBytes, stringStart, validateStringBuffer } from './kernel/strings.js';
export { DEFAULT_STRING_INPUT_BYTES } from './arena/micro-allocator.js';
export { ArenaRegion } from './kernel/arena-region.js';

// --- Running a model ---------------------------------------------------------------------------------
export {
  MicroInterpreter,
  type InterpreterOptions,
  type ResizeInputOptions,
  type NodeInfo,
  type PartitionInfo,
  type SkippedDelegate,
  type TensorOwner,
} from './interpreter/micro-interpreter.js';
export type { ArenaUsage } from './interpreter/arena-usage.js';
export type { CommittedPlan } from './arena/micro-allocator.js';
export { AUTO_ARENA_RESERVATION_BYTES, DEFAULT_MAX_ARENA_BYTES, type ArenaBacking } from './arena/single-arena-buffer-allocator.js';
export { FOLDABLE_OPS, FOLD_MAX_BYTES } from './interpreter/folding.js';
export type { ShapeNote } from './interpreter/shapes.js';
export { checkModel, type CheckOptions } from './interpreter/check.js';
export {
  failureReason,
  nodeLabel,
  summarizeFailures,
  mergeReasons,
  reasonShape,
  type CheckReport,
  type NodeCheck,
  type NodeCheckStatus,
  type CheckTensor,
  type CheckGroup,
  type CheckOp,
  type DeclinedProvider,
} from './interpreter/check-report.js';
export { MicroProfiler, type Profiler, type MicroProfilerOptions, type ProfileEvent, type NodeProfile } from './interpreter/profiler.js';
export {
  MicrortError,
  ModelError,
  ArenaTooSmallError,
  ArenaLimitError,
  PhaseError,
  KernelError,
  UnsupportedOpError,
  ResolverError,
  InterpreterStateError,
  InputError,
  PlannerError,
  DelegateError,
  TensorResizeError,
  SubgraphShapeError,
  DataDependentShapeError,
  StringCapacityError,
  UnboundedStringError,
  type ModelErrorLocation,
} from './errors.js';

// --- Kernels: the registration contract, the callback table and the resolver -------------------------
export {
  Phase,
  type Node,
  type Registration,
  type ShapeRule,
  type TfLiteContext,
  type NodeAndRegistration,
  type InPlaceVariant,
  type AbsorbedPad,
  type SpatialBehaviour,
  type SpatialWindow,
  type SpatialPad,
  type SpatialPointwise,
  type ResourceVariables,
  type DelegateParams,
} from './kernel/api.js';
export { OpResolver, opDisplayName, type RegisterOptions, type Resolution } from './resolver/op-resolver.js';

// --- Plugins: memory planners, delegates, schedules ------------------------------------------------
export type { MemoryPlanner, MemoryPlan, BufferRequirement, PlanOptions } from './planner/memory-planner.js';
export { findPlanOverlap } from './planner/validate-plan.js';
export { inPlacePartners, type InPlacePair, type GrantedOverwrite } from './arena/in-place.js';
export { computeLifetimes, type Lifetimes, type PlanStep } from './arena/lifetimes.js';
export type { Delegate, DelegateOptions, DelegateFlags } from './delegate/delegate.js';
export type {
  Schedule,
  ScheduleRun,
  SchedulePlan,
  ScheduleStep,
  ScheduleNodeSpec,
  ScheduleTensorSpec,
} from './interpreter/schedule-hook.js';

// --- Composing a runtime from kernel packages (the tsyringe layer is @micrort/di) -------------------
export {
  withOptions,
  type KernelPackage,
  type KernelPackageChoice,
  type KernelPackageOption,
  type KernelPackageProvides,
  type KernelContribution,
  type KernelJoin,
  type ComposeEntry,
} from './compose/kernel-package.js';
export {
  composeRuntime,
  composeRuntimeAsync,
  CompositionError,
  type ComposedPackage,
  type ComposeOptions,
  type ComposedRuntime,
} from './compose/compose-runtime.js';

// --- Kernel math: TFLM's quantization arithmetic and kernel utilities ------------------------------
// (kept whole while the kernel-support layer takes over the shared kernel math)
export {
  INT32,
  clamp,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierGreaterThanOne,
  multiplyByQuantizedMultiplierInt64,
  reducedMultiplier16,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  roundingDivideByPOT,
  saturatingRoundingDoublingHighMul,
} from './quant/fixed-point.js';
export { frexp, quantizeMultiplier, roundHalfAwayFromZero, type QuantizedMultiplier } from './quant/quantize-multiplier.js';
export { INTEGER_FREXP_BAD_SHIFT, integerFrExp, quantizeMultiplierIntegerFrExp, type IntegerFrExpResult } from './quant/integer-frexp.js';
export {
  calculateInputRadius,
  checkedLog2,
  getQuantizedConvolutionMultiplier,
  preprocessSoftmaxScaling,
  quantizeMultiplierGreaterThanOne,
  quantizeMultiplierSmallerThanOneExp,
} from './quant/quantization-util.js';
export {
  countLeadingSignBits32,
  countLeadingZeros32,
  expOnIntervalBetweenNegativeOneQuarterAnd0Excl,
  expOnNegativeValues,
  fixedPointOne,
  getReciprocal,
  oneOverOnePlusXForXIn01,
  rescale,
  roundingHalfSum,
  saturatingAddInt16,
  saturatingAddInt32,
  saturatingRoundingDoublingHighMulInt16,
  saturatingRoundingMultiplyByPOT,
  saturatingSubInt16,
  saturatingSubInt32,
} from './quant/gemmlowp.js';
export { expF32, roundF32, truncToInt32X86 } from './quant/float32-math.js';
export { INT16_LUT_SIZE, genLutInt16, lutLookupInt16 } from './quant/lut.js';
export { REVERSE_SHIFT, getInvSqrtQuantizedMultiplierExp } from './quant/inv-sqrt.js';
export { SIGMOID_TABLE_UINT16, logisticInt16, logisticInt16Run, tanhInt16, tanhInt16Run } from './quant/int16-activation.js';
export {
  allocatePersistentOutput,
  check,
  checkArity,
  checkedQuantizeMultiplier,
  getEvalInput,
  getEvalOutput,
  getInput,
  getOptionalEvalInput,
  getOptionalInput,
  getOutput,
  sameShape,
  unsupportedType,
} from './kernel/kernel-util.js';
