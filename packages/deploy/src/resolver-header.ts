/**
 * The `MicroMutableOpResolver<N>` a TFLM build of a model needs, as a C++ header: one `Add…()` call per
 * distinct operator (builtin code or custom name), N exact. Method names are those of
 * tensorflow/lite/micro/micro_mutable_op_resolver.h at tflite-micro 90b983c2; the signal library's and
 * the detection post-process custom ops have their own `Add…()` methods there (which call AddCustom with
 * the registered name). Any other custom op is added with `AddCustom(name, registration)` and a declared
 * registration function the user provides.
 */
import { BuiltinOperator, builtinOperatorName, type ModelDef } from '@micrort/core';

/** micro_mutable_op_resolver.h method per builtin operator. */
export const TFLM_BUILTIN_METHODS: Readonly<Partial<Record<string, string>>> = {
  ABS: 'AddAbs',
  ADD: 'AddAdd',
  ADD_N: 'AddAddN',
  ARG_MAX: 'AddArgMax',
  ARG_MIN: 'AddArgMin',
  ASSIGN_VARIABLE: 'AddAssignVariable',
  AVERAGE_POOL_2D: 'AddAveragePool2D',
  BATCH_MATMUL: 'AddBatchMatMul',
  BATCH_TO_SPACE_ND: 'AddBatchToSpaceNd',
  BROADCAST_ARGS: 'AddBroadcastArgs',
  BROADCAST_TO: 'AddBroadcastTo',
  CALL_ONCE: 'AddCallOnce',
  CAST: 'AddCast',
  CEIL: 'AddCeil',
  CONCATENATION: 'AddConcatenation',
  CONV_2D: 'AddConv2D',
  COS: 'AddCos',
  CUMSUM: 'AddCumSum',
  DEPTH_TO_SPACE: 'AddDepthToSpace',
  DEPTHWISE_CONV_2D: 'AddDepthwiseConv2D',
  DEQUANTIZE: 'AddDequantize',
  DIV: 'AddDiv',
  DYNAMIC_UPDATE_SLICE: 'AddDynamicUpdateSlice',
  ELU: 'AddElu',
  EMBEDDING_LOOKUP: 'AddEmbeddingLookup',
  EQUAL: 'AddEqual',
  EXP: 'AddExp',
  EXPAND_DIMS: 'AddExpandDims',
  FILL: 'AddFill',
  FLOOR: 'AddFloor',
  FLOOR_DIV: 'AddFloorDiv',
  FLOOR_MOD: 'AddFloorMod',
  FULLY_CONNECTED: 'AddFullyConnected',
  GATHER: 'AddGather',
  GATHER_ND: 'AddGatherNd',
  GREATER: 'AddGreater',
  GREATER_EQUAL: 'AddGreaterEqual',
  HARD_SWISH: 'AddHardSwish',
  IF: 'AddIf',
  L2_NORMALIZATION: 'AddL2Normalization',
  L2_POOL_2D: 'AddL2Pool2D',
  LEAKY_RELU: 'AddLeakyRelu',
  LESS: 'AddLess',
  LESS_EQUAL: 'AddLessEqual',
  LOG: 'AddLog',
  LOGICAL_AND: 'AddLogicalAnd',
  LOGICAL_NOT: 'AddLogicalNot',
  LOGICAL_OR: 'AddLogicalOr',
  LOGISTIC: 'AddLogistic',
  LOG_SOFTMAX: 'AddLogSoftmax',
  MAXIMUM: 'AddMaximum',
  MAX_POOL_2D: 'AddMaxPool2D',
  MEAN: 'AddMean',
  MINIMUM: 'AddMinimum',
  MIRROR_PAD: 'AddMirrorPad',
  MUL: 'AddMul',
  NEG: 'AddNeg',
  NOT_EQUAL: 'AddNotEqual',
  PACK: 'AddPack',
  PAD: 'AddPad',
  PADV2: 'AddPadV2',
  PRELU: 'AddPrelu',
  QUANTIZE: 'AddQuantize',
  READ_VARIABLE: 'AddReadVariable',
  REDUCE_ALL: 'AddReduceAll',
  REDUCE_MAX: 'AddReduceMax',
  REDUCE_MIN: 'AddReduceMin',
  RELU: 'AddRelu',
  RELU6: 'AddRelu6',
  RESHAPE: 'AddReshape',
  RESIZE_BILINEAR: 'AddResizeBilinear',
  RESIZE_NEAREST_NEIGHBOR: 'AddResizeNearestNeighbor',
  REVERSE_V2: 'AddReverseV2',
  ROUND: 'AddRound',
  RSQRT: 'AddRsqrt',
  SELECT_V2: 'AddSelectV2',
  SHAPE: 'AddShape',
  SIN: 'AddSin',
  SLICE: 'AddSlice',
  SOFTMAX: 'AddSoftmax',
  SPACE_TO_BATCH_ND: 'AddSpaceToBatchNd',
  SPACE_TO_DEPTH: 'AddSpaceToDepth',
  SPLIT: 'AddSplit',
  SPLIT_V: 'AddSplitV',
  SQRT: 'AddSqrt',
  SQUARE: 'AddSquare',
  SQUARED_DIFFERENCE: 'AddSquaredDifference',
  SQUEEZE: 'AddSqueeze',
  STRIDED_SLICE: 'AddStridedSlice',
  SUB: 'AddSub',
  SUM: 'AddSum',
  SVDF: 'AddSvdf',
  TANH: 'AddTanh',
  TRANSPOSE: 'AddTranspose',
  TRANSPOSE_CONV: 'AddTransposeConv',
  UNIDIRECTIONAL_SEQUENCE_LSTM: 'AddUnidirectionalSequenceLSTM',
  UNPACK: 'AddUnpack',
  VAR_HANDLE: 'AddVarHandle',
  WHILE: 'AddWhile',
  ZEROS_LIKE: 'AddZerosLike',
};

/** micro_mutable_op_resolver.h method per custom op name TFLM ships a kernel for. */
export const TFLM_CUSTOM_METHODS: Readonly<Partial<Record<string, string>>> = {
  TFLite_Detection_PostProcess: 'AddDetectionPostprocess',
  CIRCULAR_BUFFER: 'AddCircularBuffer',
  SignalDelay: 'AddDelay',
  SignalEnergy: 'AddEnergy',
  SignalFftAutoScale: 'AddFftAutoScale',
  SignalFilterBank: 'AddFilterBank',
  SignalFilterBankLog: 'AddFilterBankLog',
  SignalFilterBankSpectralSubtraction: 'AddFilterBankSpectralSubtraction',
  SignalFilterBankSquareRoot: 'AddFilterBankSquareRoot',
  SignalFramer: 'AddFramer',
  SignalIrfft: 'AddIrfft',
  SignalOverlapAdd: 'AddOverlapAdd',
  SignalPCAN: 'AddPCAN',
  SignalRfft: 'AddRfft',
  SignalStacker: 'AddStacker',
  SignalWindow: 'AddWindow',
};

/** One registration the resolver needs. */
export interface ResolverEntry {
  /** `CONV_2D` or `CUSTOM:<name>`. */
  op: string;
  /** The C++ statement's call, e.g. `AddConv2D()` or `AddCustom("MyOp", Register_MyOp())`. */
  call: string;
  /** Whether TFLM ships the kernel (false: a custom op whose registration the user must provide). */
  builtIn: boolean;
}

/** The resolver a model needs. */
export interface ResolverPlan {
  /** Registrations, in the order operator codes first appear in the model. */
  entries: ResolverEntry[];
  /** Builtin ops TFLM has no kernel for (no `Add…()` method): the model cannot run on TFLM. */
  missing: string[];
  /** The template argument: one slot per registration. */
  count: number;
}

/** A C identifier from a custom op name (for the registration function the user provides). */
export function registrationFunctionName(customName: string): string {
  const id = customName.replace(/[^A-Za-z0-9_]/g, '_');
  return `Register_${/^[0-9]/.test(id) ? `_${id}` : id}`;
}

/** The registrations `model` needs, over every subgraph. */
export function resolverPlan(model: ModelDef): ResolverPlan {
  const entries: ResolverEntry[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const used = new Set<number>();
  for (const sg of model.subgraphs) for (const op of sg.operators) used.add(op.opcodeIndex);
  model.operatorCodes.forEach((code, i) => {
    if (!used.has(i)) return;
    if (code.builtinCode === BuiltinOperator.CUSTOM) {
      const name = code.customCode ?? '';
      const op = `CUSTOM:${name}`;
      if (seen.has(op)) return;
      seen.add(op);
      const method = TFLM_CUSTOM_METHODS[name];
      entries.push(
        method
          ? { op, call: `${method}()`, builtIn: true }
          : { op, call: `AddCustom(${JSON.stringify(name)}, ${registrationFunctionName(name)}())`, builtIn: false },
      );
      return;
    }
    const op = builtinOperatorName(code.builtinCode);
    if (seen.has(op)) return;
    seen.add(op);
    const method = TFLM_BUILTIN_METHODS[op];
    if (method) entries.push({ op, call: `${method}()`, builtIn: true });
    else missing.push(op);
  });
  return { entries, missing, count: entries.length };
}

/** The arena size of one target, as the header states it. */
export interface HeaderArenaTarget {
  word: 64 | 32;
  /** Short ABI name (`lp64`, `ilp32`, `ilp32-int-enums`). */
  abi: string;
  /** The smallest kTensorArenaSize that works on that target. */
  arenaMinBytes: number;
}

/** Arena figures for the header's `kTensorArenaSize`. */
export interface HeaderArena {
  /** One figure per word size (64 and 32). */
  targets: readonly HeaderArenaTarget[];
  /** The same figures for the model with the embedded offline plan (`kTensorArenaSizeOfflinePlan`), if one was written. */
  offlinePlan?: { planner: string; targets: readonly HeaderArenaTarget[] } | null;
  /** False when a figure is not exact (stand-ins, ops without a kernel model); the header says so. */
  exact?: boolean;
}

/** Options of {@link resolverHeader}. */
export interface ResolverHeaderOptions {
  /** Shown in the header comment (e.g. the model file name, with its folder). */
  modelLabel?: string;
  /**
   * The model's name for C identifiers (the include guard); default {@link modelIdentifier} of
   * `modelLabel`.
   */
  modelName?: string;
  /** C++ namespace of the generated names (default `micrort_deploy`). */
  namespace?: string;
  /** When given, the header defines `kTensorArenaSize` for the target it is compiled for. */
  arena?: HeaderArena;
}

/**
 * A C identifier naming the model from its file label: the file name without its extension, or, for a
 * file called `model.tflite` (the conformance and Model Maker layout), the folder it is in
 * (`person_detect/model.tflite` → `person_detect`); never a folder when the file has a name of its own
 * (`models/kws.tflite` → `kws`).
 */
export function modelIdentifier(label: string): string {
  const parts = label.split(/[\\/]/).filter((p) => p && p !== '.');
  const file = (parts[parts.length - 1] ?? 'model').replace(/\.[^.]*$/, '');
  const folder = parts[parts.length - 2];
  const name = (file === 'model' && folder && folder !== '..' ? folder : file).replace(/[^A-Za-z0-9_]+/g, '_');
  return name && /^[A-Za-z_]/.test(name) ? name : `model_${name}`;
}

/** The include guard of the header for a model named `name` (a C identifier). */
function guardName(name: string): string {
  return `MICRORT_DEPLOY_${name.toUpperCase()}_OP_RESOLVER_H_`;
}

function targetPhrase(t: HeaderArenaTarget): string {
  if (t.word === 64) return `64-bit host (LP64): ${t.arenaMinBytes} bytes`;
  return `32-bit MCU (ARM EABI, ${t.abi === 'ilp32' ? '1-byte enums' : '4-byte enums'}): ${t.arenaMinBytes} bytes`;
}

/** `#if UINTPTR_MAX > 0xFFFFFFFF` … the 64-bit figure, else the 32-bit one. */
function arenaConstant(name: string, targets: readonly HeaderArenaTarget[]): string[] {
  const t64 = targets.find((t) => t.word === 64);
  const t32 = targets.find((t) => t.word === 32);
  if (!t64 || !t32) return [];
  return [
    '#if UINTPTR_MAX > 0xFFFFFFFFu',
    `constexpr size_t ${name} = ${t64.arenaMinBytes};`,
    '#else',
    `constexpr size_t ${name} = ${t32.arenaMinBytes};`,
    '#endif',
  ];
}

/**
 * The header: `kTensorArenaSize` (with `arena`), `kNumOps`, `using OpResolver =
 * tflite::MicroMutableOpResolver<kNumOps>;` and `RegisterOps(OpResolver&)` calling each `Add…()` in turn
 * (returning the first error); C++11. Builtin ops TFLM lacks are listed in a comment and not registered
 * (TFLM cannot run the model). The include guard is named after the model (`modelName`).
 */
export function resolverHeader(model: ModelDef, options: ResolverHeaderOptions = {}): string {
  const plan = resolverPlan(model);
  const ns = options.namespace ?? 'micrort_deploy';
  const label = options.modelLabel ?? 'model';
  const userCustoms = plan.entries.filter((e) => !e.builtIn);
  const lines: string[] = [];
  lines.push(`// Generated by \`micrort deploy --target tflm\` for ${label}.`);
  lines.push(`// The op resolver TFLM (tflite-micro) needs for this model: ${plan.count} registration${plan.count === 1 ? '' : 's'}.`);
  if (plan.missing.length) lines.push(`// TFLM has no kernel for: ${plan.missing.join(', ')} -- this model cannot run on TFLM as is.`);
  const guard = guardName(options.modelName ?? modelIdentifier(label));
  lines.push(`#ifndef ${guard}`, `#define ${guard}`, '');
  if (options.arena) lines.push('#include <stddef.h>', '#include <stdint.h>', '');
  lines.push('#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"', '');
  if (userCustoms.length) {
    lines.push('// Custom ops TFLM does not ship: provide these registrations in your build.', 'namespace tflite {');
    for (const e of userCustoms) lines.push(`TFLMRegistration* ${registrationFunctionName(e.op.slice('CUSTOM:'.length))}();`);
    lines.push('}  // namespace tflite', '');
  }
  lines.push(`namespace ${ns} {`, '');
  const arena = options.arena;
  if (arena) {
    lines.push(
      '// The smallest kTensorArenaSize with which AllocateTensors() and the first Invoke() succeed (tflite-micro',
      '// 90b983c2 reference kernels, plain MicroInterpreter, one arena), for the word size this is compiled for:',
      ...arena.targets.map((t) => `//   ${targetPhrase(t)}`),
      '// Align the arena to 16 bytes: alignas(16) static uint8_t tensor_arena[kTensorArenaSize];',
    );
    if (arena.exact === false) lines.push('// Not exact for this model: see the notes of summary.txt (micrort deploy).');
    lines.push(...arenaConstant('kTensorArenaSize', arena.targets), '');
    if (arena.offlinePlan) {
      lines.push(
        `// The same for the model with the ${arena.offlinePlan.planner} plan embedded (OfflineMemoryAllocation metadata):`,
        ...arena.offlinePlan.targets.map((t) => `//   ${targetPhrase(t)}`),
        ...arenaConstant('kTensorArenaSizeOfflinePlan', arena.offlinePlan.targets),
        '',
      );
    }
  }
  lines.push(`constexpr unsigned int kNumOps = ${plan.count};`, '');
  lines.push('using OpResolver = tflite::MicroMutableOpResolver<kNumOps>;', '');
  lines.push('// Adds every op the model uses. Returns kTfLiteOk, or the first error.');
  lines.push('inline TfLiteStatus RegisterOps(OpResolver& resolver) {');
  lines.push('  TfLiteStatus status = kTfLiteOk;');
  for (const e of plan.entries) {
    const call = e.builtIn ? e.call : e.call.replace(/(Register_[A-Za-z0-9_]+\(\))/, 'tflite::$1');
    lines.push(`  if ((status = resolver.${call}) != kTfLiteOk) return status;  // ${e.op}`);
  }
  lines.push('  return status;', '}', '', `}  // namespace ${ns}`, '', `#endif  // ${guard}`, '');
  return lines.join('\n');
}
