export * from './model-def.js';
export { loadModel, type LoadOptions } from './loader.js';
export { writeModel, type WriteOptions } from './writer.js';
export { verifyModel, TFLITE_FILE_IDENTIFIER, TFLITE_SCHEMA_VERSION, type VerifyOptions } from './verifier.js';
export {
  ModelBuilder,
  type ModelBuilderOptions,
  type TensorSpec,
  type OperatorSpec,
  type QuantizationSpec,
  type BuiltinOptionsSpec,
} from './model-builder.js';
export { readOfflineMemoryAllocation, OFFLINE_MEMORY_ALLOCATION_METADATA, ONLINE_PLANNED_BUFFER } from './offline-plan.js';
export {
  BuiltinOptionsType,
  BUILTIN_OPTIONS_MAX,
  builtinOptionsTypeName,
  builtinOptionsTypeForOp,
  parsedOptionsTypeForOp,
  isParsedOptionsType,
  defaultBuiltinOptions,
} from './options-map.js';
export { FlexBufferError, FlexType, FlexMap, parseFlexMap, flexTypeName, type FlexValue } from './flexbuffers.js';
export { sparseLayout, SparsityError, type SparseLayout } from './sparsity.js';
