/**
 * The generated MicroMutableOpResolver headers: the registrations each model needs (N exact, custom ops
 * included), and valid C++: every conformance model's header (plus one with a custom op TFLM does not
 * ship) is compiled with g++ against minimal declarations of the TFLM names it uses, then run: the
 * resolver must end up with exactly N registrations, none twice, each matching one of the model's ops.
 * The header's kTensorArenaSize is compiled for both targets (g++ for the host, arm-none-eabi-g++ for a
 * Cortex-M4) and must be the figure deployTflm gives for that word size.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinOperator, ModelBuilder, TensorType, loadModel, type ModelDef } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { hasConformance, hasConformanceOps, listModels, modelDir, type Suite } from '@micrort/test-support/conformance';
import { deployTflm } from './deploy.js';
import { modelIdentifier, registrationFunctionName, resolverHeader, resolverPlan } from './resolver-header.js';

/**
 * The `Add…()` methods of tflite-micro's micro_mutable_op_resolver.h (90b983c2), written out here
 * independently of the generator's table, with the op each registers (builtin code name, or the custom
 * name it passes to AddCustom).
 */
const TFLM_METHODS: Record<string, string> = {
  AddAbs: 'ABS',
  AddAdd: 'ADD',
  AddAddN: 'ADD_N',
  AddArgMax: 'ARG_MAX',
  AddArgMin: 'ARG_MIN',
  AddAssignVariable: 'ASSIGN_VARIABLE',
  AddAveragePool2D: 'AVERAGE_POOL_2D',
  AddBatchMatMul: 'BATCH_MATMUL',
  AddBatchToSpaceNd: 'BATCH_TO_SPACE_ND',
  AddBroadcastArgs: 'BROADCAST_ARGS',
  AddBroadcastTo: 'BROADCAST_TO',
  AddCallOnce: 'CALL_ONCE',
  AddCast: 'CAST',
  AddCeil: 'CEIL',
  AddCircularBuffer: 'CUSTOM:CIRCULAR_BUFFER',
  AddConcatenation: 'CONCATENATION',
  AddConv2D: 'CONV_2D',
  AddCos: 'COS',
  AddCumSum: 'CUMSUM',
  AddDelay: 'CUSTOM:SignalDelay',
  AddDepthToSpace: 'DEPTH_TO_SPACE',
  AddDepthwiseConv2D: 'DEPTHWISE_CONV_2D',
  AddDequantize: 'DEQUANTIZE',
  AddDetectionPostprocess: 'CUSTOM:TFLite_Detection_PostProcess',
  AddDiv: 'DIV',
  AddDynamicUpdateSlice: 'DYNAMIC_UPDATE_SLICE',
  AddEmbeddingLookup: 'EMBEDDING_LOOKUP',
  AddEnergy: 'CUSTOM:SignalEnergy',
  AddElu: 'ELU',
  AddEqual: 'EQUAL',
  AddExp: 'EXP',
  AddExpandDims: 'EXPAND_DIMS',
  AddFftAutoScale: 'CUSTOM:SignalFftAutoScale',
  AddFill: 'FILL',
  AddFilterBank: 'CUSTOM:SignalFilterBank',
  AddFilterBankLog: 'CUSTOM:SignalFilterBankLog',
  AddFilterBankSquareRoot: 'CUSTOM:SignalFilterBankSquareRoot',
  AddFilterBankSpectralSubtraction: 'CUSTOM:SignalFilterBankSpectralSubtraction',
  AddFloor: 'FLOOR',
  AddFloorDiv: 'FLOOR_DIV',
  AddFloorMod: 'FLOOR_MOD',
  AddFramer: 'CUSTOM:SignalFramer',
  AddFullyConnected: 'FULLY_CONNECTED',
  AddGather: 'GATHER',
  AddGatherNd: 'GATHER_ND',
  AddGreater: 'GREATER',
  AddGreaterEqual: 'GREATER_EQUAL',
  AddHardSwish: 'HARD_SWISH',
  AddIf: 'IF',
  AddIrfft: 'CUSTOM:SignalIrfft',
  AddL2Normalization: 'L2_NORMALIZATION',
  AddL2Pool2D: 'L2_POOL_2D',
  AddLeakyRelu: 'LEAKY_RELU',
  AddLess: 'LESS',
  AddLessEqual: 'LESS_EQUAL',
  AddLog: 'LOG',
  AddLogicalAnd: 'LOGICAL_AND',
  AddLogicalNot: 'LOGICAL_NOT',
  AddLogicalOr: 'LOGICAL_OR',
  AddLogistic: 'LOGISTIC',
  AddLogSoftmax: 'LOG_SOFTMAX',
  AddMaximum: 'MAXIMUM',
  AddMaxPool2D: 'MAX_POOL_2D',
  AddMirrorPad: 'MIRROR_PAD',
  AddMean: 'MEAN',
  AddMinimum: 'MINIMUM',
  AddMul: 'MUL',
  AddNeg: 'NEG',
  AddNotEqual: 'NOT_EQUAL',
  AddOverlapAdd: 'CUSTOM:SignalOverlapAdd',
  AddPack: 'PACK',
  AddPad: 'PAD',
  AddPadV2: 'PADV2',
  AddPCAN: 'CUSTOM:SignalPCAN',
  AddPrelu: 'PRELU',
  AddQuantize: 'QUANTIZE',
  AddReadVariable: 'READ_VARIABLE',
  AddReduceAll: 'REDUCE_ALL',
  AddReduceMax: 'REDUCE_MAX',
  AddReduceMin: 'REDUCE_MIN',
  AddRelu: 'RELU',
  AddRelu6: 'RELU6',
  AddReshape: 'RESHAPE',
  AddResizeBilinear: 'RESIZE_BILINEAR',
  AddResizeNearestNeighbor: 'RESIZE_NEAREST_NEIGHBOR',
  AddReverseV2: 'REVERSE_V2',
  AddRfft: 'CUSTOM:SignalRfft',
  AddRound: 'ROUND',
  AddRsqrt: 'RSQRT',
  AddSelectV2: 'SELECT_V2',
  AddShape: 'SHAPE',
  AddSin: 'SIN',
  AddSlice: 'SLICE',
  AddSoftmax: 'SOFTMAX',
  AddSpaceToBatchNd: 'SPACE_TO_BATCH_ND',
  AddSpaceToDepth: 'SPACE_TO_DEPTH',
  AddSplit: 'SPLIT',
  AddSplitV: 'SPLIT_V',
  AddSqueeze: 'SQUEEZE',
  AddSqrt: 'SQRT',
  AddSquare: 'SQUARE',
  AddSquaredDifference: 'SQUARED_DIFFERENCE',
  AddStridedSlice: 'STRIDED_SLICE',
  AddStacker: 'CUSTOM:SignalStacker',
  AddSub: 'SUB',
  AddSum: 'SUM',
  AddSvdf: 'SVDF',
  AddTanh: 'TANH',
  AddTransposeConv: 'TRANSPOSE_CONV',
  AddTranspose: 'TRANSPOSE',
  AddUnpack: 'UNPACK',
  AddUnidirectionalSequenceLSTM: 'UNIDIRECTIONAL_SEQUENCE_LSTM',
  AddVarHandle: 'VAR_HANDLE',
  AddWhile: 'WHILE',
  AddWindow: 'CUSTOM:SignalWindow',
  AddZerosLike: 'ZEROS_LIKE',
};

/** Minimal declarations of the TFLM names the headers use; the stub resolver records what is added. */
function stubHeader(): string {
  const methods = Object.entries(TFLM_METHODS)
    .map(([m, op]) => `  TfLiteStatus ${m}() { return Record("${op}"); }`)
    .join('\n');
  return `#ifndef STUB_MICRO_MUTABLE_OP_RESOLVER_H_
#define STUB_MICRO_MUTABLE_OP_RESOLVER_H_
#include <cstring>
typedef enum TfLiteStatus { kTfLiteOk = 0, kTfLiteError = 1 } TfLiteStatus;
namespace tflite {
struct TFLMRegistration { const char* name; };
template <unsigned int tOpCount>
class MicroMutableOpResolver {
 public:
  TfLiteStatus AddCustom(const char* name, const TFLMRegistration* registration) {
    if (registration == nullptr || len_ >= tOpCount) return kTfLiteError;
    std::strcpy(names_[len_], "CUSTOM:");
    std::strncat(names_[len_], name, 80);
    return Record(names_[len_]);
  }
${methods}
  unsigned int GetRegistrationLength() const { return len_; }
  const char* Op(unsigned int i) const { return ops_[i]; }
 private:
  TfLiteStatus Record(const char* op) {
    if (len_ >= tOpCount) return kTfLiteError;
    for (unsigned int i = 0; i < len_; ++i) if (std::strcmp(ops_[i], op) == 0) return kTfLiteError;
    ops_[len_++] = op;
    return kTfLiteOk;
  }
  const char* ops_[tOpCount];
  char names_[tOpCount][96];
  unsigned int len_ = 0;
};
}  // namespace tflite
#endif
`;
}

const hasGpp = spawnSync('g++', ['--version'], { stdio: 'ignore' }).status === 0;

function conformanceModels(): { name: string; model: ModelDef }[] {
  const out: { name: string; model: ModelDef }[] = [];
  const suites: Suite[] = [];
  if (hasConformance) suites.push('models');
  if (hasConformanceOps) suites.push('ops');
  for (const suite of suites)
    for (const name of listModels(suite)) {
      const buf = readFileSync(join(modelDir(name, suite), 'model.tflite'));
      const bytes = new Uint8Array(buf.byteLength);
      bytes.set(buf);
      out.push({ name, model: loadModel(bytes) });
    }
  return out;
}

/** A model with two ops, one of them a custom op TFLM does not ship, and a repeated op. */
function customOpModel(): ModelDef {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
  const z = b.addTensor({ name: 'z', type: TensorType.FLOAT32, shape: [4] });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [4] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
  b.addOperator({ op: { custom: 'My-Op.v2' }, inputs: [y], outputs: [z], customOptions: new Uint8Array(0) });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [z], outputs: [w] });
  return loadModel(b.setInputs([x]).setOutputs([w]).build());
}

describe('resolverPlan', () => {
  it('counts each distinct op once, custom ops by name, and names the user registration of unknown customs', () => {
    const plan = resolverPlan(customOpModel());
    expect(plan.count).toBe(2);
    expect(plan.entries.map((e) => e.call)).toEqual(['AddRelu()', 'AddCustom("My-Op.v2", Register_My_Op_v2())']);
    expect(plan.entries.map((e) => e.builtIn)).toEqual([true, false]);
    expect(registrationFunctionName('9lives')).toBe('Register__9lives');
  });

  it("uses TFLM's own Add method for the signal ops and detection post-processing", () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [8] });
    const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [8] });
    const z = b.addTensor({ name: 'z', type: TensorType.INT16, shape: [8] });
    b.addOperator({ op: { custom: 'SignalWindow' }, inputs: [x], outputs: [y], customOptions: new Uint8Array(0) });
    b.addOperator({ op: { custom: 'TFLite_Detection_PostProcess' }, inputs: [y], outputs: [z], customOptions: new Uint8Array(0) });
    const plan = resolverPlan(loadModel(b.setInputs([x]).setOutputs([z]).build()));
    expect(plan.entries.map((e) => e.call)).toEqual(['AddWindow()', 'AddDetectionPostprocess()']);
  });

  it('lists builtin ops TFLM has no kernel for as missing, outside N', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 3] });
    const axis = b.addTensor({ name: 'axis', type: TensorType.INT32, shape: [1], data: new Int32Array([1]) });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [2] });
    b.addOperator({ op: BuiltinOperator.REDUCE_PROD, inputs: [x, axis], outputs: [y] });
    const plan = resolverPlan(loadModel(b.setInputs([x]).setOutputs([y]).build()));
    expect(plan).toMatchObject({ count: 0, missing: ['REDUCE_PROD'] });
  });
});

/** float [1,8] → FULLY_CONNECTED(8→4). */
function fcModel(): ModelDef {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 8] });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [4, 8], data: new Float32Array(32).fill(0.5) });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [x, w, -1], outputs: [y] });
  return loadModel(b.setInputs([x]).setOutputs([y]).build());
}

describe('header naming', () => {
  it("names the model after its file, or after the folder of a file called model.tflite, never after the output's folder", () => {
    expect(modelIdentifier('models/kws.tflite')).toBe('kws');
    expect(modelIdentifier('/data/models/keyword-spotting.v2.tflite')).toBe('keyword_spotting_v2');
    expect(modelIdentifier('person_detect/model.tflite')).toBe('person_detect');
    expect(modelIdentifier('model.tflite')).toBe('model');
    expect(modelIdentifier('demo:float-cnn')).toBe('demo_float_cnn');
    expect(modelIdentifier('9lives.tflite')).toBe('model_9lives');
  });

  it('guards the header with the model name', () => {
    const header = deployTflm(fcModel(), { modelLabel: 'models/kws.tflite' }).resolver.header;
    expect(header).toContain('#ifndef MICRORT_DEPLOY_KWS_OP_RESOLVER_H_');
    expect(header).toContain('#endif  // MICRORT_DEPLOY_KWS_OP_RESOLVER_H_');
    expect(header).not.toMatch(/MODELS_/);
    expect(header).toContain('// Generated by `micrort deploy --target tflm` for models/kws.tflite.');
    expect(resolverHeader(fcModel(), { modelLabel: 'models/kws.tflite', modelName: 'kws_int8' })).toContain(
      'MICRORT_DEPLOY_KWS_INT8_OP_RESOLVER_H_',
    );
  });

  it('defines kTensorArenaSize for the word size it is compiled for', () => {
    const r = deployTflm(fcModel(), { modelLabel: 'fc.tflite' });
    const [t64, t32] = r.targets;
    expect(r.resolver.header).toContain(
      `#if UINTPTR_MAX > 0xFFFFFFFFu\nconstexpr size_t kTensorArenaSize = ${t64!.arenaMinBytes};\n#else\nconstexpr size_t kTensorArenaSize = ${t32!.arenaMinBytes};\n#endif`,
    );
    expect(r.resolver.header).not.toContain('kTensorArenaSizeOfflinePlan');
    const planned = deployTflm(fcModel(), { modelLabel: 'fc.tflite', planner: 'optimal' });
    expect(planned.resolver.header).toContain(
      `constexpr size_t kTensorArenaSizeOfflinePlan = ${planned.offlinePlan!.targets[0]!.arenaMinBytes};`,
    );
  });
});

/** Minimal freestanding declarations of what a generated header uses (no C++ library: arm-none-eabi has none). */
function freestandingStub(): string {
  const methods = Object.keys(TFLM_METHODS)
    .map((m) => `  TfLiteStatus ${m}() { return kTfLiteOk; }`)
    .join('\n');
  return `#ifndef STUB_MICRO_MUTABLE_OP_RESOLVER_H_
#define STUB_MICRO_MUTABLE_OP_RESOLVER_H_
typedef enum TfLiteStatus { kTfLiteOk = 0, kTfLiteError = 1 } TfLiteStatus;
namespace tflite {
struct TFLMRegistration { const char* name; };
template <unsigned int tOpCount>
class MicroMutableOpResolver {
 public:
  TfLiteStatus AddCustom(const char*, const TFLMRegistration*) { return kTfLiteOk; }
${methods}
};
}  // namespace tflite
#endif
`;
}

const hasArmGpp = spawnSync('arm-none-eabi-g++', ['--version'], { stdio: 'ignore' }).status === 0;

/** Compiles `#include "model.h"` plus a static_assert on kTensorArenaSize with `compiler`. */
function arenaSizeCompiles(compiler: string, flags: readonly string[], header: string, expected: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'micrort-deploy-arena-'));
  try {
    mkdirSync(join(dir, 'tensorflow/lite/micro'), { recursive: true });
    writeFileSync(join(dir, 'tensorflow/lite/micro/micro_mutable_op_resolver.h'), freestandingStub());
    writeFileSync(join(dir, 'model.h'), header);
    writeFileSync(
      join(dir, 'check.cc'),
      `#include "model.h"\nstatic_assert(micrort_deploy::kTensorArenaSize == ${expected}u, "kTensorArenaSize");\n` +
        'alignas(16) static unsigned char tensor_arena[micrort_deploy::kTensorArenaSize];\nvoid* arena() { return tensor_arena; }\n',
    );
    execFileSync(compiler, ['-std=c++11', '-Wall', '-Werror', '-fsyntax-only', ...flags, '-I', dir, join(dir, 'check.cc')], {
      stdio: 'pipe',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('kTensorArenaSize compiles to the figure of the target', () => {
  const r = deployTflm(fcModel(), { modelLabel: 'fc.tflite' });
  it.skipIf(!hasGpp)('host g++ (LP64): the 64-bit figure', () => {
    arenaSizeCompiles('g++', [], r.resolver.header, r.targets[0]!.arenaMinBytes);
  });
  it.skipIf(!hasArmGpp)('arm-none-eabi-g++ -mcpu=cortex-m4 (ILP32): the 32-bit figure', () => {
    arenaSizeCompiles('arm-none-eabi-g++', ['-mcpu=cortex-m4', '-mthumb'], r.resolver.header, r.targets[1]!.arenaMinBytes);
  });
});

describe.skipIf(!hasGpp)('resolver headers compile with g++ against minimal TFLM declarations', () => {
  it('every conformance model (and a custom-op model): valid C++, N exact, every op registered once', () => {
    const models = [...conformanceModels(), { name: 'custom_op_model', model: customOpModel() }];
    const dir = mkdtempSync(join(tmpdir(), 'micrort-deploy-resolver-'));
    try {
      mkdirSync(join(dir, 'tensorflow/lite/micro'), { recursive: true });
      writeFileSync(join(dir, 'tensorflow/lite/micro/micro_mutable_op_resolver.h'), stubHeader());
      const includes: string[] = [];
      const checks: string[] = [];
      const userRegistrations: string[] = [];
      models.forEach(({ name, model }, i) => {
        const ns = `m${i}`;
        writeFileSync(join(dir, `${ns}.h`), resolverHeader(model, { modelLabel: name, namespace: ns }));
        includes.push(`#include "${ns}.h"`);
        const plan = resolverPlan(model);
        for (const e of plan.entries) if (!e.builtIn) userRegistrations.push(registrationFunctionName(e.op.slice('CUSTOM:'.length)));
        const expected = plan.entries.map((e) => `"${e.op}"`).join(', ');
        checks.push(
          `  {\n    static_assert(${ns}::kNumOps == ${plan.count}u, "${name}: N");\n` +
            `    ${ns}::OpResolver r;\n    if (${ns}::RegisterOps(r) != kTfLiteOk) { std::printf("${name}: RegisterOps failed\\n"); bad++; }\n` +
            `    const char* want[] = {${expected || '""'}};\n` +
            `    if (r.GetRegistrationLength() != ${plan.count}u) { std::printf("${name}: %u registrations\\n", r.GetRegistrationLength()); bad++; }\n` +
            `    for (unsigned int k = 0; k < r.GetRegistrationLength() && k < ${plan.count}u; ++k)\n` +
            `      if (std::strcmp(r.Op(k), want[k]) != 0) { std::printf("${name}: registration %u is %s, want %s\\n", k, r.Op(k), want[k]); bad++; }\n  }`,
        );
      });
      const registrations = [...new Set(userRegistrations)]
        .map((f) => `TFLMRegistration* ${f}() { static TFLMRegistration r = {"${f}"}; return &r; }`)
        .join('\n');
      const main = `#include <cstdio>\n#include <cstring>\n${includes.join('\n')}\nnamespace tflite {\n${registrations}\n}\nint main() {\n  int bad = 0;\n${checks.join('\n')}\n  std::printf("%d problems\\n", bad);\n  return bad == 0 ? 0 : 1;\n}\n`;
      writeFileSync(join(dir, 'main.cc'), main);
      execFileSync('g++', ['-std=c++11', '-Wall', '-Wextra', '-Werror', '-I', dir, '-o', join(dir, 'check'), join(dir, 'main.cc')], {
        stdio: 'pipe',
      });
      const out = execFileSync(join(dir, 'check'), { encoding: 'utf8' });
      expect(out.trim()).toBe('0 problems');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

if (!hasGpp)
  describe('resolver headers compile with g++', () => it.skip('g++ is not installed: the C++ compile check is skipped', () => {}));
