/**
 * What each TFLM kernel allocates in the arena, per op: the builtin-options struct its parser allocates
 * (tensorflow/lite/core/api/flatbuffer_conversions.cc), the op data its Init allocates
 * (AllocatePersistentBuffer(sizeof(OpData))), and what its Prepare allocates (temp TfLiteTensors,
 * per-channel arrays, tables), following the reference kernels in tensorflow/lite/micro/kernels/ at
 * tflite-micro commit 90b983c2b3f1480642e040bbd2ddb37b998f3424. Struct layouts are computed for each ABI
 * from the member lists below, so the same entry gives the LP64 and the ILP32 figures.
 */
import { BuiltinOperator, TensorType, parseFlexMap } from '@micrort/core';
import { alignTo, struct, sizeOf, type Abi, type StructDef } from '../abi.js';
import { TfLiteEvalTensor as TfLiteEvalTensorStruct } from './structs.js';
import type { KernelArena, KernelModel } from './kernel-model.js';
import type { NodeView } from './node-view.js';

const K = 'tensorflow/lite/micro/kernels/';
const BUILTIN_OP_DATA_H = 'tensorflow/lite/core/c/builtin_op_data.h';

// ---------------------------------------------------------------------------------------------------
// Builtin options structs (builtin_op_data.h); `enum` members are TfLiteType, TfLiteFusedActivation,
// TfLitePadding and the like.

const p = (name: string, fields: readonly (readonly [string, Parameters<typeof struct>[2][number][1]])[]): StructDef =>
  struct(name, BUILTIN_OP_DATA_H, fields);

/** TfLitePaddingValues (builtin_op_data.h). */
export const TfLitePaddingValues = struct('TfLitePaddingValues', BUILTIN_OP_DATA_H, [
  ['width', 'int'],
  ['height', 'int'],
  ['width_offset', 'int'],
  ['height_offset', 'int'],
]);

export const TfLiteFullyConnectedParams = p('TfLiteFullyConnectedParams', [
  ['activation', 'enum'],
  ['weights_format', 'enum'],
  ['keep_num_dims', 'bool'],
  ['asymmetric_quantize_inputs', 'bool'],
  ['quantized_bias_type', 'enum'],
]);

export const TfLiteConvParams = p('TfLiteConvParams', [
  ['padding', 'enum'],
  ['stride_width', 'int'],
  ['stride_height', 'int'],
  ['activation', 'enum'],
  ['dilation_width_factor', 'int'],
  ['dilation_height_factor', 'int'],
  ['quantized_bias_type', 'enum'],
]);

export const TfLiteDepthwiseConvParams = p('TfLiteDepthwiseConvParams', [
  ['padding', 'enum'],
  ['stride_width', 'int'],
  ['stride_height', 'int'],
  ['depth_multiplier', 'int'],
  ['activation', 'enum'],
  ['dilation_width_factor', 'int'],
  ['dilation_height_factor', 'int'],
]);

export const TfLiteSoftmaxParams = p('TfLiteSoftmaxParams', [['beta', 'float']]);
export const TfLiteReshapeParams = p('TfLiteReshapeParams', [
  ['shape', { array: 'int32', length: 8 }],
  ['num_dimensions', 'int'],
]);
export const TfLiteSVDFParams = p('TfLiteSVDFParams', [
  ['rank', 'int'],
  ['activation', 'enum'],
  ['asymmetric_quantize_inputs', 'bool'],
]);

export const TfLiteAddParams = p('TfLiteAddParams', [
  ['activation', 'enum'],
  ['pot_scale_int16', 'bool'],
]);
export const TfLiteSubParams = p('TfLiteSubParams', [
  ['activation', 'enum'],
  ['pot_scale_int16', 'bool'],
]);
export const TfLiteMulParams = p('TfLiteMulParams', [['activation', 'enum']]);
export const TfLiteDivParams = p('TfLiteDivParams', [['activation', 'enum']]);
export const TfLitePoolParams = p('TfLitePoolParams', [
  ['padding', 'enum'],
  ['stride_width', 'int'],
  ['stride_height', 'int'],
  ['filter_width', 'int'],
  ['filter_height', 'int'],
  ['activation', 'enum'],
  ['computed', TfLitePaddingValues],
]);
export const TfLiteUnidirectionalSequenceLSTMParams = p('TfLiteUnidirectionalSequenceLSTMParams', [
  ['activation', 'enum'],
  ['cell_clip', 'float'],
  ['proj_clip', 'float'],
  ['time_major', 'bool'],
  ['asymmetric_quantize_inputs', 'bool'],
  ['diagonal_recurrent_tensors', 'bool'],
]);
export const TfLiteConcatenationParams = p('TfLiteConcatenationParams', [
  ['axis', 'int'],
  ['activation', 'enum'],
]);
export const TfLiteReducerParams = p('TfLiteReducerParams', [['keep_dims', 'bool']]);
export const TfLiteStridedSliceParams = p('TfLiteStridedSliceParams', [
  ['begin_mask', 'int'],
  ['end_mask', 'int'],
  ['ellipsis_mask', 'int'],
  ['new_axis_mask', 'int'],
  ['shrink_axis_mask', 'int'],
  ['offset', 'bool'],
]);
export const TfLiteCastParams = p('TfLiteCastParams', [
  ['in_data_type', 'enum'],
  ['out_data_type', 'enum'],
]);

export const TfLiteArgMaxParams = p('TfLiteArgMaxParams', [['output_type', 'enum']]);
export const TfLiteArgMinParams = p('TfLiteArgMinParams', [['output_type', 'enum']]);
export const TfLiteBatchMatMulParams = p('TfLiteBatchMatMulParams', [
  ['adj_x', 'bool'],
  ['adj_y', 'bool'],
  ['asymmetric_quantize_inputs', 'bool'],
]);
export const TfLiteCallOnceParams = p('TfLiteCallOnceParams', [['init_subgraph_index', 'int']]);
export const TfLiteCumsumParams = p('TfLiteCumsumParams', [
  ['exclusive', 'bool'],
  ['reverse', 'bool'],
]);
export const TfLiteDepthToSpaceParams = p('TfLiteDepthToSpaceParams', [['block_size', 'int']]);
export const TfLiteSpaceToDepthParams = p('TfLiteSpaceToDepthParams', [['block_size', 'int']]);
export const TfLiteGatherParams = p('TfLiteGatherParams', [
  ['axis', 'int'],
  ['batch_dims', 'int'],
]);
export const TfLiteIfParams = p('TfLiteIfParams', [
  ['then_subgraph_index', 'int'],
  ['else_subgraph_index', 'int'],
]);
export const TfLiteWhileParams = p('TfLiteWhileParams', [
  ['cond_subgraph_index', 'int'],
  ['body_subgraph_index', 'int'],
]);
export const TfLiteL2NormParams = p('TfLiteL2NormParams', [['activation', 'enum']]);
export const TfLiteLeakyReluParams = p('TfLiteLeakyReluParams', [['alpha', 'float']]);
export const TfLiteMirrorPaddingParams = p('TfLiteMirrorPaddingParams', [['mode', 'enum']]);
export const TfLitePackParams = p('TfLitePackParams', [
  ['values_count', 'int'],
  ['axis', 'int'],
]);
export const TfLiteUnpackParams = p('TfLiteUnpackParams', [
  ['num', 'int'],
  ['axis', 'int'],
]);
export const TfLiteResizeBilinearParams = p('TfLiteResizeBilinearParams', [
  ['align_corners', 'bool'],
  ['half_pixel_centers', 'bool'],
]);
export const TfLiteResizeNearestNeighborParams = p('TfLiteResizeNearestNeighborParams', [
  ['align_corners', 'bool'],
  ['half_pixel_centers', 'bool'],
]);
export const TfLiteShapeParams = p('TfLiteShapeParams', [['out_type', 'enum']]);
export const TfLiteSplitParams = p('TfLiteSplitParams', [['num_splits', 'int']]);
export const TfLiteSplitVParams = p('TfLiteSplitVParams', [['num_splits', 'int']]);
export const TfLiteSqueezeParams = p('TfLiteSqueezeParams', [
  ['squeeze_dims', { array: 'int32', length: 8 }],
  ['num_squeeze_dims', 'int'],
]);
export const TfLiteVarHandleParams = p('TfLiteVarHandleParams', [
  ['container', 'ptr'],
  ['shared_name', 'ptr'],
]);
export const TfLiteTransposeConvParams = p('TfLiteTransposeConvParams', [
  ['padding', 'enum'],
  ['stride_width', 'int'],
  ['stride_height', 'int'],
  ['activation', 'enum'],
  ['quantized_bias_type', 'enum'],
]);

// ---------------------------------------------------------------------------------------------------
// Op data structs.

const TYPES_H = 'tensorflow/lite/kernels/internal/types.h';

/** types.h SoftmaxParams (SOFTMAX's op data). */
export const SoftmaxParams = struct('SoftmaxParams', TYPES_H, [
  ['beta', 'double'],
  ['input_multiplier', 'int32'],
  ['input_left_shift', 'int32'],
  ['reverse_scaling_divisor', 'int32'],
  ['reverse_scaling_right_shift', 'int32'],
  ['diff_min', 'int'],
  ['zero_point', 'int32'],
  ['scale', 'float'],
  ['table', 'ptr'],
  ['exp_lut', 'ptr'],
  ['one_over_one_plus_x_lut', 'ptr'],
  ['uint8_table1', 'ptr'],
  ['uint8_table2', 'ptr'],
]);

/** types.h QuantizationParams { int32_t zero_point; double scale; }. */
export const QuantizationParams = struct('QuantizationParams', TYPES_H, [
  ['zero_point', 'int32'],
  ['scale', 'double'],
]);

/** kernels/quantize.h OpDataQuantizeReference. */
export const OpDataQuantizeReference = struct('OpDataQuantizeReference', `${K}quantize.h`, [
  ['quantization_params', QuantizationParams],
  ['requantize_output_multiplier', 'int32'],
  ['requantize_output_shift', 'int'],
  ['input_zero_point', 'int32'],
]);

/** kernels/add.h OpDataAdd. */
export const OpDataAdd = struct('OpDataAdd', `${K}add.h`, [
  ['requires_broadcast', 'bool'],
  ['input1_shift', 'int'],
  ['input2_shift', 'int'],
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['input1_multiplier', 'int32'],
  ['input2_multiplier', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['left_shift', 'int'],
  ['input1_offset', 'int32'],
  ['input2_offset', 'int32'],
  ['output_offset', 'int32'],
  ['output_activation_min_f32', 'float'],
  ['output_activation_max_f32', 'float'],
]);

/** kernels/sub.h OpDataSub. */
export const OpDataSub = struct('OpDataSub', `${K}sub.h`, [
  ['requires_broadcast', 'bool'],
  ['input1_shift', 'int'],
  ['input2_shift', 'int'],
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['input1_multiplier', 'int32'],
  ['input2_multiplier', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['left_shift', 'int'],
  ['input1_offset', 'int32'],
  ['input2_offset', 'int32'],
  ['output_offset', 'int32'],
]);

/** kernels/mul.h OpDataMul. */
export const OpDataMul = struct('OpDataMul', `${K}mul.h`, [
  ['input1_zero_point', 'int32'],
  ['input2_zero_point', 'int32'],
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['output_zero_point', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['output_activation_min_f32', 'float'],
  ['output_activation_max_f32', 'float'],
]);

/** kernels/div.cc OpDataDiv. */
export const OpDataDiv = struct('OpDataDiv', `${K}div.cc`, [
  ['input1_zero_point', 'int32'],
  ['input2_zero_point', 'int32'],
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['output_zero_point', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
]);

/** kernels/logistic.h OpDataLogistic. */
export const OpDataLogistic = struct('OpDataLogistic', `${K}logistic.h`, [
  ['input_zero_point', 'int32'],
  ['input_range_radius', 'int32'],
  ['input_multiplier', 'int32'],
  ['input_left_shift', 'int'],
]);

/** kernels/pooling.h OpDataPooling. */
export const OpDataPooling = struct('OpDataPooling', `${K}pooling.h`, [
  ['padding', TfLitePaddingValues],
  ['activation_min', 'int32'],
  ['activation_max', 'int32'],
  ['activation_min_f32', 'float'],
  ['activation_max_f32', 'float'],
]);

/** types.h FullyConnectedParams (weights_format is an enum class : uint8_t). */
export const FullyConnectedParams = struct('FullyConnectedParams', TYPES_H, [
  ['input_offset', 'int32'],
  ['weights_offset', 'int32'],
  ['output_offset', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['quantized_activation_min', 'int32'],
  ['quantized_activation_max', 'int32'],
  ['float_activation_min', 'float'],
  ['float_activation_max', 'float'],
  ['lhs_cacheable', 'bool'],
  ['rhs_cacheable', 'bool'],
  ['weights_format', 'uint8'],
]);

/** types.h ArithmeticParams (broadcast_category is an enum class : uint8_t). */
export const ArithmeticParams = struct('ArithmeticParams', TYPES_H, [
  ['broadcast_category', 'uint8'],
  ['input1_offset', 'int32'],
  ['input2_offset', 'int32'],
  ['output_offset', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['left_shift', 'int'],
  ['input1_multiplier', 'int32'],
  ['input1_shift', 'int'],
  ['input2_multiplier', 'int32'],
  ['input2_shift', 'int'],
  ['quantized_activation_min', 'int32'],
  ['quantized_activation_max', 'int32'],
  ['float_activation_min', 'float'],
  ['float_activation_max', 'float'],
  ['int64_activation_min', 'int64'],
  ['int64_activation_max', 'int64'],
  ['int16_activation_min', 'int16'],
  ['int16_activation_max', 'int16'],
  ['broadcast_shape', { array: 'int', length: 5 }],
]);

const LSTM_SHARED_H = `${K}lstm_shared.h`;
const GateParameters = struct('GateParameters', LSTM_SHARED_H, [
  ['input_fc_params', FullyConnectedParams],
  ['recurrent_fc_params', FullyConnectedParams],
]);
const InterGateParameters = struct('InterGateParameters', LSTM_SHARED_H, [
  ['forget_cell_mul_params', ArithmeticParams],
  ['input_mul_params', ArithmeticParams],
  ['output_mul_params', ArithmeticParams],
]);

/** kernels/lstm_shared.h OpDataLSTM. */
export const OpDataLSTM = struct('OpDataLSTM', LSTM_SHARED_H, [
  [
    'size_info',
    struct('LstmSizeInfo', LSTM_SHARED_H, [
      ['time_major', 'bool'],
      ['batch_size', 'int'],
      ['time_steps', 'int'],
      ['input_dimension', 'int'],
      ['state_dimension', 'int'],
    ]),
  ],
  [
    'cell_state_info',
    struct('CellStateInfo', LSTM_SHARED_H, [
      ['cell_clip', 'float'],
      ['quantized_cell_clip', 'int16'],
      ['cell_state_scale_power', 'int32'],
    ]),
  ],
  ['cell_gate_nonlinear_type', 'enum'],
  ['forget_gate_parameters', GateParameters],
  ['input_gate_parameters', GateParameters],
  ['cell_gate_parameters', GateParameters],
  ['output_gate_parameters', GateParameters],
  ['inter_gate_parameters', InterGateParameters],
  ['buffer_indices', { array: 'int', length: 4 }],
]);

/** types.h StridedSliceParams (STRIDED_SLICE's op data). */
export const StridedSliceParams = struct('StridedSliceParams', TYPES_H, [
  ['start_indices_count', 'int8'],
  ['start_indices', { array: 'int32', length: 5 }],
  ['stop_indices_count', 'int8'],
  ['stop_indices', { array: 'int32', length: 5 }],
  ['strides_count', 'int8'],
  ['strides', { array: 'int32', length: 5 }],
  ['begin_mask', 'uint16'],
  ['ellipsis_mask', 'uint16'],
  ['end_mask', 'uint16'],
  ['new_axis_mask', 'uint16'],
  ['shrink_axis_mask', 'uint16'],
  ['offset', 'bool'],
]);

/** types.h PaddingValues (four int16). */
export const PaddingValues = struct('PaddingValues', TYPES_H, [
  ['width', 'int16'],
  ['height', 'int16'],
  ['width_offset', 'int16'],
  ['height_offset', 'int16'],
]);

/** types.h ConvParams (padding_type is an enum class : uint8_t). */
export const ConvParams = struct('ConvParams', TYPES_H, [
  ['padding_type', 'uint8'],
  ['padding_values', PaddingValues],
  ['stride_width', 'int16'],
  ['stride_height', 'int16'],
  ['dilation_width_factor', 'int16'],
  ['dilation_height_factor', 'int16'],
  ['input_offset', 'int32'],
  ['weights_offset', 'int32'],
  ['output_offset', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['quantized_activation_min', 'int32'],
  ['quantized_activation_max', 'int32'],
  ['float_activation_min', 'float'],
  ['float_activation_max', 'float'],
]);

/** kernels/transpose_conv.cc OpData. */
export const OpDataTransposeConv = struct('OpData (transpose_conv.cc)', `${K}transpose_conv.cc`, [
  ['params', ConvParams],
  ['scratch_buffer_index', 'int'],
  ['bias_converted_buffer_index', 'int'],
  ['per_channel_output_multiplier', 'ptr'],
  ['per_channel_output_shift', 'ptr'],
]);

/**
 * kernels/reduce.h OpDataReduce. At the reference commit MEAN/SUM's Prepare requests up to three scratch
 * buffers (the int32 sums, the temporary index of the input rank, the resolved axes; see
 * reduceMeanOrSumScratch), after TFLM moved the index arrays off the stack into the arena
 * (tflite-micro PR 3281); each request's index lives in the op data, so the struct holds three buffer
 * indices where the older reduce.h had two (temp_buffer_idx, resolved_axis_idx): 44 bytes, not 40. The
 * third field's name is ours; its position does not change the size (every member is 4 bytes).
 */
export const OpDataReduce = struct('OpDataReduce', `${K}reduce.h`, [
  ['multiplier', 'int32'],
  ['shift', 'int'],
  ['temp_buffer_idx', 'int'],
  ['resolved_axis_idx', 'int'],
  ['temp_index_idx', 'int'],
  ['input_zp', 'int'],
  ['input_scale', 'float'],
  ['output_zp', 'int'],
  ['output_scale', 'float'],
  ['num_output_elements', 'int'],
  ['num_axis', 'int'],
]);

/** types.h PadParams (resizing_category is an enum class : uint8_t). */
export const PadParams = struct('PadParams', TYPES_H, [
  ['left_padding_count', 'int8'],
  ['left_padding', { array: 'int32', length: 5 }],
  ['right_padding_count', 'int8'],
  ['right_padding', { array: 'int32', length: 5 }],
  ['resizing_category', 'uint8'],
]);

/** kernels/pad.cc OpData. */
export const OpDataPad = struct('OpData (pad.cc)', `${K}pad.cc`, [
  ['params', PadParams],
  ['output_zero_point', 'int32'],
]);

/** kernels/add_n.cc OpData (int8 only). */
export const OpDataAddN = struct('OpData (add_n.cc)', `${K}add_n.cc`, [
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['input_offset', 'int32'],
  ['output_offset', 'int32'],
  ['input_multiplier', 'int32'],
  ['output_multiplier', 'int32'],
  ['input_shift', 'int'],
  ['output_shift', 'int'],
  ['left_shift', 'int'],
  ['scratch_index', 'int'],
]);

/** kernels/embedding_lookup.cc OpData. */
export const OpDataEmbeddingLookup = struct('OpData (embedding_lookup.cc)', `${K}embedding_lookup.cc`, [
  ['scale', 'float'],
  ['num_columns', 'size_t'],
]);

/**
 * kernels/elementwise.cc OpDataAbsRsqrt. `input_quantization_type` is a TfLiteQuantizationType, which C++
 * sees as `enum : int` (tensorflow/lite/micro/c/common.h): 4 bytes and 4-aligned even with short enums,
 * so the struct is 28 bytes on both targets (20 if it were a short enum like `input_type`).
 */
export const OpDataAbsRsqrt = struct('OpDataAbsRsqrt', `${K}elementwise.cc`, [
  ['multiplier', 'int32'],
  ['shift', 'int'],
  ['input_offset', 'int'],
  ['output_offset', 'int'],
  ['needs_rescale', 'bool'],
  ['input_quantization_type', 'int-enum'],
  ['input_type', 'enum'],
]);

/** types.h ConcatenationParams, CONCATENATION's op data (concatenation.cc OpData { ConcatenationParams params; }). */
export const ConcatenationParams = struct('ConcatenationParams', TYPES_H, [
  ['axis', 'int8'],
  ['input_zeropoint', 'ptr'],
  ['input_scale', 'ptr'],
  ['inputs_count', 'uint16'],
  ['output_zeropoint', 'int32'],
  ['output_scale', 'float'],
]);

/** kernels/detection_postprocess.cc OpData. */
export const OpDataDetectionPostProcess = struct('OpData (detection_postprocess.cc)', `${K}detection_postprocess.cc`, [
  ['max_detections', 'int'],
  ['max_classes_per_detection', 'int'],
  ['detections_per_class', 'int'],
  ['non_max_suppression_score_threshold', 'float'],
  ['intersection_over_union_threshold', 'float'],
  ['num_classes', 'int'],
  ['use_regular_non_max_suppression', 'bool'],
  [
    'scale_values',
    struct('CenterSizeEncoding', `${K}detection_postprocess.cc`, [
      ['y', 'float'],
      ['x', 'float'],
      ['h', 'float'],
      ['w', 'float'],
    ]),
  ],
  ['scratch_indices', { array: 'int', length: 11 }],
  [
    'quantization_params',
    {
      array: struct('TfLiteQuantizationParams', 'tensorflow/lite/core/c/c_api_types.h', [
        ['scale', 'float'],
        ['zero_point', 'int32'],
      ]),
      length: 3,
    },
  ],
]);

/** kernels/cumsum.cc OpData (int8 only). */
export const OpDataCumSum = struct('OpData (cumsum.cc)', `${K}cumsum.cc`, [
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['input_offset', 'int32'],
  ['output_offset', 'int32'],
  ['input_multiplier', 'int32'],
  ['output_multiplier', 'int32'],
  ['input_shift', 'int'],
  ['output_shift', 'int'],
  ['left_shift', 'int'],
]);

/** kernels/batch_matmul.h QuantizationOpDataBatchMatmul. */
export const QuantizationOpDataBatchMatmul = struct('QuantizationOpDataBatchMatmul', `${K}batch_matmul.h`, [
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['lhs_zero_point', 'int32'],
  ['rhs_zero_point', 'int32'],
  ['output_zero_point', 'int32'],
]);

/** kernels/batch_matmul.h OpDataBatchMatmul. */
export const OpDataBatchMatmul = struct('OpDataBatchMatmul', `${K}batch_matmul.h`, [
  ['quantization', 'ptr'],
  ['lhs_transposed_tensor', 'ptr'],
  ['rhs_transposed_tensor', 'ptr'],
  ['rhs_is_transposed', 'bool'],
  ['lhs_is_constant_tensor', 'bool'],
  ['rhs_is_constant_tensor', 'bool'],
]);

/** types.h ComparisonParams, the whole op data of comparisons.cc (OpData { ComparisonParams params; }). */
export const ComparisonParams = struct('ComparisonParams', TYPES_H, [
  ['left_shift', 'int'],
  ['input1_offset', 'int32'],
  ['input1_multiplier', 'int32'],
  ['input1_shift', 'int'],
  ['input2_offset', 'int32'],
  ['input2_multiplier', 'int32'],
  ['input2_shift', 'int'],
  ['is_broadcast', 'bool'],
]);

/** kernels/elu.cc OpData { int8_t table[256]; }. */
export const OpDataElu = struct('OpData (elu.cc)', `${K}elu.cc`, [['table', { array: 'int8', length: 256 }]]);

/** types.h HardSwishParams (HARD_SWISH's op data). */
export const HardSwishParams = struct('HardSwishParams', TYPES_H, [
  ['input_zero_point', 'int16'],
  ['output_zero_point', 'int16'],
  ['reluish_multiplier_fixedpoint_int16', 'int16'],
  ['reluish_multiplier_exponent', 'int'],
  ['output_multiplier_fixedpoint_int16', 'int16'],
  ['output_multiplier_exponent', 'int'],
]);

/** types.h PreluParams (PRELU's op data). */
export const PreluParams = struct('PreluParams', TYPES_H, [
  ['input_offset', 'int32'],
  ['alpha_offset', 'int32'],
  ['output_offset', 'int32'],
  ['output_multiplier_1', 'int32'],
  ['output_shift_1', 'int'],
  ['output_multiplier_2', 'int32'],
  ['output_shift_2', 'int'],
]);

/** types.h L2NormalizationParams. */
export const L2NormalizationParams = struct('L2NormalizationParams', TYPES_H, [['input_zero_point', 'int32']]);

/** kernels/log_softmax.cc LogSoftmaxOpData (int8 only). */
export const LogSoftmaxOpData = struct('LogSoftmaxOpData', `${K}log_softmax.cc`, [
  ['input_multiplier', 'int32'],
  ['input_left_shift', 'int32'],
  ['reverse_scaling_divisor', 'int32'],
  ['reverse_scaling_right_shift', 'int32'],
  ['diff_min', 'int'],
  ['outer_size', 'size_t'],
  ['depth', 'size_t'],
]);

/** kernels/squared_difference.cc OpData. */
export const OpDataSquaredDifference = struct('OpData (squared_difference.cc)', `${K}squared_difference.cc`, [
  ['requires_broadcast', 'bool'],
  ['arithmetic_params', ArithmeticParams],
]);

/** kernels/svdf.h OpDataSvdf. */
export const OpDataSvdf = struct('OpDataSvdf', `${K}svdf.h`, [
  ['effective_scale_1_a', 'int32'],
  ['effective_scale_2_a', 'int32'],
  ['effective_scale_1_b', 'int'],
  ['effective_scale_2_b', 'int'],
  ['scratch_tensor_index', 'int'],
  ['scratch_output_tensor_index', 'int'],
  ['input_zero_point', 'int'],
  ['output_zero_point', 'int'],
  ['activation_state_zero_point', 'int'],
]);

/** kernels/conv.h OpDataConv (also DEPTHWISE_CONV_2D's op data). */
export const OpDataConv = struct('OpDataConv', `${K}conv.h`, [
  ['padding', TfLitePaddingValues],
  ['input_zero_point', 'int32'],
  ['filter_zero_point', 'int32'],
  ['output_zero_point', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['per_channel_output_multiplier', 'ptr'],
  ['per_channel_output_shift', 'ptr'],
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['filter_buffer_index', 'int'],
]);

/** kernels/fully_connected.h OpDataFullyConnected (not HEXAGON). */
export const OpDataFullyConnected = struct('OpDataFullyConnected', `${K}fully_connected.h`, [
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['output_activation_min', 'int32'],
  ['output_activation_max', 'int32'],
  ['input_quantized_index', 'int'],
  ['input_zero_point', 'int32'],
  ['filter_zero_point', 'int32'],
  ['output_zero_point', 'int32'],
  ['filter_buffer_index', 'int'],
  ['per_channel_output_multiplier', 'ptr'],
  ['per_channel_output_shift', 'ptr'],
  ['is_per_channel', 'bool'],
]);

// ---------------------------------------------------------------------------------------------------
// Signal library (signal/micro/kernels/, signal/src/): op data of its custom ops.

const SIG = 'signal/micro/kernels/';

/** signal/src/filter_bank.h FilterbankConfig. */
export const FilterbankConfig = struct('FilterbankConfig', 'signal/src/filter_bank.h', [
  ['num_channels', 'int32'],
  ['channel_frequency_starts', 'ptr'],
  ['channel_weight_starts', 'ptr'],
  ['channel_widths', 'ptr'],
  ['weights', 'ptr'],
  ['unweights', 'ptr'],
  ['output_scale', 'int32'],
  ['input_correction_bits', 'int32'],
]);

/** signal/src/filter_bank_spectral_subtraction.h SpectralSubtractionConfig (8 int32-sized fields and a bool). */
export const SpectralSubtractionConfig = struct('SpectralSubtractionConfig', 'signal/src/filter_bank_spectral_subtraction.h', [
  ['num_channels', 'int32'],
  ['smoothing', 'uint32'],
  ['one_minus_smoothing', 'uint32'],
  ['alternate_smoothing', 'uint32'],
  ['alternate_one_minus_smoothing', 'uint32'],
  ['smoothing_bits', 'int32'],
  ['min_signal_remaining', 'uint32'],
  ['clamping', 'bool'],
  ['spectral_subtraction_bits', 'int32'],
]);

/** rfft.cc TfLiteAudioFrontendRfftParams<T>. */
export const TfLiteAudioFrontendRfftParams = struct('TfLiteAudioFrontendRfftParams', `${SIG}rfft.cc`, [
  ['fft_length', 'int32'],
  ['input_size', 'int32'],
  ['input_length', 'int32'],
  ['output_length', 'int32'],
  ['fft_type', 'enum'],
  ['work_area', 'ptr'],
  ['scratch_buffer_index', 'int'],
  ['state', 'ptr'],
]);

/** kissfft's MAXFACTORS (kiss_fft.h). */
const KISS_MAX_FACTORS = 32;

/**
 * kiss_fftr_alloc's memneeded for `fftLength` real points (third_party/kissfft kiss_fftr.c and
 * kiss_fft.c, as RfftInt16/Int32/FloatGetNeededMemory call them): sizeof(kiss_fftr_state) (three
 * pointers) + kiss_fft_alloc's memneeded for nfft = fftLength / 2 complex points
 * (sizeof(kiss_fft_state) = nfft, inverse, factors[2 * MAXFACTORS], twiddles[1], plus nfft - 1 more
 * twiddles) + nfft * 3 / 2 super twiddles. `cpx` = sizeof(kiss_fft_cpx): 4 (int16), 8 (int32, float).
 */
export function kissFftrStateBytes(fftLength: number, cpx: number, abi: Abi): number {
  const nfft = fftLength >> 1;
  const kissFftState = alignTo(4 + 4 + 4 * 2 * KISS_MAX_FACTORS + cpx, 4);
  const sub = kissFftState + cpx * (nfft - 1);
  return 3 * abi.pointerBytes + sub + cpx * Math.floor((nfft * 3) / 2);
}

/** Reads the custom op's flexbuffer options (empty map when absent or unreadable). */
function customOptions(n: NodeView): Map<string, number> {
  const out = new Map<string, number>();
  if (!n.customOptions) return out;
  try {
    const m = parseFlexMap(n.customOptions);
    for (const k of m.keys) {
      const v = m.get(k);
      if (v) out.set(k, v.int32);
    }
  } catch {
    /* no options */
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Helpers.

const opData = (s: StructDef) => (_n: NodeView, abi: Abi) => [sizeOf(s, abi)];

/** Temp TfLiteTensors for inputs `ins` and outputs `outs`, in that order (the common Prepare pattern). */
function temps(r: KernelArena, ins: readonly number[], outs: readonly number[] = [0]): void {
  for (const i of ins) r.tempInput(i);
  for (const o of outs) r.tempOutput(o);
}

const FLOAT32 = TensorType.FLOAT32;
const INT16 = TensorType.INT16;
const INT8 = TensorType.INT8;

/** LUTSize<int16_t>() (kernels/internal/common.h): 513 entries. */
const INT16_LUT_ENTRIES = 513;

/** Whether any output shape of the node has a -1 (a stretch dimension RESHAPE resolves). */
function hasStretchDim(n: NodeView): boolean {
  return Array.from(n.outputs[0]?.shape ?? []).includes(-1);
}

/**
 * ConvPrepare / DepthwiseConvPrepare: temp output, input, filter; two int32 arrays of
 * filter->dims[quantizedDimension] channels (always, float too); then CalculateOpDataConv takes input,
 * filter, bias, output again and, for quantized types, fills the arrays (PopulateConvolutionQuantizationParams)
 * while the first temp tensors are still live.
 */
function convPrepare(quantizedDimension: number) {
  return (n: NodeView, r: KernelArena): void => {
    r.tempOutput(0);
    r.tempInput(0);
    r.tempInput(1);
    const channels = n.inputs[1]?.shape[quantizedDimension] ?? 0;
    const quantized = (n.inputs[0]?.type ?? FLOAT32) !== FLOAT32;
    r.persistent(4 * channels, 'per-channel multipliers', quantized ? 4 * channels : 0);
    r.persistent(4 * channels, 'per-channel shifts', quantized ? 4 * channels : 0);
    temps(r, [0, 1, 2]);
  };
}

/** reduce_common.cc PrepareSimple: input, axis, and for int8 the output. */
function reducePrepareSimple(n: NodeView, r: KernelArena): void {
  r.tempInput(0);
  r.tempInput(1);
  if (n.inputs[0]?.type === INT8) r.tempOutput(0);
}

/**
 * Scratch requests of PrepareMeanOrSumHelper at the reference commit: int32 index buffers of the input
 * rank and of the axis count (as PrepareMaxHelper), and for int8/int16 the int32 sum buffer of the output
 * size. (micrort's MEAN requests only the sum buffer.)
 */
function reduceMeanOrSumScratch(n: NodeView): number[] {
  const input = n.inputs[0];
  const out: number[] = [];
  if (input && (input.type === INT8 || input.type === INT16)) out.push(4 * (n.outputs[0]?.elements ?? 0));
  out.push(4 * (input?.shape.length ?? 0), 4 * (n.inputs[1]?.elements ?? 0));
  return out;
}

/** PrepareMaxHelper's scratch requests: int32 buffers of the input rank and of the axis count. */
function reduceMaxScratch(n: NodeView): number[] {
  return [4 * (n.inputs[0]?.shape.length ?? 0), 4 * (n.inputs[1]?.elements ?? 0)];
}

function reduceMeanOrSum(n: NodeView, r: KernelArena): void {
  r.tempInput(0);
  r.tempOutput(0);
  r.tempInput(1);
  reducePrepareSimple(n, r);
}

function reduceMaxOrMin(n: NodeView, r: KernelArena): void {
  reducePrepareSimple(n, r);
  r.tempInput(0);
  r.tempOutput(0);
  r.tempInput(1);
}

/** A reduce.cc kernel: Init allocates OpDataReduce; `prepare` and `scratch` as its Prepare helper. */
function reduceKernel(
  prepare: KernelModel['prepare'],
  scratch: KernelModel['scratch'],
  source = `${K}reduce.cc, ${K}reduce_common.cc`,
): KernelModel {
  return { source, params: TfLiteReducerParams, init: opData(OpDataReduce), prepare, scratch };
}

/** CreateWritableTensorDimsWithCopy (kernel_util.cc): a persistent TfLiteIntArray of the output rank, filled at once. */
function writableDims(n: NodeView, r: KernelArena, output = 0): void {
  r.persistent(4 + 4 * (n.outputs[output]?.shape.length ?? 0), 'writable output dims');
}

/** A Prepare that takes inputs `ins` and the output, then makes the output dims writable (`writableDims`). */
function tempsThenWritableDims(ins: readonly number[]): KernelModel['prepare'] {
  return (n, r) => {
    temps(r, ins);
    writableDims(n, r);
  };
}

/**
 * Whether this ASSIGN_VARIABLE is the first, in TFLM's prepare order, to assign its variable (resource
 * buffers are allocated once per variable). Variables are matched through the VAR_HANDLE that produces
 * the resource input, by container and shared name.
 */
function firstAssignment(n: NodeView): boolean {
  const key = (subgraph: number, tensor: number): string | null => {
    const ops = n.model.subgraphs[subgraph]!.operators;
    for (const op of ops) {
      if (op.outputs[0] !== tensor) continue;
      const code = n.model.operatorCodes[op.opcodeIndex]!;
      if (code.builtinCode !== BuiltinOperator.VAR_HANDLE) continue;
      const o = (op.builtinOptions ?? {}) as { container?: string; sharedName?: string };
      return `${o.container ?? ''}/${o.sharedName ?? ''}`;
    }
    return null;
  };
  const mine = key(n.subgraph, n.def.inputs[0] ?? -1);
  if (mine === null) return false; // resource id from another subgraph: TFLM allocates it only at Eval
  for (let s = 0; s <= n.subgraph; s++) {
    const ops = n.model.subgraphs[s]!.operators;
    for (let i = 0; i < (s === n.subgraph ? n.index : ops.length); i++) {
      const op = ops[i]!;
      if (n.model.operatorCodes[op.opcodeIndex]!.builtinCode !== BuiltinOperator.ASSIGN_VARIABLE) continue;
      if (key(s, op.inputs[0] ?? -1) === mine) return false;
    }
  }
  return true;
}

/** Every input, then every output, as temp tensors (omitted optional inputs skipped). */
function allTemps(n: NodeView, r: KernelArena): void {
  n.inputs.forEach((_, i) => r.tempInput(i));
  n.outputs.forEach((_, i) => r.tempOutput(i));
}

/** pooling.cc / pooling_common.cc PoolingPrepare (AVERAGE_POOL_2D, MAX_POOL_2D): OpDataPooling; input, output. */
function pooling(): KernelModel {
  return {
    source: `${K}pooling.cc, ${K}pooling_common.cc`,
    params: TfLitePoolParams,
    init: opData(OpDataPooling),
    prepare: (_n, r) => temps(r, [0]),
  };
}

function comparison(): KernelModel {
  return { source: `${K}comparisons.cc`, params: null, init: opData(ComparisonParams), prepare: (_n, r) => temps(r, [0, 1], []) };
}

/** Ops whose TFLM kernel has no op data, no parsed options, and a Prepare taking every input and output. */
function allTempsOps(): Record<string, KernelModel> {
  const files: Record<string, string> = {
    CEIL: 'ceil.cc',
    FLOOR: 'floor.cc',
    ROUND: 'round.cc',
    EXP: 'exp.cc',
    LOG: 'elementwise.cc',
    SIN: 'elementwise.cc',
    COS: 'elementwise.cc',
    SQRT: 'elementwise.cc',
    SQUARE: 'elementwise.cc',
    NEG: 'neg.cc',
    LOGICAL_AND: 'logical.cc',
    LOGICAL_OR: 'logical.cc',
    LOGICAL_NOT: 'elementwise.cc',
    ZEROS_LIKE: 'zeros_like.cc',
    FILL: 'fill.cc',
    EXPAND_DIMS: 'expand_dims.cc',
    SLICE: 'slice.cc',
    REVERSE_V2: 'reverse.cc',
    BROADCAST_TO: 'broadcast_to.cc',
    BROADCAST_ARGS: 'broadcast_args.cc',
    DYNAMIC_UPDATE_SLICE: 'dynamic_update_slice.cc',
    FLOOR_DIV: 'floor_div.cc',
    FLOOR_MOD: 'floor_mod.cc',
  };
  const out: Record<string, KernelModel> = {};
  for (const [op, file] of Object.entries(files)) out[op] = { source: `${K}${file}`, params: null, prepare: allTemps };
  return out;
}

// Op data of kernels no conformance model uses (read from the source, not checked against TFLM figures).

/** types.h ActivationParams (activation_type is an enum class : uint8_t). */
export const ActivationParams = struct('ActivationParams', TYPES_H, [
  ['activation_type', 'uint8'],
  ['quantized_activation_min', 'int32'],
  ['quantized_activation_max', 'int32'],
]);
/** types.h ReluParams (derives from ActivationParams). */
export const ReluParams = struct('ReluParams', TYPES_H, [
  ['base', ActivationParams],
  ['input_offset', 'int32'],
  ['output_offset', 'int32'],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
]);
/** activations.h ReluOpData. */
export const ReluOpData = struct('ReluOpData', `${K}activations.h`, [['params', ReluParams]]);
/** activations.h Relu6OpData (six and zero; any layout up to 16 bytes gives the same arena). */
export const Relu6OpData = struct('Relu6OpData', `${K}activations.h`, [
  ['six', 'int32'],
  ['zero', 'int32'],
]);
/** tanh.cc OpData. */
export const OpDataTanh = struct('OpData (tanh.cc)', `${K}tanh.cc`, [
  ['input_zero_point', 'int32'],
  ['input_range_radius', 'int32'],
  ['input_multiplier', 'int32'],
  ['input_left_shift', 'int'],
]);
/** leaky_relu.h LeakyReluOpData. */
export const LeakyReluOpData = struct('LeakyReluOpData', `${K}leaky_relu.h`, [
  ['output_multiplier_alpha', 'int32'],
  ['output_shift_alpha', 'int32'],
  ['output_multiplier_identity', 'int32'],
  ['output_shift_identity', 'int32'],
  ['input_zero_point', 'int32'],
  ['output_zero_point', 'int32'],
]);
/** types.h DequantizationParams. */
export const DequantizationParams = struct('DequantizationParams', TYPES_H, [
  ['scale', 'double'],
  ['zero_point', 'int32'],
]);
/** dequantize.h DequantizeOpData. */
export const DequantizeOpData = struct('DequantizeOpData', `${K}dequantize.h`, [
  ['quantization_params', DequantizationParams],
  ['output_multiplier', 'int32'],
  ['output_shift', 'int'],
  ['output_zero_point', 'int32'],
]);

// ---------------------------------------------------------------------------------------------------
// The table.

export const KERNELS: Readonly<Record<string, KernelModel>> = {
  /**
   * softmax.cc / softmax_common.cc: Init allocates SoftmaxParams; Prepare takes input and output; for an
   * int16 input InitializeLutForInt16 allocates and fills two int16 LUTs of LUTSize<int16_t>() entries.
   */
  SOFTMAX: {
    source: `${K}softmax.cc, ${K}softmax_common.cc`,
    params: TfLiteSoftmaxParams,
    init: opData(SoftmaxParams),
    prepare(n, r) {
      temps(r, [0]);
      if (n.inputs[0]?.type === INT16) {
        r.persistent(2 * INT16_LUT_ENTRIES, 'exp LUT');
        r.persistent(2 * INT16_LUT_ENTRIES, '1/(1+x) LUT');
      }
    },
  },
  /**
   * reshape.cc / reshape_common.cc: no op data; Prepare takes input and output; a -1 output dimension
   * makes CreateWritableTensorDimsWithCopy (kernel_util.cc) allocate a TfLiteIntArray of the output rank.
   */
  RESHAPE: {
    source: `${K}reshape.cc, ${K}reshape_common.cc`,
    params: TfLiteReshapeParams,
    prepare(n, r) {
      temps(r, [0]);
      if (hasStretchDim(n)) writableDims(n, r);
    },
  },
  /** quantize.cc / quantize_common.cc: Init allocates OpDataQuantizeReference; Prepare takes input and output. */
  /**
   * activations.cc / activations_common.cc: Init allocates ReluOpData; ReluPrepare takes input and output
   * (no conformance model uses RELU: read from the source only).
   */
  RELU: {
    source: `${K}activations.cc, ${K}activations_common.cc`,
    params: null,
    init: opData(ReluOpData),
    prepare: (_n, r) => temps(r, [0]),
  },
  /** activations.cc: Init allocates Relu6OpData; Relu6Prepare takes only the input (source only). */
  RELU6: {
    source: `${K}activations.cc, ${K}activations_common.cc`,
    params: null,
    init: opData(Relu6OpData),
    prepare: (_n, r) => temps(r, [0], []),
  },
  /** tanh.cc: Init allocates OpData; CalculateArithmeticOpData takes input and output (source only). */
  TANH: { source: `${K}tanh.cc`, params: null, init: opData(OpDataTanh), prepare: (_n, r) => temps(r, [0]) },
  /** leaky_relu.cc / leaky_relu_common.cc: Init allocates LeakyReluOpData; Prepare takes input and output (source only). */
  LEAKY_RELU: {
    source: `${K}leaky_relu.cc, ${K}leaky_relu_common.cc`,
    params: TfLiteLeakyReluParams,
    init: opData(LeakyReluOpData),
    prepare: (_n, r) => temps(r, [0]),
  },
  /** dequantize.cc / dequantize_common.cc: Init allocates DequantizeOpData; Prepare takes input and output (source only). */
  DEQUANTIZE: {
    source: `${K}dequantize.cc, ${K}dequantize_common.cc`,
    params: null,
    init: opData(DequantizeOpData),
    prepare: (_n, r) => temps(r, [0]),
  },
  QUANTIZE: {
    source: `${K}quantize.cc, ${K}quantize_common.cc`,
    params: null,
    init: opData(OpDataQuantizeReference),
    prepare: (_n, r) => temps(r, [0]),
  },
  /**
   * svdf.cc / svdf_common.cc PrepareSvdf: Init allocates OpDataSvdf; Prepare takes input, weights_feature,
   * weights_time, bias (optional), activation_state, then output.
   */
  SVDF: {
    source: `${K}svdf.cc, ${K}svdf_common.cc`,
    params: TfLiteSVDFParams,
    init: opData(OpDataSvdf),
    prepare: (_n, r) => temps(r, [0, 1, 2, 3, 4]),
    /** int32 [batch, num_filters] (and for int8 [batch, num_units]) scratch. */
    scratch(n) {
      const batch = n.inputs[0]?.shape[0] ?? 0;
      const filters = n.inputs[1]?.shape[0] ?? 0;
      const rank = (n.options as { rank?: number } | null)?.rank ?? 1;
      return n.inputs[0]?.type === INT8 ? [4 * batch * filters, 4 * batch * (filters / rank)] : [4 * batch * filters];
    },
  },
  /** add.cc / add_common.cc AddPrepare: Init allocates OpDataAdd; Prepare takes input1, input2, output. */
  ADD: { source: `${K}add.cc, ${K}add_common.cc`, params: TfLiteAddParams, init: opData(OpDataAdd), prepare: (_n, r) => temps(r, [0, 1]) },
  /** sub.cc / sub_common.cc SubPrepare: OpDataSub; input1, input2, output. */
  SUB: { source: `${K}sub.cc, ${K}sub_common.cc`, params: TfLiteSubParams, init: opData(OpDataSub), prepare: (_n, r) => temps(r, [0, 1]) },
  /** mul.cc / mul_common.cc MulPrepare: OpDataMul; input1, input2, output. */
  MUL: { source: `${K}mul.cc, ${K}mul_common.cc`, params: TfLiteMulParams, init: opData(OpDataMul), prepare: (_n, r) => temps(r, [0, 1]) },
  /** div.cc DivPrepare: OpDataDiv; input1, input2, output. */
  DIV: { source: `${K}div.cc`, params: TfLiteDivParams, init: opData(OpDataDiv), prepare: (_n, r) => temps(r, [0, 1]) },
  /** maximum_minimum.cc: registered with no Init and no Prepare. */
  MAXIMUM: { source: `${K}maximum_minimum.cc`, params: null },
  MINIMUM: { source: `${K}maximum_minimum.cc`, params: null },
  /** logistic.cc / logistic_common.cc: OpDataLogistic; input, output. */
  LOGISTIC: {
    source: `${K}logistic.cc, ${K}logistic_common.cc`,
    params: null,
    init: opData(OpDataLogistic),
    prepare: (_n, r) => temps(r, [0]),
  },
  AVERAGE_POOL_2D: pooling(),
  MAX_POOL_2D: pooling(),
  /**
   * unidirectional_sequence_lstm.cc: Init allocates OpDataLSTM; Prepare's LstmTensors (lstm_eval.cc)
   * takes all 24 inputs (omitted optional ones skipped) and the output as temp tensors.
   */
  UNIDIRECTIONAL_SEQUENCE_LSTM: {
    source: `${K}unidirectional_sequence_lstm.cc, ${K}lstm_eval.cc`,
    params: TfLiteUnidirectionalSequenceLSTMParams,
    init: opData(OpDataLSTM),
    prepare: (_n, r) =>
      temps(
        r,
        Array.from({ length: 24 }, (_, i) => i),
      ),
    /** Four buffers of batch_size × state_dimension cells (CreateLstmSizeInfo), in the cell state's type. */
    scratch(n) {
      const input = n.inputs[0];
      const hidden = n.inputs[18];
      const cell = n.inputs[19];
      const timeMajor = (n.options as { timeMajor?: boolean } | null)?.timeMajor ?? false;
      const batch = (timeMajor ? input?.shape[1] : input?.shape[0]) ?? 0;
      const state = hidden?.shape[1] ?? 0;
      const bytes = cell && cell.elements > 0 ? cell.bytes / cell.elements : 4;
      return [0, 1, 2, 3].map(() => batch * state * bytes);
    },
  },
  /** strided_slice.cc / strided_slice_common.cc: Init allocates StridedSliceParams; input, begin, end, strides, output. */
  STRIDED_SLICE: {
    source: `${K}strided_slice.cc, ${K}strided_slice_common.cc`,
    params: TfLiteStridedSliceParams,
    init: opData(StridedSliceParams),
    prepare: (_n, r) => temps(r, [0, 1, 2, 3]),
  },
  /** cast.cc CastPrepare: no op data; input, output. */
  CAST: { source: `${K}cast.cc`, params: TfLiteCastParams, prepare: (_n, r) => temps(r, [0]) },
  /**
   * transpose_conv.cc TransposeConvPrepare: Init allocates OpData; Prepare takes output, input (2),
   * filter (1), allocates the two per-channel arrays (filter dims[0]), then for quantized types
   * CalculateOpData takes input, filter, bias (3), output and fills the arrays.
   */
  TRANSPOSE_CONV: {
    source: `${K}transpose_conv.cc`,
    params: TfLiteTransposeConvParams,
    init: opData(OpDataTransposeConv),
    prepare(n, r) {
      r.tempOutput(0);
      r.tempInput(2);
      r.tempInput(1);
      const channels = n.inputs[1]?.shape[0] ?? 0;
      const quantized = (n.inputs[2]?.type ?? FLOAT32) !== FLOAT32;
      r.persistent(4 * channels, 'per-channel multipliers', quantized ? 4 * channels : 0);
      r.persistent(4 * channels, 'per-channel shifts', quantized ? 4 * channels : 0);
      if (quantized) {
        r.tempInput(2);
        r.tempInput(1);
        r.tempInput(3);
        r.tempOutput(0);
      }
    },
    /** int8: an int32 accumulator per output element; int16: int64 (and int64 copies of an int16 bias). */
    scratch(n) {
      const input = n.inputs[2];
      const outputs = n.outputs[0]?.elements ?? 0;
      if (input?.type === INT8) return [4 * outputs];
      if (input?.type === INT16) {
        const bias = n.inputs[3];
        return bias?.type === INT16 ? [8 * outputs, 8 * bias.elements] : [8 * outputs];
      }
      return [];
    },
  },
  /**
   * reduce.cc / reduce_common.cc PrepareMeanOrSumHelper: OpDataReduce; input, output, axis, then
   * PrepareSimple's input, axis (and output for int8) while the first three are still allocated.
   */
  MEAN: reduceKernel(reduceMeanOrSum, reduceMeanOrSumScratch),
  SUM: reduceKernel(reduceMeanOrSum, reduceMeanOrSumScratch),
  /** reduce_common.cc PrepareMaxHelper/PrepareMinHelper: PrepareSimple (input, axis, output for int8), then input, output, axis. */
  REDUCE_MAX: reduceKernel(reduceMaxOrMin, reduceMaxScratch),
  REDUCE_MIN: reduceKernel(reduceMaxOrMin, reduceMaxScratch),
  /** pad.cc PadPrepare: OpData; input, paddings, constant_values (PADV2 / 3 inputs), output. */
  PAD: { source: `${K}pad.cc`, params: null, init: opData(OpDataPad), prepare: (_n, r) => temps(r, [0, 1, 2]) },
  PADV2: { source: `${K}pad.cc`, params: null, init: opData(OpDataPad), prepare: (_n, r) => temps(r, [0, 1, 2]) },
  /** transpose.cc TransposePrepare: no op data; TransposeContext takes input, perm, output. */
  TRANSPOSE: { source: `${K}transpose.cc`, params: null, prepare: (_n, r) => temps(r, [0, 1]) },
  /** arg_min_max.cc: registered with no Init and no Prepare. */
  ARG_MAX: { source: `${K}arg_min_max.cc`, params: TfLiteArgMaxParams },
  ARG_MIN: { source: `${K}arg_min_max.cc`, params: TfLiteArgMinParams },
  /**
   * add_n.cc CalculateOpData: input 0, output, then inputs 1..n-1; float32 requests a scratch buffer of
   * input pointers; int8 allocates (and fills) its OpData in Prepare.
   */
  ADD_N: {
    source: `${K}add_n.cc`,
    params: null,
    prepare(n, r) {
      r.tempInput(0);
      // CalculateActivationRangeQuantized reads output->type after the int8 OpData is filled.
      r.tempOutput(0, ['type']);
      for (let i = 1; i < n.inputs.length; i++) r.tempInput(i);
      if (n.outputs[0]?.type === INT8) r.persistent(sizeOf(OpDataAddN, r.abi), 'OpData');
    },
    /** One scratch buffer of input pointers (sizeof(float*) or sizeof(int8_t*) per input). */
    scratch: (n, abi) => [abi.pointerBytes * n.inputs.length],
  },
  /**
   * batch_matmul.cc BatchMatMulPrepare: PrepareOpContext takes lhs, rhs, output; InitializeTemporaries
   * allocates the quantization block (int8/int16), and a transposed TfLiteEvalTensor (struct, dims,
   * data) for lhs when adj_x and for rhs when !adj_y (AllocInitTransposeTensorFromTfLiteTensor); a
   * constant rhs is transposed once, in Prepare (its transposed data is written then);
   * ReshapeOutputTensor makes the output dims writable (CreateWritableTensorDimsWithCopy).
   */
  BATCH_MATMUL: {
    source: `${K}batch_matmul.cc`,
    params: TfLiteBatchMatMulParams,
    init: opData(OpDataBatchMatmul),
    prepare(n, r) {
      const [lhs, rhs] = [n.inputs[0], n.inputs[1]];
      temps(r, [0, 1]);
      if (lhs && (lhs.type === INT8 || lhs.type === INT16)) r.persistent(sizeOf(QuantizationOpDataBatchMatmul, r.abi), 'quantization', 0);
      const transposed = (t: NodeView['inputs'][number]) => {
        if (!t) return;
        r.persistent(sizeOf(TfLiteEvalTensorStruct, r.abi), 'transposed TfLiteEvalTensor');
        r.persistent(4 + 4 * t.shape.length, 'transposed dims');
        r.persistent(t.bytes, 'transposed data', t.data ? t.bytes : 0);
      };
      const opts = n.options as { adjX?: boolean; adjY?: boolean } | null;
      if (opts?.adjX) transposed(lhs ?? null);
      if (!opts?.adjY) transposed(rhs ?? null);
      writableDims(n, r);
    },
  },
  /** if.cc: IfInit allocates OpData {then, else subgraph index}; IfPrepare takes the condition only. */
  IF: { source: `${K}if.cc`, params: TfLiteIfParams, init: () => [8], prepare: (_n, r) => void r.tempInput(0) },
  /** while.cc: WhileInit allocates OpData {cond, body subgraph index}; WhilePrepare takes no tensors. */
  WHILE: { source: `${K}while.cc`, params: TfLiteWhileParams, init: () => [8] },
  /** call_once.cc: OpData {init_subgraph_index, has_run}; Prepare checks the init subgraph, takes no tensors. */
  CALL_ONCE: {
    source: `${K}call_once.cc`,
    params: TfLiteCallOnceParams,
    init: (_n, abi) => [
      sizeOf(
        struct('OpData (call_once.cc)', `${K}call_once.cc`, [
          ['init_subgraph_index', 'int'],
          ['has_run', 'bool'],
        ]),
        abi,
      ),
    ],
  },
  /**
   * var_handle.cc: OpData {resource_id}; Prepare creates the resource id and points its output's eval
   * data at it, so the memory planner does not place that output.
   */
  VAR_HANDLE: { source: `${K}var_handle.cc`, params: TfLiteVarHandleParams, init: () => [4], outputsNotPlanned: true },
  /** read_variable.cc Prepare: the resource id input only. */
  READ_VARIABLE: { source: `${K}read_variable.cc`, params: null, prepare: (_n, r) => void r.tempInput(0) },
  /**
   * assign_variable.cc Prepare: the value input; MicroResourceVariables::Allocate gives the variable its
   * buffer (the value's size, persistent, filled with its zero point) the first time it is assigned.
   */
  ASSIGN_VARIABLE: {
    source: `${K}assign_variable.cc, tensorflow/lite/micro/micro_resource_variable.cc`,
    params: null,
    prepare(n, r) {
      const value = r.tempInput(1);
      if (value && firstAssignment(n)) r.persistent(value.bytes, 'resource variable buffer');
    },
  },
  /**
   * embedding_lookup.cc EmbeddingLookUpPrepare: lookup, value, output; CreateWritableTensorDimsWithCopy of
   * the output; CalculateOpData allocates OpData { float scale; size_t num_columns; } and writes
   * num_columns (and scale for an int8 table with a float output).
   */
  EMBEDDING_LOOKUP: {
    source: `${K}embedding_lookup.cc`,
    params: null,
    prepare(n, r) {
      temps(r, [0, 1]);
      writableDims(n, r);
      const size = sizeOf(OpDataEmbeddingLookup, r.abi);
      const hybrid = n.inputs[1]?.type === INT8 && n.outputs[0]?.type === FLOAT32;
      r.persistent(size, 'OpData', hybrid ? size : [r.abi.pointerBytes, size]);
    },
  },
  /** elementwise.cc: ElementWiseAbsRsqrtInit allocates OpDataAbsRsqrt; PrepareAbsRsqrt takes input, output. */
  RSQRT: { source: `${K}elementwise.cc`, params: null, init: opData(OpDataAbsRsqrt), prepare: (_n, r) => temps(r, [0]) },
  ABS: { source: `${K}elementwise.cc`, params: null, init: opData(OpDataAbsRsqrt), prepare: (_n, r) => temps(r, [0]) },
  /**
   * concatenation.cc ConcatenationPrepare: input 0 and output, then every input, then the output again;
   * for int8 two persistent arrays (scale, zero point per input) filled while those temps are live.
   */
  CONCATENATION: {
    source: `${K}concatenation.cc`,
    params: TfLiteConcatenationParams,
    init: opData(ConcatenationParams),
    prepare(n, r) {
      temps(r, [0]);
      n.inputs.forEach((_, i) => r.tempInput(i));
      r.tempOutput(0);
      if (n.outputs[0]?.type === INT8) {
        r.persistent(4 * n.inputs.length, 'input scales');
        r.persistent(4 * n.inputs.length, 'input zero points');
      }
    },
  },
  /** signal window.cc: WindowInit allocates TFLMSignalWindowParams {shift, input_size}; Prepare takes input, weights, output. */
  'CUSTOM:SignalWindow': {
    source: `${SIG}window.cc`,
    params: null,
    init: (_n, _abi) => [8],
    prepare: (_n, r) => temps(r, [0, 1]),
  },
  /**
   * signal rfft.cc RfftInit: TfLiteAudioFrontendRfftParams<T>, then the kissfft state
   * (Rfft*GetNeededMemory(fft_length)); RfftPrepare takes input, output (and requests the work area as
   * scratch).
   */
  'CUSTOM:SignalRfft': {
    source: `${SIG}rfft.cc, signal/src/rfft_int16.cc, third_party/kissfft`,
    params: null,
    init(n, abi) {
      const o = customOptions(n);
      const fftLength = o.get('fft_length') ?? 0;
      const cpx = o.get('T') === TensorType.INT16 ? 4 : 8;
      return [sizeOf(TfLiteAudioFrontendRfftParams, abi), kissFftrStateBytes(fftLength, cpx, abi)];
    },
    prepare: (_n, r) => temps(r, [0]),
    /** The zero-padded frame: fft_length elements of T. */
    scratch(n) {
      const o = customOptions(n);
      const t = o.get('T');
      return [(o.get('fft_length') ?? 0) * (t === TensorType.INT16 ? 2 : 4)];
    },
  },
  /** signal energy.cc: EnergyInit allocates TFLMSignalEnergyParams {end_index, start_index}; input, output. */
  'CUSTOM:SignalEnergy': { source: `${SIG}energy.cc`, params: null, init: () => [8], prepare: (_n, r) => temps(r, [0]) },
  /** signal fft_auto_scale_kernel.cc / fft_auto_scale_common.cc: no Init; input, output, scale_bit output. */
  'CUSTOM:SignalFftAutoScale': {
    source: `${SIG}fft_auto_scale_kernel.cc, ${SIG}fft_auto_scale_common.cc`,
    params: null,
    prepare: (_n, r) => temps(r, [0], [0, 1]),
  },
  /**
   * signal filter_bank.cc FilterBankInit: TFLMSignalFilterBankParams {FilterbankConfig, work_area}, then
   * the work area of num_channels + 1 uint64; Prepare takes each of the 6 inputs in turn, then the output.
   */
  'CUSTOM:SignalFilterBank': {
    source: `${SIG}filter_bank.cc, signal/src/filter_bank.h`,
    params: null,
    init: (n, abi) => [sizeOf(FilterbankConfig, abi) + abi.pointerBytes, 8 * ((customOptions(n).get('num_channels') ?? 0) + 1)],
    prepare: (_n, r) => temps(r, [0, 1, 2, 3, 4, 5]),
  },
  /** signal filter_bank_log.cc: TFLMSignalLogParams {input_correction_bits, output_scale}; input, output. */
  'CUSTOM:SignalFilterBankLog': { source: `${SIG}filter_bank_log.cc`, params: null, init: () => [8], prepare: (_n, r) => temps(r, [0]) },
  /**
   * signal filter_bank_spectral_subtraction.cc: TFLMSignalSpectralSubtractionParams {config,
   * noise_estimate, noise_estimate_size}, then num_channels uint32; Prepare takes input, output, noise_estimate.
   */
  'CUSTOM:SignalFilterBankSpectralSubtraction': {
    source: `${SIG}filter_bank_spectral_subtraction.cc`,
    params: null,
    init(n, abi) {
      const head = alignTo(sizeOf(SpectralSubtractionConfig, abi), abi.pointerBytes) + 2 * abi.pointerBytes;
      return [head, 4 * (customOptions(n).get('num_channels') ?? 0)];
    },
    prepare: (_n, r) => temps(r, [0], [0, 1]),
  },
  /** signal filter_bank_square_root.cc / _common.cc: no Init; input, scale_bits, output. */
  'CUSTOM:SignalFilterBankSquareRoot': {
    source: `${SIG}filter_bank_square_root_common.cc`,
    params: null,
    prepare: (_n, r) => temps(r, [0, 1]),
  },
  /** signal pcan.cc: TfLitePcanParams {snr_shift}; input, noise_estimate, gain_lut, output. */
  'CUSTOM:SignalPCAN': { source: `${SIG}pcan.cc`, params: null, init: () => [4], prepare: (_n, r) => temps(r, [0, 1, 2]) },
  /**
   * detection_postprocess.cc: DetectionPostProcessInit allocates OpData; Prepare takes box encodings,
   * class predictions, anchors and requests its 11 scratch buffers.
   */
  'CUSTOM:TFLite_Detection_PostProcess': {
    source: `${K}detection_postprocess.cc`,
    params: null,
    init: opData(OpDataDetectionPostProcess),
    prepare: (_n, r) => temps(r, [0, 1, 2], []),
    scratch(n) {
      const o = customOptions(n);
      const maxDetections = o.get('max_detections') ?? 0;
      const numClasses = o.get('num_classes') ?? 0;
      const numBoxes = n.inputs[0]?.shape[1] ?? 0;
      const scores = n.inputs[1];
      return [
        numBoxes,
        numBoxes * 4 * 4,
        (scores?.shape[1] ?? 0) * (scores?.shape[2] ?? 0) * 4,
        numBoxes * 4,
        numBoxes * 4,
        maxDetections * numBoxes * 4,
        maxDetections * numBoxes * 4,
        numBoxes * 4,
        maxDetections * numBoxes * 4,
        Math.max(numClasses, maxDetections) * numBoxes * 4,
        Math.min(numBoxes, maxDetections) * numBoxes * 4,
      ];
    },
  },
  /** comparisons.cc ComparisonsPrepare: OpData { ComparisonParams }; input1, input2 (not the output). */
  EQUAL: comparison(),
  NOT_EQUAL: comparison(),
  GREATER: comparison(),
  GREATER_EQUAL: comparison(),
  LESS: comparison(),
  LESS_EQUAL: comparison(),
  /** elu.cc: Init allocates the 256-entry int8 table; Prepare takes input, output. */
  ELU: { source: `${K}elu.cc`, params: null, init: opData(OpDataElu), prepare: (_n, r) => temps(r, [0]) },
  /** hard_swish.cc / hard_swish_common.cc: HardSwishParams; input, output. */
  HARD_SWISH: {
    source: `${K}hard_swish.cc, ${K}hard_swish_common.cc`,
    params: null,
    init: opData(HardSwishParams),
    prepare: (_n, r) => temps(r, [0]),
  },
  /** prelu.cc / prelu_common.cc: PreluParams; input, alpha, output. */
  PRELU: { source: `${K}prelu.cc, ${K}prelu_common.cc`, params: null, init: opData(PreluParams), prepare: (_n, r) => temps(r, [0, 1]) },
  /** l2norm.cc: L2NormalizationParams; input, output. */
  L2_NORMALIZATION: {
    source: `${K}l2norm.cc`,
    params: TfLiteL2NormParams,
    init: opData(L2NormalizationParams),
    prepare: (_n, r) => temps(r, [0]),
  },
  /** log_softmax.cc LogSoftmaxPrepare: input, output; int8 allocates LogSoftmaxOpData in Prepare. */
  LOG_SOFTMAX: {
    source: `${K}log_softmax.cc`,
    params: null,
    prepare(n, r) {
      temps(r, [0]);
      if (n.inputs[0]?.type === INT8) r.persistent(sizeOf(LogSoftmaxOpData, r.abi), 'LogSoftmaxOpData');
    },
  },
  /** squared_difference.cc: OpData; input1, input2, output. */
  SQUARED_DIFFERENCE: {
    source: `${K}squared_difference.cc`,
    params: null,
    init: opData(OpDataSquaredDifference),
    prepare: (_n, r) => temps(r, [0, 1]),
  },
  /**
   * l2_pool_2d.cc, a kernel of its own (not pooling.cc): registered with no Init, so no OpDataPooling.
   * L2Prepare takes the output, then the input, writes the padding into the parsed TfLitePoolParams, and
   * moves the output dims into a persistent TfLiteIntArray of the output rank
   * (CreateWritableTensorDimsWithCopy), filling it while both temps are live.
   */
  L2_POOL_2D: {
    source: `${K}l2_pool_2d.cc`,
    params: TfLitePoolParams,
    prepare(n, r) {
      r.tempOutput(0, ['dims']);
      r.tempInput(0);
      writableDims(n, r);
    },
  },
  /** Elementwise and data-movement kernels with no op data whose Prepare takes every input and output. */
  ...allTempsOps(),
  /** Params-only kernels (parsed options; Prepare takes every input and output). */
  /** cumsum.cc CalculateOpData: input, axis, output; int8 allocates (and fills) its OpData in Prepare. */
  CUMSUM: {
    source: `${K}cumsum.cc`,
    params: TfLiteCumsumParams,
    prepare(n, r) {
      r.tempInput(0);
      r.tempInput(1);
      // CalculateActivationRangeQuantized reads output->type after the int8 OpData is filled.
      r.tempOutput(0, ['type']);
      if (n.outputs[0]?.type === INT8) r.persistent(sizeOf(OpDataCumSum, r.abi), 'OpData');
    },
  },
  /** depth_to_space.cc CalculateOpData: input, output, then CreateWritableTensorDimsWithCopy of the output. */
  DEPTH_TO_SPACE: {
    source: `${K}depth_to_space.cc`,
    params: TfLiteDepthToSpaceParams,
    prepare: tempsThenWritableDims([0]),
  },
  /** space_to_depth.cc CalculateOpData: as DEPTH_TO_SPACE. */
  SPACE_TO_DEPTH: {
    source: `${K}space_to_depth.cc`,
    params: TfLiteSpaceToDepthParams,
    prepare: tempsThenWritableDims([0]),
  },
  /**
   * gather.cc GatherPrepare: input, coords, output; CreateWritableTensorDimsWithCopy moves the output
   * dims into a persistent TfLiteIntArray (kernel_util.cc) and writes them while the temps are live.
   */
  GATHER: {
    source: `${K}gather.cc`,
    params: TfLiteGatherParams,
    prepare: tempsThenWritableDims([0, 1]),
  },
  /** gather_nd.cc GatherNdPrepare: params, indices, output; CreateWritableTensorDimsWithCopy of the output. */
  GATHER_ND: {
    source: `${K}gather_nd.cc`,
    params: null,
    prepare: tempsThenWritableDims([0, 1]),
  },
  /** select.cc: SelectInit allocates OpData { bool requires_broadcast; }; SelectPrepare takes condition, x, y, output. */
  SELECT_V2: {
    source: `${K}select.cc`,
    params: null,
    init: opData(struct('OpData (select.cc)', `${K}select.cc`, [['requires_broadcast', 'bool']])),
    prepare: (_n, r) => temps(r, [0, 1, 2]),
  },
  /** pack.cc / unpack.cc: registered with no Init and no Prepare. */
  PACK: { source: `${K}pack.cc`, params: TfLitePackParams },
  UNPACK: { source: `${K}unpack.cc`, params: TfLiteUnpackParams },
  /** split.cc SplitPrepare: only the axis (input 0). */
  SPLIT: { source: `${K}split.cc`, params: TfLiteSplitParams, prepare: (_n, r) => void r.tempInput(0) },
  /** split_v.cc SplitVPrepare: only the axis (input 2). */
  SPLIT_V: { source: `${K}split_v.cc`, params: TfLiteSplitVParams, prepare: (_n, r) => void r.tempInput(2) },
  /** batch_to_space_nd.cc BatchToSpaceNDPrepare: input, output. */
  BATCH_TO_SPACE_ND: { source: `${K}batch_to_space_nd.cc`, params: null, prepare: (_n, r) => temps(r, [0]) },
  /** space_to_batch_nd.cc: Init allocates SpaceToBatchParams; Prepare takes input, output. */
  SPACE_TO_BATCH_ND: {
    source: `${K}space_to_batch_nd.cc`,
    params: null,
    init: opData(struct('SpaceToBatchParams', TYPES_H, [['output_offset', 'int32']])),
    prepare: (_n, r) => temps(r, [0]),
  },
  SQUEEZE: { source: `${K}squeeze.cc`, params: TfLiteSqueezeParams, prepare: allTemps },
  SHAPE: { source: `${K}shape.cc`, params: TfLiteShapeParams, prepare: allTemps },
  RESIZE_BILINEAR: { source: `${K}resize_bilinear.cc`, params: TfLiteResizeBilinearParams, prepare: allTemps },
  RESIZE_NEAREST_NEIGHBOR: { source: `${K}resize_nearest_neighbor.cc`, params: TfLiteResizeNearestNeighborParams, prepare: allTemps },
  /**
   * mirror_pad.cc: MirrorPadInit allocates OpDataMirrorPad (5 ints); MirrorPadPrepare takes input,
   * padding matrix, output and requests two int buffers of the input rank.
   */
  MIRROR_PAD: {
    source: `${K}mirror_pad.cc`,
    params: TfLiteMirrorPaddingParams,
    init: opData(
      struct('OpDataMirrorPad', `${K}mirror_pad.cc`, [
        ['input_dims', 'int'],
        ['output_size', 'int'],
        ['offset', 'int'],
        ['output_dims_num_elements_buffer_index', 'int'],
        ['input_dims_num_elements_buffer_index', 'int'],
      ]),
    ),
    prepare: (_n, r) => temps(r, [0, 1]),
    scratch: (n) => [4 * (n.inputs[0]?.shape.length ?? 0), 4 * (n.inputs[0]?.shape.length ?? 0)],
  },
  REDUCE_ALL: reduceKernel(reduceMaxOrMin, reduceMaxScratch, `${K}reduce.cc`),
  /** conv.cc / conv_common.cc: Init allocates OpDataConv; Prepare as convPrepare (quantized dimension 0). */
  CONV_2D: {
    source: `${K}conv.cc, ${K}conv_common.cc`,
    params: TfLiteConvParams,
    init: opData(OpDataConv),
    prepare: convPrepare(0),
  },
  /** depthwise_conv.cc / depthwise_conv_common.cc: OpDataConv; Prepare as convPrepare (quantized dimension 3). */
  DEPTHWISE_CONV_2D: {
    source: `${K}depthwise_conv.cc, ${K}depthwise_conv_common.cc`,
    params: TfLiteDepthwiseConvParams,
    init: opData(OpDataConv),
    prepare: convPrepare(3),
  },
  /**
   * fully_connected.cc: Init allocates OpDataFullyConnected; Prepare takes input, filter, bias (optional),
   * output as temp tensors; CalculateOpDataFullyConnected (fully_connected_common.cc) allocates two int32
   * arrays (multiplier, shift) per output channel when the filter is per-channel quantized.
   */
  FULLY_CONNECTED: {
    source: `${K}fully_connected.cc, ${K}fully_connected_common.cc`,
    params: TfLiteFullyConnectedParams,
    init: opData(OpDataFullyConnected),
    prepare(n, r) {
      r.tempInput(0);
      r.tempInput(1);
      r.tempInput(2);
      // CalculateActivationRangeQuantized reads output->type after the per-channel arrays are filled.
      r.tempOutput(0, ['type']);
      const filter = n.inputs[1];
      const input = n.inputs[0];
      if (input && input.type !== FLOAT32 && filter && filter.channels > 1) {
        r.persistent(4 * filter.channels, 'per-channel multipliers');
        r.persistent(4 * filter.channels, 'per-channel shifts');
      }
    },
  },
};

/** The kernel model of an op (`CONV_2D`, `CUSTOM:SignalWindow`). */
export function kernelModel(op: string): KernelModel | undefined {
  return KERNELS[op];
}
