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
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  type ArenaRegion,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
  type UnidirectionalSequenceLSTMOptions,
} from '@micrort/core';
import { LF, LF_BYTES, U, U_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';
import { G, GEMM_PARAMS_BYTES } from './gemm-common.js';
import { GEMM_NR, gemmPackedFloats, packGemmF32 } from './weight-pack-f32.js';
import { declineArity, setOutputShape, shapeText } from '@micrort/kernel-support';

const OP = 'UNIDIRECTIONAL_SEQUENCE_LSTM';

/** Input positions (TFLite lstm_shared.h). */
const X = 0;
/** Input-to-gate weights, recurrent weights and biases, gate order input, forget, cell, output. */
const INPUT_WEIGHTS = [1, 2, 3, 4] as const;
const RECURRENT_WEIGHTS = [5, 6, 7, 8] as const;
const BIASES = [12, 13, 14, 15] as const;
/** Peephole weights of the input, forget and output gates. */
const PEEPHOLE = [9, 10, 11] as const;
const PROJECTION_WEIGHTS = 16;
const PROJECTION_BIAS = 17;
const OUTPUT_STATE = 18;
const CELL_STATE = 19;
const LAYER_NORM = [20, 21, 22, 23] as const;
const COUNT = 24;
const GATE_NAMES = ['input', 'forget', 'cell', 'output'];

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
  nInput: number;
  nOutput: number;
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
    nInput: 0,
    nOutput: 0,
    projClip: 0,
    scratchGates: -1,
    scratchProjected: -1,
  };
}

function fail(node: Node, detail: string): never {
  throw new KernelError(OP, node.index, detail);
}

/** The node's tensor at input `i`, or null when omitted. */
function optional(context: TfLiteContext, node: Node, i: number): Tensor | null {
  const idx = node.inputs[i];
  return idx === undefined || idx < 0 ? null : context.getTensor(idx);
}

/** The node's tensors at `positions` that are present. */
function presentWeights(context: TfLiteContext, node: Node, positions: readonly number[]): Tensor[] {
  return positions.map((i) => optional(context, node, i)).filter((t): t is Tensor => t !== null);
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, COUNT, 1);
  if (arity) return arity;
  const input = optional(context, node, X);
  if (!input || input.type !== TensorType.FLOAT32) return `${input ? 'non-float32' : 'missing'} input (handles the float32 LSTM)`;
  const hidden = optional(context, node, OUTPUT_STATE);
  const cell = optional(context, node, CELL_STATE);
  const why = declineNonFloat([hidden, cell, context.getTensor(node.outputs[0]!)]);
  if (why) return why;
  if (LAYER_NORM.some((i) => optional(context, node, i))) return 'layer normalization';
  const opts = node.builtinData as UnidirectionalSequenceLSTMOptions | null;
  if (opts && opts.fusedActivationFunction !== ActivationFunctionType.TANH) return 'cell activation other than TANH';
  for (let g = 1; g < 4; g++)
    if (
      !optional(context, node, INPUT_WEIGHTS[g]!) ||
      !optional(context, node, RECURRENT_WEIGHTS[g]!) ||
      !optional(context, node, BIASES[g]!)
    )
      return `${GATE_NAMES[g]} gate weights or bias missing`;
  if (!optional(context, node, INPUT_WEIGHTS[0]) !== !optional(context, node, RECURRENT_WEIGHTS[0]))
    return 'input gate with only one of its weight tensors';
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

/** The float32 tensor at input `i`, which must be present, of shape `dims`. */
function expectShape(context: TfLiteContext, node: Node, i: number, what: string, dims: readonly number[]): Tensor {
  const t = optional(context, node, i);
  if (!t) fail(node, `${what} (input ${i}) is missing`);
  if (t.dims.length !== dims.length || dims.some((d, j) => t.dims[j] !== d))
    fail(node, `${what} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected ${shapeText(dims)}`);
  return t;
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

/** An f32_sigmoid / f32_tanh block over `count` floats. */
function unaryBlock(context: TfLiteContext, count: number): number {
  const r = context.allocatePersistentBuffer(U_BYTES);
  r.i32[U.Count] = count;
  return r.offset;
}

/** A persistent arena copy of `n` floats of `src` with four floats of slack (f32_lstm_step reads four at a time); its offset. */
function arenaCopy(context: TfLiteContext, src: Float32Array, n: number): number {
  const r = context.allocatePersistentBuffer((n + 4) * 4);
  r.f32.set(src.subarray(0, n));
  return r.offset;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = node.userData as LstmF32Data;
  const options = node.builtinData as UnidirectionalSequenceLSTMOptions | null;
  if (!options) fail(node, 'missing UnidirectionalSequenceLSTMOptions');
  if (node.inputs.length !== COUNT || node.outputs.length !== 1) fail(node, `expects ${COUNT} inputs and 1 output`);
  const input = context.getTensor(node.inputs[X]!);
  if (input.dims.length !== 3) fail(node, `input (tensor ${input.index}) must be 3-D, got ${shapeText(input.dims)}`);
  const [d0, d1, nInput] = [input.dims[0]!, input.dims[1]!, input.dims[2]!];
  const [steps, batches] = options.timeMajor ? [d0, d1] : [d1, d0];
  const forgetWeights = context.getTensor(node.inputs[INPUT_WEIGHTS[1]]!);
  const recurrentForget = context.getTensor(node.inputs[RECURRENT_WEIGHTS[1]]!);
  if (forgetWeights.dims.length !== 2 || recurrentForget.dims.length !== 2)
    fail(node, `gate weights must be 2-D, got ${shapeText(forgetWeights.dims)} and ${shapeText(recurrentForget.dims)}`);
  const S = forgetWeights.dims[0]!;
  const nOutput = recurrentForget.dims[1]!;
  const cifg = optional(context, node, INPUT_WEIGHTS[0]) === null;
  const peephole = optional(context, node, PEEPHOLE[1]) !== null;
  const projection = optional(context, node, PROJECTION_WEIGHTS) !== null;
  if (!projection && nOutput !== S) fail(node, `output size ${nOutput} differs from cell size ${S} without projection`);
  if (!projection && optional(context, node, PROJECTION_BIAS)) fail(node, 'projection bias without projection weights');
  if (options.fusedActivationFunction !== ActivationFunctionType.TANH) fail(node, 'cell activation must be TANH');
  if (!(options.cellClip >= 0) || !(options.projClip >= 0))
    fail(node, `cell_clip and proj_clip must be >= 0, got ${options.cellClip} and ${options.projClip}`);

  // gates in packing order: input (unless CIFG), forget, cell, output; S channels each
  const gates = cifg ? [1, 2, 3] : [0, 1, 2, 3];
  const channels = gates.length * S;
  const K = nInput + nOutput;
  const inW = gates.map((g) => expectShape(context, node, INPUT_WEIGHTS[g]!, `input-to-${GATE_NAMES[g]} weights`, [S, nInput]));
  const recW = gates.map((g) => expectShape(context, node, RECURRENT_WEIGHTS[g]!, `recurrent-to-${GATE_NAMES[g]} weights`, [S, nOutput]));
  const bias = gates.map((g) => expectShape(context, node, BIASES[g]!, `${GATE_NAMES[g]} gate bias`, [S]));
  const peep = [0, 0, 0];
  if (peephole) {
    const copy = (j: number, what: string) =>
      arenaCopy(context, expectShape(context, node, PEEPHOLE[j]!, `${what} peephole weights`, [S]).data as Float32Array, S);
    if (!cifg) peep[0] = copy(0, 'input');
    peep[1] = copy(1, 'forget');
    peep[2] = copy(2, 'output');
  } else if (PEEPHOLE.some((i) => optional(context, node, i))) fail(node, 'peephole weights without the forget gate’s');
  const hidden = expectShape(context, node, OUTPUT_STATE, 'output state', [batches, nOutput]);
  const cell = expectShape(context, node, CELL_STATE, 'cell state', [batches, S]);
  if (!hidden.isVariable || !cell.isVariable) fail(node, 'output state (input 18) and cell state (input 19) must be variable tensors');
  const output = setOutputShape(OP, context, node, 0, [d0, d1, nOutput]);
  if (output.type !== TensorType.FLOAT32) fail(node, `output (tensor ${output.index}) must be float32`);

  // [W_gate | R_gate] rows of every gate, one after the other, packed once (a prepare-time temporary)
  const matrix = new Float32Array(channels * K);
  const biases = new Float32Array(channels);
  gates.forEach((_, s) => {
    const w = inW[s]!.data as Float32Array;
    const r = recW[s]!.data as Float32Array;
    biases.set((bias[s]!.data as Float32Array).subarray(0, S), s * S);
    for (let c = 0; c < S; c++) {
      matrix.set(w.subarray(c * nInput, (c + 1) * nInput), (s * S + c) * K);
      matrix.set(r.subarray(c * nOutput, (c + 1) * nOutput), (s * S + c) * K + nInput);
    }
  });
  const packed = context.allocatePersistentBuffer(gemmPackedFloats(channels, K) * 4);
  packGemmF32(packed.f32, matrix, biases, channels, K);

  const block = context.allocatePersistentBuffer(LF_BYTES);
  const p = block.i32;
  p.fill(0, 0, LF.Words);
  p[LF.Batches] = batches;
  p[LF.Cell] = S;
  p[LF.Output] = nOutput;
  p[LF.Input] = nInput;
  p[LF.Channels] = channels;
  p[LF.Cifg] = cifg ? 1 : 0;
  p[LF.Packed] = packed.offset;
  p[LF.XBatchBytes] = (options.timeMajor ? nInput : steps * nInput) * 4;
  p[LF.OutBatchBytes] = (options.timeMajor ? nOutput : steps * nOutput) * 4;
  p[LF.PeepI] = peep[0]!;
  p[LF.PeepF] = peep[1]!;
  p[LF.PeepO] = peep[2]!;
  block.f32[LF.CellClip] = Math.fround(options.cellClip);
  p[LF.SigFirst] = unaryBlock(context, (cifg ? 1 : 2) * S);
  p[LF.OneGate] = unaryBlock(context, S);
  d.projectionGemm = 0;
  d.scratchProjected = -1;
  if (projection) {
    const w = expectShape(context, node, PROJECTION_WEIGHTS, 'projection weights', [nOutput, S]);
    const b = optional(context, node, PROJECTION_BIAS) && expectShape(context, node, PROJECTION_BIAS, 'projection bias', [nOutput]);
    const proj = gemmBlock(context, batches, nOutput, S, gemmPackedFloats(nOutput, S));
    packGemmF32(proj.packed, w.data as Float32Array, b ? (b.data as Float32Array) : null, nOutput, S);
    d.projectionGemm = proj.params.offset;
    d.scratchProjected = context.requestScratchBufferInArena(batches * S * 4);
  }
  d.k = floatKernelsFor(OP, node, block);
  d.step = block.offset;
  d.stepWords = p;
  d.input = constantInputCopies(context, node, [X])[0]!;
  d.timeMajor = options.timeMajor;
  d.batches = batches;
  d.steps = steps;
  d.nInput = nInput;
  d.nOutput = nOutput;
  d.projClip = projection ? Math.fround(options.projClip) : 0;
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
  const { batches: B, steps: T } = d;
  d.stepWords[LF.Gates] = context.getScratchBuffer(d.scratchGates).offset;
  const projected = d.scratchProjected >= 0 ? context.getScratchBuffer(d.scratchProjected).offset : 0;
  d.stepWords[LF.Projected] = projected;
  const hidden = context.getEvalTensor(node.inputs[OUTPUT_STATE]!).data as Float32Array;
  const cellAt = context.getEvalTensor(node.inputs[CELL_STATE]!).data.byteOffset;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const x = inputOffset(context, node, X, d.input);
  // step t's first row: time-major [T, B, .] rows t·B, batch-major [B, T, .] row t (the batches T rows apart)
  const xStep = (d.timeMajor ? B * d.nInput : d.nInput) * 4;
  const outStep = (d.timeMajor ? B * d.nOutput : d.nOutput) * 4;
  for (let t = 0; t < T; t++) {
    k.f32_lstm_step(d.step, x + t * xStep, hidden.byteOffset, cellAt, output.byteOffset + t * outStep);
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
