/**
 * UNIDIRECTIONAL_SEQUENCE_LSTM, float32 (TFLM lstm_eval.h EvalLstm<float>; with CIFG, peepholes or
 * projection TFLite's lstm_eval.cc EvalFloat, as ops-reference runs them), in WebAssembly: one call of
 * f32_lstm_step (assembly/float/lstm.ts) per time step runs every batch (batches are independent, so
 * batch-major input steps them together too): the gates' matrix-vector product over the input row and
 * the output state, with the four gates' input and recurrent weights and biases packed at prepare as one
 * f32_conv matrix [G·S, I + nOut]; the peepholes, sigmoid and tanh, the cell update and clip, the gated
 * output. With projection, f32_conv projects each step's gated outputs of all batches into the output
 * state (projection bias packed in), and proj_clip and the copy to the output rows run in JavaScript.
 * Declines layer normalization, cell activations other than TANH, weights or biases that are not float32
 * constants, and anything not float32 (the int8 kernel and ops-reference serve those).
 */
import { BuiltinOperator, TensorType, type ArenaRegion, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { LF } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';
import { G, GEMM_PARAMS_BYTES } from './gemm-common.js';
import {
  BIASES,
  CELL_STATE,
  INPUT_WEIGHTS,
  OUTPUT_STATE,
  PEEPHOLE,
  PROJECTION_BIAS,
  PROJECTION_WEIGHTS,
  RECURRENT_WEIGHTS,
  OP,
  X,
  cellBlock,
  declineLstm,
  prepareLstmShape,
  presentWeights,
  stepBytes,
} from './lstm-common.js';
import { GEMM_NR, gemmPackedFloats, packGemmF32 } from './weight-pack-f32.js';

interface LstmF32Data {
  k: FloatKernelExports | null;
  /** f32_lstm_step's parameter block (LF) and its words, for the scratch offsets written at invoke. */
  step: number;
  stepWords: Int32Array;
  /** f32_conv's parameter block of the projection (0: none). */
  projectionGemm: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
  timeMajor: boolean;
  batches: number;
  steps: number;
  nOutput: number;
  /** Byte steps from one time step's first input and output rows to the next. */
  xStep: number;
  outStep: number;
  projClip: number;
  /** Scratch buffer indices: the gate row; the projection's input [B, S] (-1: no projection). */
  scratchGates: number;
  scratchProjected: number;
}

function init(): LstmF32Data {
  return {
    k: null,
    step: 0,
    stepWords: new Int32Array(0),
    projectionGemm: 0,
    input: -1,
    timeMajor: false,
    batches: 0,
    steps: 0,
    nOutput: 0,
    xStep: 0,
    outStep: 0,
    projClip: 0,
    scratchGates: -1,
    scratchProjected: -1,
  };
}

function supports(context: TfLiteContext, node: Node): true | string {
  const why = declineLstm(context, node);
  if (why) return why;
  const weights = presentWeights(context, node, [
    ...INPUT_WEIGHTS,
    ...RECURRENT_WEIGHTS,
    ...BIASES,
    ...PEEPHOLE,
    PROJECTION_WEIGHTS,
    PROJECTION_BIAS,
  ]);
  for (const w of weights)
    if (w.type !== TensorType.FLOAT32 || !hasFixedData(w))
      return `weights or bias tensor ${w.index} not a float32 constant (hybrid or runtime weights)`;
  return true;
}

/**
 * A GEMM parameter block of `rows` rows of `K` floats by `outC` channels whose packing (`packedFloats`
 * floats) the caller writes into the returned view; no activation clamp.
 */
function gemmBlock(
  context: TfLiteContext,
  rows: number,
  outC: number,
  K: number,
  packedFloats: number,
): { params: ArenaRegion; packed: Float32Array } {
  const params = context.allocatePersistentBuffer(GEMM_PARAMS_BYTES);
  const packed = context.allocatePersistentBuffer(packedFloats * 4);
  const p = params.i32;
  p.fill(0, 0, G.Words);
  p[G.Total] = rows;
  p[G.OutC] = outC;
  p[G.K] = K;
  p[G.Packed] = packed.offset;
  p[G.RowBytes] = K * 4;
  params.f32[G.ActMin] = -Infinity;
  params.f32[G.ActMax] = Infinity;
  return { params, packed: packed.f32 };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = node.userData as LstmF32Data;
  const s = prepareLstmShape(context, node);
  const { S, nInput, nOutput, batches, channels } = s;
  const K = nInput + nOutput;
  // [W_gate | R_gate] rows of every gate, one after the other, packed once (a prepare-time temporary)
  const matrix = new Float32Array(channels * K);
  const biases = new Float32Array(channels);
  s.gates.forEach((_, g) => {
    const w = s.inputWeights[g]!.data as Float32Array;
    const r = s.recurrentWeights[g]!.data as Float32Array;
    biases.set((s.biases[g]!.data as Float32Array).subarray(0, S), g * S);
    for (let c = 0; c < S; c++) {
      matrix.set(w.subarray(c * nInput, (c + 1) * nInput), (g * S + c) * K);
      matrix.set(r.subarray(c * nOutput, (c + 1) * nOutput), (g * S + c) * K + nInput);
    }
  });
  const packed = context.allocatePersistentBuffer(gemmPackedFloats(channels, K) * 4);
  packGemmF32(packed.f32, matrix, biases, channels, K);

  const block = cellBlock(
    context,
    s,
    s.peepholes.map((t) => (t ? (t.data as Float32Array) : null)),
  );
  const p = block.i32;
  p[LF.Packed] = packed.offset;
  d.projectionGemm = 0;
  d.scratchProjected = -1;
  if (s.projectionWeights) {
    const b = s.projectionBias;
    const proj = gemmBlock(context, batches, nOutput, S, gemmPackedFloats(nOutput, S));
    packGemmF32(proj.packed, s.projectionWeights.data as Float32Array, b ? (b.data as Float32Array) : null, nOutput, S);
    d.projectionGemm = proj.params.offset;
    d.scratchProjected = context.requestScratchBufferInArena(batches * S * 4);
  }
  d.k = floatKernelsFor(OP, node, block);
  d.step = block.offset;
  d.stepWords = p;
  d.input = constantInputCopies(context, node, [X])[0]!;
  d.timeMajor = s.timeMajor;
  d.batches = batches;
  d.steps = s.steps;
  d.nOutput = nOutput;
  const step = stepBytes(s);
  d.xStep = step.x;
  d.outStep = step.out;
  d.projClip = s.projection ? Math.fround(s.options.projClip) : 0;
  d.scratchGates = context.requestScratchBufferInArena((Math.ceil(channels / GEMM_NR) * GEMM_NR + 4) * 4);
}

/** With projection: proj_clip on the new output state, then its rows into the output rows of step `t`. */
function finishProjection(d: LstmF32Data, hidden: Float32Array, output: Float32Array, t: number): void {
  const { batches: B, steps: T, nOutput: nOut } = d;
  const clip = d.projClip;
  if (clip > 0)
    for (let i = 0; i < B * nOut; i++) {
      const v = hidden[i]!;
      hidden[i] = v > clip ? clip : v < -clip ? -clip : v;
    }
  for (let b = 0; b < B; b++) {
    const o = (d.timeMajor ? t * B + b : b * T + t) * nOut;
    for (let j = 0; j < nOut; j++) output[o + j] = hidden[b * nOut + j]!;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as LstmF32Data;
  const k = d.k!;
  d.stepWords[LF.Gates] = context.getScratchBuffer(d.scratchGates).offset;
  const projected = d.scratchProjected >= 0 ? context.getScratchBuffer(d.scratchProjected).offset : 0;
  d.stepWords[LF.Projected] = projected;
  const hidden = context.getEvalTensor(node.inputs[OUTPUT_STATE]!).data as Float32Array;
  const cellAt = context.getEvalTensor(node.inputs[CELL_STATE]!).data.byteOffset;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const x = inputOffset(context, node, X, d.input);
  for (let t = 0; t < d.steps; t++) {
    k.f32_lstm_step(d.step, x + t * d.xStep, hidden.byteOffset, cellAt, output.byteOffset + t * d.outStep);
    if (projected !== 0) {
      k.f32_conv(d.projectionGemm, projected, hidden.byteOffset);
      finishProjection(d, hidden, output, t);
    }
  }
}

/** The float32 UNIDIRECTIONAL_SEQUENCE_LSTM registration. */
export function createUnidirectionalSequenceLstmF32(): Registration<LstmF32Data> {
  return {
    builtinCode: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
    version: 4,
    provider: PROVIDER,
    name: 'UNIDIRECTIONAL_SEQUENCE_LSTM/wasm-f32-gemm4x8',
    supports,
    init,
    prepare,
    invoke,
  };
}
