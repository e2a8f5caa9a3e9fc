/**
 * TFLM's arena for small models built here, derived by hand from TFLM's source at the reference commit
 * (every allocation of a plain MicroInterpreter, in order; docs/deploy.md has the method). Each case is
 * one a user measured against TFLM itself (x86-64, and a Cortex-M4 build with arm-none-eabi-gcc's short
 * enums) where the prediction used to differ.
 *
 * Framework allocations the derivations share (tail, from the arena's end; each persistent allocation is
 * AlignPointerDown(tail - size, its alignment), so sizes add and the tail rounds up):
 * - LP64: SingleArenaBufferAllocator 72 + GreedyMemoryPlanner 72 + MicroAllocator 72 + builtin-data
 *   allocator 16 = 232; SubgraphAllocations 16; TfLiteEvalTensor 24 per tensor; NodeAndRegistration 64 per
 *   node; per graph input/output: a pointer array (8, 16-aligned) and a TfLiteTensor (64, 8-aligned).
 * - ILP32: 36 + 44 + 36 + 8 = 124; SubgraphAllocations 8; TfLiteEvalTensor 12; NodeAndRegistration 32;
 *   pointer array 4 (16-aligned) and TfLiteTensor 32 (4-aligned) per graph input/output.
 * The head is the planned tensors (and scratch) at the busiest step.
 */
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { deployTflm } from './deploy.js';

const F32 = TensorType.FLOAT32;

/** Arena figures as [min, used] for 64 bits and for 32 bits (short enums). */
function figures(bytes: Uint8Array): { lp64: [number, number]; ilp32: [number, number] } {
  const r = deployTflm(bytes, { standIns: false });
  expect(r.exact).toBe(true);
  const [t64, t32] = r.targets;
  return { lp64: [t64!.arenaMinBytes, t64!.arenaUsedBytes], ilp32: [t32!.arenaMinBytes, t32!.arenaUsedBytes] };
}

/** x (float [2,3,4]) → RSQRT → y. */
function rsqrtModel(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F32, shape: [2, 3, 4] });
  const y = b.addTensor({ name: 'y', type: F32, shape: [2, 3, 4] });
  b.addOperator({ op: BuiltinOperator.RSQRT, inputs: [x], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** x (float [2,4,7,1]) → L2_POOL_2D 2x3, stride 1, VALID → y [2,3,5,1]. */
function l2PoolModel(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F32, shape: [2, 4, 7, 1] });
  const y = b.addTensor({ name: 'y', type: F32, shape: [2, 3, 5, 1] });
  b.addOperator({
    op: BuiltinOperator.L2_POOL_2D,
    inputs: [x],
    outputs: [y],
    options: { padding: 1, strideW: 1, strideH: 1, filterWidth: 3, filterHeight: 2 },
  });
  return b.setInputs([x]).setOutputs([y]).build();
}

/**
 * An average-word-vector text classifier (TFLite Model Maker's layout): int32 ids [1,256] → GATHER from
 * a float [1000,16] embedding → MEAN over the words → FULLY_CONNECTED 16 (relu) → FULLY_CONNECTED 2 →
 * SOFTMAX.
 */
function textClassifier(): Uint8Array {
  const b = new ModelBuilder();
  const ids = b.addTensor({ name: 'ids', type: TensorType.INT32, shape: [1, 256] });
  const table = b.addTensor({ name: 'table', type: F32, shape: [1000, 16], data: new Float32Array(16000).fill(0.01) });
  const emb = b.addTensor({ name: 'emb', type: F32, shape: [1, 256, 16] });
  const axis = b.addTensor({ name: 'axis', type: TensorType.INT32, shape: [1], data: new Int32Array([1]) });
  const avg = b.addTensor({ name: 'avg', type: F32, shape: [1, 16] });
  const w1 = b.addTensor({ name: 'w1', type: F32, shape: [16, 16], data: new Float32Array(256).fill(0.1) });
  const b1 = b.addTensor({ name: 'b1', type: F32, shape: [16], data: new Float32Array(16) });
  const h = b.addTensor({ name: 'h', type: F32, shape: [1, 16] });
  const w2 = b.addTensor({ name: 'w2', type: F32, shape: [2, 16], data: new Float32Array(32).fill(0.1) });
  const b2 = b.addTensor({ name: 'b2', type: F32, shape: [2], data: new Float32Array(2) });
  const logits = b.addTensor({ name: 'logits', type: F32, shape: [1, 2] });
  const probs = b.addTensor({ name: 'probs', type: F32, shape: [1, 2] });
  b.addOperator({ op: BuiltinOperator.GATHER, inputs: [table, ids], outputs: [emb], options: { axis: 0 } });
  b.addOperator({ op: BuiltinOperator.MEAN, inputs: [emb, axis], outputs: [avg], options: { keepDims: false } });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [avg, w1, b1], outputs: [h], options: { fusedActivationFunction: 1 } });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [h, w2, b2], outputs: [logits] });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [logits], outputs: [probs], options: { beta: 1 } });
  return b.setInputs([ids]).setOutputs([probs]).build();
}

describe("TFLM's arena, derived from its source", () => {
  it('RSQRT: OpDataAbsRsqrt is 28 bytes on a short-enum Cortex-M build (TfLiteQuantizationType is enum : int)', () => {
    // elementwise.cc: ElementWiseAbsRsqrtInit allocates sizeof(OpDataAbsRsqrt) = {int32 multiplier, int
    // shift, int input_offset, int output_offset, bool needs_rescale, TfLiteQuantizationType
    // input_quantization_type, TfLiteType input_type}. C++ sees TfLiteQuantizationType as `enum : int`
    // (tensorflow/lite/micro/c/common.h), so even with -fshort-enums: 16 + bool at 16, int enum at 20, the
    // 1-byte TfLiteType at 24 → 25 → 28 (not 20). PrepareAbsRsqrt takes two temp tensors, allocates nothing.
    // ILP32 tail: 124 + 8 = 132; 2 eval tensors 24 → 156; 1 node 32 → 188; op data 28 → 216 → 224 (16-aligned);
    // input 4 → 228 → 240, + 32 → 272; output 4 → 276 → 288, + 32 → 320. Head: x 96 + y 96 = 192.
    // Used 192 + 320 = 512; the minimum is set by CommitStaticMemoryPlan too: tail 224 + temp (144-byte
    // request block + 4 subgraph offset + 2 AllocationInfo × 24 = 196 → 208) + 40 × 2 planned buffers = 512.
    // LP64: 232 + 16 = 248; 48 → 296; 64 → 360; op data 28 → 388 → 400; io 8 → 416, 64 → 480, 8 → 496,
    // 64 → 560; used 192 + 560 = 752 (the conformance model rsqrt_f32's TFLM figure).
    expect(figures(rsqrtModel())).toEqual({ lp64: [752, 752], ilp32: [512, 512] });
  });

  it('L2_POOL_2D: its own kernel, no OpDataPooling, a writable copy of the output dims', () => {
    // l2_pool_2d.cc registers RegisterOp(nullptr, L2Prepare, L2Eval): no Init. L2Prepare takes output and
    // input as temps and calls CreateWritableTensorDimsWithCopy(output): a persistent TfLiteIntArray of rank
    // 4 = 4 + 4 × 4 = 20 bytes. Builtin data: TfLitePoolParams, 40 bytes, 4-aligned.
    // ILP32 tail: 132 + 24 → 156; 32 → 188; params 40 → 228; dims 20 → 248 → 256; input 4 → 272, + 32 →
    // 304; output 4 → 320, + 32 → 352. Head: x 224 + y 120 → 128 = 352. Used 352 + 352 = 704 (the old
    // model's 32-byte op data put the tail at 272 before the io tensors: 720).
    // LP64: 248 + 48 → 296; 64 → 360; params 40 → 400; dims 20 → 420 → 432; io 8 → 448, 64 → 512, 8 → 528,
    // 64 → 592; used 352 + 592 = 944 (conformance l2_pool_2d_f32_2x3; the old 32-byte op data also ended at 432).
    expect(figures(l2PoolModel())).toEqual({ lp64: [944, 944], ilp32: [704, 704] });
  });

  it('GATHER → MEAN → FULLY_CONNECTED text classifier: OpDataReduce holds three scratch indices (44 bytes)', () => {
    // reduce.cc InitReduce allocates sizeof(OpDataReduce): multiplier, shift, three scratch-buffer indices
    // (int32 sums, temporary index, resolved axes: PrepareMeanOrSumHelper requests the last two for float),
    // input_zp, input_scale, output_zp, output_scale, num_output_elements, num_axis = 11 × 4 = 44 bytes.
    // LP64 tail: 232; SubgraphAllocations 16 → 248; 12 eval tensors 288 → 536; 5 nodes 320 → 856. Builtin
    // data: TfLiteGatherParams 8 → 864, TfLiteReducerParams 1 → 865, TfLiteFullyConnectedParams 16 (4-aligned)
    // → 884 and → 900, TfLiteSoftmaxParams 4 → 904. Init: OpDataReduce 44 → 948 → 960 (with 40 it fitted
    // exactly: 944), OpDataFullyConnected 64 → 1024 and → 1088, SoftmaxParams 80 → 1168. Prepare: GATHER's
    // writable output dims (rank 3: 16) → 1184; MEAN's 2 scratch requests → 2 ScratchBufferHandles 16 →
    // 1200. Inputs/outputs: 8 → 1216, 64 → 1280, 8 → 1296, 64 → 1360. Head at GATHER: ids 1024 + embedding
    // 16384 = 17408. Used 17408 + 1360 = 18768 (TFLM's figure; predicted 18752 before).
    // ILP32: 460 before MEAN's Init either way, 460 + 44 → 512 as 460 + 40 did: unchanged, 18192.
    expect(figures(textClassifier())).toEqual({ lp64: [18768, 18768], ilp32: [18192, 18192] });
  });
});
