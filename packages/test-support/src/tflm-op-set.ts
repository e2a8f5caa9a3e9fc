/**
 * TFLM's op set as data: every `Add…()` method of `tflite::MicroMutableOpResolver`
 * (tensorflow/lite/micro/micro_mutable_op_resolver.h, tensorflow/tflite-micro at
 * 90b983c2b3f1480642e040bbd2ddb37b998f3424, the commit ../shared/conformance-ops was recorded with),
 * each with the builtin operator it registers or the custom name it registers under.
 *
 * Where the list comes from: the header's Add… methods were transcribed one by one (a 2025 revision of
 * the header read with the search tool); `AddDynamicUpdateSlice`, `AddReduceAll` and `AddDecode` are in
 * the header at 90b983c although that revision lacks them — conformance-ops holds TFLM outputs of
 * DYNAMIC_UPDATE_SLICE and REDUCE_ALL recorded at that commit, and its README names the `TFLM_DECODE`
 * custom op as present. `AddCustom(name, registration)` (a user's own op) is not an op of the set.
 *
 * `home` says which micrort package must register the op (ops-reference for builtins and TFLM's kernel
 * directory custom ops, ops-signal for the signal library's `Signal*` ops); `notInDefaultBuild` marks
 * `AddEthosU`, which registers nothing unless TFLM is built for an Arm Ethos-U NPU target
 * (`Register_ETHOSU()` returns null otherwise), so a reference TFLM build has no such op either.
 */

/** One `Add…()` method of MicroMutableOpResolver. */
export interface TflmOp {
  /** The method, e.g. `AddConv2D`. */
  method: string;
  /** `builtin`: registers a BuiltinOperator; `custom`: registers a custom op by name. */
  kind: 'builtin' | 'custom';
  /** The builtin operator's schema name (`CONV_2D`) or the custom op's registered name (`SignalWindow`). */
  name: string;
  /** The micrort package expected to register it. */
  home: '@micrort/ops-reference' | '@micrort/ops-signal';
  /** Why a reference TFLM build registers nothing for it (only AddEthosU). */
  notInDefaultBuild?: string;
}

const B = (method: string, name: string): TflmOp => ({ method, kind: 'builtin', name, home: '@micrort/ops-reference' });
const C = (method: string, name: string): TflmOp => ({ method, kind: 'custom', name, home: '@micrort/ops-reference' });
const S = (method: string, name: string): TflmOp => ({ method, kind: 'custom', name, home: '@micrort/ops-signal' });

/** Every Add… method of TFLM's MicroMutableOpResolver at 90b983c, in the header's order. */
export const TFLM_OPS: readonly TflmOp[] = [
  B('AddAbs', 'ABS'),
  B('AddAdd', 'ADD'),
  B('AddAddN', 'ADD_N'),
  B('AddArgMax', 'ARG_MAX'),
  B('AddArgMin', 'ARG_MIN'),
  B('AddAssignVariable', 'ASSIGN_VARIABLE'),
  B('AddAveragePool2D', 'AVERAGE_POOL_2D'),
  B('AddBatchMatMul', 'BATCH_MATMUL'),
  B('AddBatchToSpaceNd', 'BATCH_TO_SPACE_ND'),
  B('AddBroadcastArgs', 'BROADCAST_ARGS'),
  B('AddBroadcastTo', 'BROADCAST_TO'),
  B('AddCallOnce', 'CALL_ONCE'),
  B('AddCast', 'CAST'),
  B('AddCeil', 'CEIL'),
  C('AddCircularBuffer', 'CIRCULAR_BUFFER'),
  B('AddConcatenation', 'CONCATENATION'),
  B('AddConv2D', 'CONV_2D'),
  B('AddCos', 'COS'),
  B('AddCumSum', 'CUMSUM'),
  C('AddDecode', 'TFLM_DECODE'),
  S('AddDelay', 'SignalDelay'),
  B('AddDepthToSpace', 'DEPTH_TO_SPACE'),
  B('AddDepthwiseConv2D', 'DEPTHWISE_CONV_2D'),
  B('AddDequantize', 'DEQUANTIZE'),
  C('AddDetectionPostprocess', 'TFLite_Detection_PostProcess'),
  B('AddDiv', 'DIV'),
  B('AddDynamicUpdateSlice', 'DYNAMIC_UPDATE_SLICE'),
  B('AddEmbeddingLookup', 'EMBEDDING_LOOKUP'),
  S('AddEnergy', 'SignalEnergy'),
  B('AddElu', 'ELU'),
  B('AddEqual', 'EQUAL'),
  {
    method: 'AddEthosU',
    kind: 'custom',
    name: 'ethos-u',
    home: '@micrort/ops-reference',
    notInDefaultBuild: 'Register_ETHOSU() is null unless TFLM is built for an Arm Ethos-U NPU; AddEthosU then registers nothing',
  },
  B('AddExp', 'EXP'),
  B('AddExpandDims', 'EXPAND_DIMS'),
  S('AddFftAutoScale', 'SignalFftAutoScale'),
  B('AddFill', 'FILL'),
  S('AddFilterBank', 'SignalFilterBank'),
  S('AddFilterBankLog', 'SignalFilterBankLog'),
  S('AddFilterBankSquareRoot', 'SignalFilterBankSquareRoot'),
  S('AddFilterBankSpectralSubtraction', 'SignalFilterBankSpectralSubtraction'),
  B('AddFloor', 'FLOOR'),
  B('AddFloorDiv', 'FLOOR_DIV'),
  B('AddFloorMod', 'FLOOR_MOD'),
  S('AddFramer', 'SignalFramer'),
  B('AddFullyConnected', 'FULLY_CONNECTED'),
  B('AddGather', 'GATHER'),
  B('AddGatherNd', 'GATHER_ND'),
  B('AddGreater', 'GREATER'),
  B('AddGreaterEqual', 'GREATER_EQUAL'),
  B('AddHardSwish', 'HARD_SWISH'),
  B('AddIf', 'IF'),
  S('AddIrfft', 'SignalIrfft'),
  B('AddL2Normalization', 'L2_NORMALIZATION'),
  B('AddL2Pool2D', 'L2_POOL_2D'),
  B('AddLeakyRelu', 'LEAKY_RELU'),
  B('AddLess', 'LESS'),
  B('AddLessEqual', 'LESS_EQUAL'),
  B('AddLog', 'LOG'),
  B('AddLogicalAnd', 'LOGICAL_AND'),
  B('AddLogicalNot', 'LOGICAL_NOT'),
  B('AddLogicalOr', 'LOGICAL_OR'),
  B('AddLogistic', 'LOGISTIC'),
  B('AddLogSoftmax', 'LOG_SOFTMAX'),
  B('AddMaximum', 'MAXIMUM'),
  B('AddMaxPool2D', 'MAX_POOL_2D'),
  B('AddMirrorPad', 'MIRROR_PAD'),
  B('AddMean', 'MEAN'),
  B('AddMinimum', 'MINIMUM'),
  B('AddMul', 'MUL'),
  B('AddNeg', 'NEG'),
  B('AddNotEqual', 'NOT_EQUAL'),
  S('AddOverlapAdd', 'SignalOverlapAdd'),
  B('AddPack', 'PACK'),
  B('AddPad', 'PAD'),
  B('AddPadV2', 'PADV2'),
  S('AddPCAN', 'SignalPCAN'),
  B('AddPrelu', 'PRELU'),
  B('AddQuantize', 'QUANTIZE'),
  B('AddReadVariable', 'READ_VARIABLE'),
  B('AddReduceAll', 'REDUCE_ALL'),
  B('AddReduceMax', 'REDUCE_MAX'),
  B('AddReduceMin', 'REDUCE_MIN'),
  B('AddRelu', 'RELU'),
  B('AddRelu6', 'RELU6'),
  B('AddReshape', 'RESHAPE'),
  B('AddResizeBilinear', 'RESIZE_BILINEAR'),
  B('AddResizeNearestNeighbor', 'RESIZE_NEAREST_NEIGHBOR'),
  B('AddReverseV2', 'REVERSE_V2'),
  S('AddRfft', 'SignalRfft'),
  B('AddRound', 'ROUND'),
  B('AddRsqrt', 'RSQRT'),
  B('AddSelectV2', 'SELECT_V2'),
  B('AddShape', 'SHAPE'),
  B('AddSin', 'SIN'),
  B('AddSlice', 'SLICE'),
  B('AddSoftmax', 'SOFTMAX'),
  B('AddSpaceToBatchNd', 'SPACE_TO_BATCH_ND'),
  B('AddSpaceToDepth', 'SPACE_TO_DEPTH'),
  B('AddSplit', 'SPLIT'),
  B('AddSplitV', 'SPLIT_V'),
  B('AddSqueeze', 'SQUEEZE'),
  B('AddSqrt', 'SQRT'),
  B('AddSquare', 'SQUARE'),
  B('AddSquaredDifference', 'SQUARED_DIFFERENCE'),
  B('AddStridedSlice', 'STRIDED_SLICE'),
  S('AddStacker', 'SignalStacker'),
  B('AddSub', 'SUB'),
  B('AddSum', 'SUM'),
  B('AddSvdf', 'SVDF'),
  B('AddTanh', 'TANH'),
  B('AddTransposeConv', 'TRANSPOSE_CONV'),
  B('AddTranspose', 'TRANSPOSE'),
  B('AddUnpack', 'UNPACK'),
  B('AddUnidirectionalSequenceLSTM', 'UNIDIRECTIONAL_SEQUENCE_LSTM'),
  B('AddVarHandle', 'VAR_HANDLE'),
  B('AddWhile', 'WHILE'),
  S('AddWindow', 'SignalWindow'),
  B('AddZerosLike', 'ZEROS_LIKE'),
];

/** The resolver's key for an op of the set: the builtin name, or `CUSTOM:<name>`. */
export function resolverKey(op: TflmOp): string {
  return op.kind === 'builtin' ? op.name : `CUSTOM:${op.name}`;
}
