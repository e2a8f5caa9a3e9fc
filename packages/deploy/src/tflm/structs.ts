/**
 * TFLM's framework structs that live in the arena, as declared at tflite-micro commit
 * 90b983c2b3f1480642e040bbd2ddb37b998f3424 (TFLM builds with TF_LITE_STATIC_MEMORY, so TfLiteTensor and
 * TfLiteNode are the reduced "micro" variants of tensorflow/lite/core/c/common.h). Sizes follow from the
 * ABI (see ../abi.ts); e.g. TfLiteTensor is 64 bytes on LP64 and 32 on ILP32 with short enums.
 */
import { struct, type StructDef } from '../abi.js';

const COMMON_H = 'tensorflow/lite/core/c/common.h';

/**
 * TfLiteQuantization { TfLiteQuantizationType type; void* params; }. TfLiteQuantizationType is declared
 * `enum TfLiteQuantizationType : int` for C++ (tensorflow/lite/micro/c/common.h at the reference commit):
 * 4 bytes even under -fshort-enums (the pointer after it pads it to 4 on ILP32 either way).
 */
export const TfLiteQuantization = struct('TfLiteQuantization', COMMON_H, [
  ['type', 'int-enum'],
  ['params', 'ptr'],
]);

/** TfLiteQuantizationParams { float scale; int32_t zero_point; }. */
export const TfLiteQuantizationParams = struct('TfLiteQuantizationParams', 'tensorflow/lite/core/c/c_api_types.h', [
  ['scale', 'float'],
  ['zero_point', 'int32'],
]);

/** TfLiteTensor under TF_LITE_STATIC_MEMORY ("fields ordered from largest to smallest"). */
export const TfLiteTensor = struct('TfLiteTensor', `${COMMON_H} (#else branch of #ifndef TF_LITE_STATIC_MEMORY)`, [
  ['quantization', TfLiteQuantization],
  ['params', TfLiteQuantizationParams],
  ['data', 'ptr'],
  ['dims', 'ptr'],
  ['bytes', 'size_t'],
  ['type', 'enum'],
  ['allocation_type', 'enum'],
  ['is_variable', 'bool'],
]);

/** TfLiteNode under TF_LITE_STATIC_MEMORY. */
export const TfLiteNode = struct('TfLiteNode', `${COMMON_H} (#else branch of #ifndef TF_LITE_STATIC_MEMORY)`, [
  ['inputs', 'ptr'],
  ['outputs', 'ptr'],
  ['intermediates', 'ptr'],
  ['user_data', 'ptr'],
  ['builtin_data', 'ptr'],
  ['custom_initial_data', 'ptr'],
  ['custom_initial_data_size', 'int'],
]);

/** TfLiteEvalTensor { TfLitePtrUnion data; TfLiteIntArray* dims; TfLiteType type; }. */
export const TfLiteEvalTensor = struct('TfLiteEvalTensor', COMMON_H, [
  ['data', 'ptr'],
  ['dims', 'ptr'],
  ['type', 'enum'],
]);

/** TfLiteAffineQuantization { TfLiteFloatArray* scale; TfLiteIntArray* zero_point; int32_t quantized_dimension; }. */
export const TfLiteAffineQuantization = struct('TfLiteAffineQuantization', COMMON_H, [
  ['scale', 'ptr'],
  ['zero_point', 'ptr'],
  ['quantized_dimension', 'int32'],
]);

/**
 * TfLiteIntArrayGetSizeInBytes(n) = sizeof(TfLiteIntArray) + sizeof(int) * n = 4 + 4n (flexible array
 * member; common.cc), aligned to alignof(TfLiteIntArray) = 4.
 */
export function intArrayBytes(n: number): number {
  return 4 + 4 * n;
}

const ALLOCATOR_H = 'tensorflow/lite/micro/micro_allocator.h';

/** NodeAndRegistration { TfLiteNode node; const TFLMRegistration* registration; }. */
export const NodeAndRegistration = struct('NodeAndRegistration', ALLOCATOR_H, [
  ['node', TfLiteNode],
  ['registration', 'ptr'],
]);

/** SubgraphAllocations { NodeAndRegistration* node_and_registrations; TfLiteEvalTensor* tensors; } (no USE_TFLM_COMPRESSION). */
export const SubgraphAllocations = struct('SubgraphAllocations', ALLOCATOR_H, [
  ['node_and_registrations', 'ptr'],
  ['tensors', 'ptr'],
]);

/** internal::ScratchBufferRequest { size_t bytes; int node_idx; int subgraph_idx; } (kept in the head during prepare). */
export const ScratchBufferRequest = struct('ScratchBufferRequest', ALLOCATOR_H, [
  ['bytes', 'size_t'],
  ['node_idx', 'int'],
  ['subgraph_idx', 'int'],
]);

/** ScratchBufferHandle { uint8_t* data; }. */
export const ScratchBufferHandle = struct('ScratchBufferHandle', ALLOCATOR_H, [['data', 'ptr']]);

/** MicroAllocator (one vtable): the allocator object placed in the arena tail by MicroAllocator::Create. */
export const MicroAllocator = struct(
  'MicroAllocator',
  ALLOCATOR_H,
  [
    ['non_persistent_buffer_allocator_', 'ptr'],
    ['persistent_buffer_allocator_', 'ptr'],
    ['builtin_data_allocator_', 'ptr'],
    ['memory_planner_', 'ptr'],
    ['model_is_allocating_', 'bool'],
    ['scratch_buffer_request_count_', 'size_t'],
    ['scratch_buffer_head_', 'ptr'],
    ['max_head_buffer_usage_', 'size_t'],
  ],
  1,
);

/** MicroBuiltinDataAllocator (micro_allocator.cc): vtable + IPersistentBufferAllocator* persistent_allocator_. */
export const MicroBuiltinDataAllocator = struct(
  'MicroBuiltinDataAllocator',
  'tensorflow/lite/micro/micro_allocator.cc',
  [['persistent_allocator_', 'ptr']],
  1,
);

/**
 * SingleArenaBufferAllocator: two polymorphic bases (INonPersistentBufferAllocator,
 * IPersistentBufferAllocator), so two vtable pointers, then its five positions and the temp audit fields.
 */
export const SingleArenaBufferAllocator = struct(
  'SingleArenaBufferAllocator',
  'tensorflow/lite/micro/arena_allocator/single_arena_buffer_allocator.h',
  [
    ['buffer_head_', 'ptr'],
    ['buffer_tail_', 'ptr'],
    ['head_', 'ptr'],
    ['tail_', 'ptr'],
    ['temp_', 'ptr'],
    ['temp_buffer_ptr_check_sum_', 'intptr'],
    ['temp_buffer_count_', 'int'],
  ],
  2,
);

/** GreedyMemoryPlanner (one vtable from MicroMemoryPlanner, which has no data members). */
export const GreedyMemoryPlanner = struct(
  'GreedyMemoryPlanner',
  'tensorflow/lite/micro/memory_planner/greedy_memory_planner.h',
  [
    ['max_buffer_count_', 'int'],
    ['buffer_count_', 'int'],
    ['requirements_', 'ptr'],
    ['buffer_sizes_sorted_', 'ptr'],
    ['buffer_ids_sorted_', 'ptr'],
    ['buffers_sorted_by_offset_', 'ptr'],
    ['next_free_entry_', 'int'],
    ['first_entry_index_', 'int'],
    ['buffer_offsets_', 'ptr'],
    ['need_to_calculate_offsets_', 'bool'],
  ],
  1,
);

/**
 * GreedyMemoryPlanner::per_buffer_size(): sizeof(BufferRequirements) (4 ints) + buffer_sizes_sorted_ +
 * buffer_ids_sorted_ + sizeof(ListEntry) (3 ints) + buffer_offsets_ = 40 bytes on every ABI.
 */
export const GREEDY_PER_BUFFER_BYTES = 16 + 4 + 4 + 12 + 4;

/** AllocationInfo (micro_allocation_info.h), one per tensor of every subgraph plus one per scratch buffer. */
export const AllocationInfo = struct('AllocationInfo', 'tensorflow/lite/micro/micro_allocation_info.h', [
  ['bytes', 'size_t'],
  ['output_ptr', 'ptr'],
  ['first_created', 'int'],
  ['last_used', 'int'],
  ['offline_offset', 'int32'],
  ['needs_allocating', 'bool'],
]);

/** MicroResourceVariable (micro_resource_variable.h): one slot of the resource-variable table. */
export const MicroResourceVariable = struct('MicroResourceVariable', 'tensorflow/lite/micro/micro_resource_variable.h', [
  ['container', 'ptr'],
  ['shared_name', 'ptr'],
  ['resource_buffer', 'ptr'],
  ['bytes', 'size_t'],
  ['default_value', 'int'],
]);

/** MicroResourceVariables (micro_resource_variable.h): the table object. */
export const MicroResourceVariables = struct('MicroResourceVariables', 'tensorflow/lite/micro/micro_resource_variable.h', [
  ['resource_variables_', 'ptr'],
  ['max_variable_count_', 'int'],
  ['num_resource_variables_', 'int'],
]);

/** Every framework struct above, for documentation tables. */
export const FRAMEWORK_STRUCTS: readonly StructDef[] = [
  SingleArenaBufferAllocator,
  GreedyMemoryPlanner,
  MicroAllocator,
  MicroBuiltinDataAllocator,
  SubgraphAllocations,
  TfLiteEvalTensor,
  TfLiteNode,
  NodeAndRegistration,
  ScratchBufferRequest,
  ScratchBufferHandle,
  AllocationInfo,
  TfLiteTensor,
  TfLiteAffineQuantization,
  MicroResourceVariables,
  MicroResourceVariable,
];
