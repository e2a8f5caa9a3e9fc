/**
 * Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM (TFLite lstm_eval.cc EvalHybrid / LstmStepHybrid, as
 * ops-reference's lstm-hybrid.ts): float32 input, states and output, constant int8 weights (or TFLite's
 * legacy uint8 hybrid weights, read as int8) with one scale per tensor, float32 biases; time-major or
 * batch-major, any batches, cell clip, CIFG, peepholes (int8, recovered to float at prepare as TFLite
 * does), projection (int8 weights, float32 bias, proj_clip), symmetric or `asymmetric_quantize_inputs`.
 *
 * One WebAssembly call per time step (hybrid_lstm_step, assembly/hybrid/lstm.ts) runs every batch row: the
 * input row and the output state quantized (hybrid_quantize, the bits of kernel-support's
 * batchQuantizeFloats), the int8 dot products of every gate — input and recurrent weights of all gates
 * packed at prepare as one int8 matrix [Channels × (Input + Output)] — scaled back with TFLite's float32
 * operations in TFLite's order (bias + Σ × (factor × weight scale), input part then recurrent part), then
 * the float LSTM's cell (assembly/float/lstm.ts lstmCell: peepholes, sigmoid, tanh, cell update and clip,
 * gated output), then with projection the gated output quantized and projected the same way. The gate
 * pre-activations equal ops-reference's bit for bit (up to the sign of a zero where TFLite skips an
 * all-zero row); the sigmoid and tanh are the float kernel's, within the float tolerance.
 *
 * Declines (ops-reference serves the node): layer normalization, cell activations other than TANH,
 * per-channel weight scales (TFLite's hybrid LSTM reads one scale per tensor; ops-reference reports them),
 * int4 or mixed weight types, weights or biases that are not constants.
 */
import { BuiltinOperator, TensorType, tensorTypeName, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { hybridWeightsInt8 } from '@micrort/kernel-support';
import { LF, LH, LH_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import type { KernelExports } from '../../wasm-module.js';
import { kernelsFor } from '../../wasm-arena.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { hasFixedData } from '../float/float-common.js';
import {
  BIASES,
  CELL_STATE,
  INPUT_WEIGHTS,
  OP,
  OUTPUT_STATE,
  PEEPHOLE,
  PROJECTION_BIAS,
  PROJECTION_WEIGHTS,
  RECURRENT_WEIGHTS,
  X,
  cellBlock,
  declineLstm,
  fail,
  optional,
  prepareLstmShape,
  presentWeights,
  stepBytes,
} from '../float/lstm-common.js';

interface HybridLstmData {
  k: KernelExports | null;
  /** hybrid_lstm_step's block (LH) and the cell's (LF): views for the scratch offsets written at invoke. */
  step: number;
  lh: Int32Array;
  lf: Int32Array;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
  steps: number;
  /** Byte steps from one time step's first input and output rows to the next. */
  xStep: number;
  outStep: number;
  /** The scratch buffer and the byte offsets in it of the gate row, the projection input, the quantized row, the widened row, the factors. */
  scratch: number;
  at: Int32Array;
}

function init(): HybridLstmData {
  return {
    k: null,
    step: 0,
    lh: new Int32Array(0),
    lf: new Int32Array(0),
    input: -1,
    steps: 0,
    xStep: 0,
    outStep: 0,
    scratch: -1,
    at: new Int32Array(5),
  };
}

const WEIGHT_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];

/** Why the weight tensor `t` is not taken (one positive finite scale, a constant of `type`), or null. */
function declineWeights(t: Tensor, type: TensorType): string | null {
  if (t.type !== type) return `weight tensor ${t.index} of another type than the input-to-output weights (mixed weight types)`;
  if (!t.isConstant) return `weight tensor ${t.index} is not a constant (packed at prepare)`;
  const q = t.quantization;
  if (!q || q.scale.length === 0 || !q.scale.every((s) => s > 0 && s < Infinity))
    return `weight tensor ${t.index} without a positive finite scale`;
  if (q.scale.length > 1)
    return `per-channel scales on weight tensor ${t.index} (TFLite's hybrid LSTM reads one scale per tensor; ops-reference reports them)`;
  return null;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const why = declineLstm(context, node);
  if (why) return why;
  const type = optional(context, node, INPUT_WEIGHTS[3])!.type;
  if (type === TensorType.FLOAT32) return 'not hybrid (float32 weights)';
  if (!WEIGHT_TYPES.includes(type)) return `hybrid weights of type ${tensorTypeName(type)} (handles int8 and uint8)`;
  for (const w of presentWeights(context, node, [...INPUT_WEIGHTS, ...RECURRENT_WEIGHTS, ...PEEPHOLE, PROJECTION_WEIGHTS])) {
    const no = declineWeights(w, type);
    if (no) return no;
  }
  for (const b of presentWeights(context, node, [...BIASES, PROJECTION_BIAS]))
    if (b.type !== TensorType.FLOAT32 || !hasFixedData(b)) return `bias tensor ${b.index} not a float32 constant`;
  return true;
}

/** The weight tensor's int8 values (uint8 read as int8) and its scale. */
function weightsOf(context: TfLiteContext, node: Node, t: Tensor): { w: Int8Array; scale: number } {
  const w = hybridWeightsInt8(OP, context, node, 'weights', t);
  if (!w) fail(node, `weights (tensor ${t.index}) must be a constant`);
  const scale = t.quantization?.scale.length === 1 ? t.quantization.scale[0]! : NaN;
  if (!(scale > 0 && scale < Infinity)) fail(node, `weights (tensor ${t.index}) of a hybrid LSTM need one positive scale`);
  return { w, scale };
}

const up = (n: number, m: number) => Math.ceil(n / m) * m;

/** Copies the `rows` × `cols` int8 matrix `src` into `dst` at row `row0`, column `col0` of rows `rowBytes` long. */
function placeRows(dst: Int8Array, rowBytes: number, row0: number, col0: number, src: Int8Array, rows: number, cols: number): void {
  for (let r = 0; r < rows; r++) dst.set(src.subarray(r * cols, (r + 1) * cols), (row0 + r) * rowBytes + col0);
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = node.userData as HybridLstmData;
  const s = prepareLstmShape(context, node);
  const { S, nInput, nOutput, batches, channels } = s;
  const rows4 = up(channels, 4);
  const kx8 = up(nInput, 8);
  const kh8 = up(nOutput, 8);

  // The gates' int8 rows [input weights | recurrent weights], every gate one after the other; per channel
  // its gate's bias and weight scales.
  const packed = context.allocatePersistentBuffer(rows4 * (kx8 + kh8));
  packed.i8.fill(0);
  const floatRegion = context.allocatePersistentBuffer(rows4 * 3 * 4);
  const floats = floatRegion.f32;
  const bias = floats.subarray(0, rows4);
  const scaleX = floats.subarray(rows4, 2 * rows4);
  const scaleH = floats.subarray(2 * rows4, 3 * rows4);
  floats.fill(0);
  s.gates.forEach((_, g) => {
    const x = weightsOf(context, node, s.inputWeights[g]!);
    const h = weightsOf(context, node, s.recurrentWeights[g]!);
    placeRows(packed.i8, kx8 + kh8, g * S, 0, x.w, S, nInput);
    placeRows(packed.i8, kx8 + kh8, g * S, kx8, h.w, S, nOutput);
    bias.set((s.biases[g]!.data as Float32Array).subarray(0, S), g * S);
    scaleX.fill(x.scale, g * S, (g + 1) * S);
    scaleH.fill(h.scale, g * S, (g + 1) * S);
  });
  // TFLite recovers the peephole weights to float32: int8 × scale
  const peepholes = s.peepholes.map((t) => {
    if (!t) return null;
    const { w, scale } = weightsOf(context, node, t);
    return Float32Array.from(w.subarray(0, S), (v) => v * scale);
  });
  const cell = cellBlock(context, s, peepholes);

  const block = context.allocatePersistentBuffer(LH_BYTES);
  const p = block.i32;
  p.fill(0, 0, LH.Words);
  p[LH.Lf] = cell.offset;
  p[LH.Packed] = packed.offset;
  p[LH.Kx8] = kx8;
  p[LH.Kh8] = kh8;
  p[LH.Bias] = floatRegion.offset;
  p[LH.ScaleX] = floatRegion.offset + rows4 * 4;
  p[LH.ScaleH] = floatRegion.offset + 2 * rows4 * 4;
  p[LH.Asymmetric] = s.options.asymmetricQuantizeInputs ? 1 : 0;
  const kp8 = up(S, 8);
  if (s.projectionWeights) {
    const out4 = up(nOutput, 4);
    const { w, scale } = weightsOf(context, node, s.projectionWeights);
    const proj = context.allocatePersistentBuffer(out4 * kp8);
    proj.i8.fill(0);
    placeRows(proj.i8, kp8, 0, 0, w, nOutput, S);
    const projBias = context.allocatePersistentBuffer(out4 * 4);
    projBias.f32.fill(0);
    if (s.projectionBias) projBias.f32.set((s.projectionBias.data as Float32Array).subarray(0, nOutput));
    p[LH.ProjPacked] = proj.offset;
    p[LH.Kp8] = kp8;
    p[LH.ProjBias] = projBias.offset;
    block.f32[LH.ProjScale] = scale;
    block.f32[LH.ProjClip] = Math.fround(s.options.projClip);
  }

  // one scratch buffer: gate row (rows4 and 4 floats of slack), projection input (B × S, 4 of slack),
  // quantized row, widened row, factors; each part 16-byte aligned
  const parts = [
    (rows4 + 4) * 4,
    s.projection ? (batches * S + 4) * 4 : 0,
    Math.max(nInput, nOutput, S) + 16,
    2 * Math.max(kx8 + kh8, s.projection ? kp8 : 0),
    16,
  ];
  let bytes = 0;
  parts.forEach((n, i) => {
    d.at[i] = bytes;
    bytes += up(n, 16);
  });
  d.scratch = context.requestScratchBufferInArena(bytes);
  d.k = kernelsFor(OP, node, block);
  d.step = block.offset;
  d.lh = p;
  d.lf = cell.i32;
  d.input = constantInputCopies(context, node, [X])[0]!;
  d.steps = s.steps;
  const step = stepBytes(s);
  d.xStep = step.x;
  d.outStep = step.out;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as HybridLstmData;
  const k = d.k!;
  const base = context.getScratchBuffer(d.scratch).offset;
  const at = d.at;
  d.lf[LF.Gates] = base + at[0]!;
  d.lf[LF.Projected] = d.lh[LH.ProjPacked] !== 0 ? base + at[1]! : 0;
  d.lh[LH.Quantized] = base + at[2]!;
  d.lh[LH.Row] = base + at[3]!;
  d.lh[LH.Factors] = base + at[4]!;
  const hidden = context.getEvalTensor(node.inputs[OUTPUT_STATE]!).data.byteOffset;
  const cell = context.getEvalTensor(node.inputs[CELL_STATE]!).data.byteOffset;
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const x = inputOffset(context, node, X, d.input);
  for (let t = 0; t < d.steps; t++) k.hybrid_lstm_step(d.step, x + t * d.xStep, hidden, cell, output + t * d.outStep);
}

/** The hybrid UNIDIRECTIONAL_SEQUENCE_LSTM registration (float32 nodes with int8 or uint8 weights only). */
export function createUnidirectionalSequenceLstmHybrid(): Registration<HybridLstmData> {
  return {
    builtinCode: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
    version: 4,
    provider: PROVIDER,
    name: 'UNIDIRECTIONAL_SEQUENCE_LSTM/wasm-hybrid',
    supports,
    init,
    prepare,
    invoke,
  };
}
