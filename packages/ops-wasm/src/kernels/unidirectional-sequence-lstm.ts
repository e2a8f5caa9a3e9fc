/**
 * UNIDIRECTIONAL_SEQUENCE_LSTM, the int8 variant (int8 input and hidden state, int8 symmetric
 * per-tensor weights, int32 biases, int16 cell state; TFLM lstm_eval.h EvalLstm<int8_t, int8_t,
 * int16_t, int32_t>): the eight gate fully connected layers, which hold nearly all the work, run in
 * WebAssembly (qs8_conv's one-pixel GEMM with int16 outputs, weights packed at prepare with the input
 * zero point folded into the bias); the element-wise rest of each step (int16 sigmoid/tanh, gate
 * products, the saturating cell update) runs in JavaScript on the arena's views, in the reference
 * kernel's arithmetic. Declines float32 and 16x8 LSTMs, CIFG, peepholes, projection, layer
 * normalization, asymmetric or non-constant weights, and time-major input with more than one batch
 * (ops-reference serves them).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  logisticInt16Run,
  multiplyByQuantizedMultiplier,
  numElements,
  quantizeMultiplier,
  roundHalfAwayFromZero,
  tanhInt16Run,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
  type UnidirectionalSequenceLSTMOptions,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { RQ_BYTES, RQ_WORDS, W, WINDOW_PARAMS_BYTES, constantInputCopies, writeRequantBlock, writeWindowParams } from './kernel-common.js';
import { packGemm } from './weight-pack.js';
import { declineArity } from '@micrort/kernel-support';

const OP = 'UNIDIRECTIONAL_SEQUENCE_LSTM';
/** Gate FC outputs are Q3.12, gate activations Q0.15. */
const NONLINEAR_INPUT_SCALE = 2 ** -12;
const NONLINEAR_OUTPUT_SCALE = 2 ** -15;

/** Input indices (TFLM lstm_shared.h). */
const T = { INPUT: 0, OUTPUT_STATE: 18, CELL_STATE: 19, COUNT: 24 } as const;
/** The gates in TFLM's evaluation order: forget, input, cell, output. */
const GATE_NAMES = ['forget', 'input', 'cell', 'output'];
const GATE_INPUT_WEIGHTS = [2, 1, 3, 4];
const GATE_RECURRENT_WEIGHTS = [6, 5, 7, 8];
const GATE_BIAS = [13, 12, 14, 15];
/** Optional inputs of the variants TFLM does not run (CIFG is input 1 missing). */
const UNSUPPORTED_INPUTS: [number, number, string][] = [
  [9, 11, 'peephole connections'],
  [16, 17, 'projection'],
  [20, 23, 'layer normalization'],
];

/** An element-wise product of two int16 vectors (TFLM ArithmeticParams of CreateInterGateMulParams). */
interface MulParams {
  outOffset: number;
  multiplier: number;
  shift: number;
  lo: number;
  hi: number;
}

interface LstmData {
  k: KernelExports | null;
  timeMajor: boolean;
  batch: number;
  steps: number;
  inputDim: number;
  stateDim: number;
  /** Parameter blocks of the eight gate GEMMs: gate g's input FC at 2g, recurrent FC at 2g + 1. */
  fc: Int32Array;
  /** Scratch buffer indices: four int16 gate buffers of stateDim values. */
  scratch: Int32Array;
  mulForgetCell: MulParams;
  mulInputCellGate: MulParams;
  mulHidden: MulParams;
  /** Whether cell_clip > 0, and the clip in the cell state's quantized domain. */
  clipCell: boolean;
  cellClip: number;
  tanhMultiplier: number;
  tanhShift: number;
  /** Arena copy of a constant input (-1: the input tensor). */
  fixed: number;
}

function fail(node: Node, detail: string): never {
  throw new KernelError(OP, node.index, detail);
}

function optional(context: TfLiteContext, node: Node, i: number): Tensor | null {
  const idx = node.inputs[i];
  return idx === undefined || idx < 0 ? null : context.getTensor(idx);
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, T.COUNT, 1);
  if (arity) return arity;
  const input = optional(context, node, T.INPUT);
  const cell = optional(context, node, T.CELL_STATE);
  if (!input || input.type !== TensorType.INT8) return `${input ? tensorTypeName(input.type) : 'missing'} input (handles the int8 LSTM)`;
  if (!cell || cell.type !== TensorType.INT16) return 'cell state not int16';
  if (!optional(context, node, 1)) return 'CIFG (no input gate)';
  for (const [first, last, name] of UNSUPPORTED_INPUTS) for (let i = first; i <= last; i++) if (optional(context, node, i)) return name;
  for (let g = 0; g < 4; g++) {
    for (const i of [GATE_INPUT_WEIGHTS[g]!, GATE_RECURRENT_WEIGHTS[g]!]) {
      const w = optional(context, node, i);
      if (!w || w.type !== TensorType.INT8 || !w.isConstant) return `${GATE_NAMES[g]} gate weights not constant int8`;
      if ((w.quantization?.zeroPoint.length ?? 0) !== 1 || w.quantization!.zeroPoint[0] !== 0) return 'weights not per-tensor symmetric';
    }
    const b = optional(context, node, GATE_BIAS[g]!);
    if (!b || b.type !== TensorType.INT32 || !b.isConstant) return `${GATE_NAMES[g]} gate bias not constant int32`;
  }
  const opts = node.builtinData as UnidirectionalSequenceLSTMOptions | null;
  if (opts?.timeMajor && input.dims.length === 3 && input.dims[1] !== 1) return 'time-major input with several batches';
  return true;
}

function requireScale(node: Node, what: string, t: Tensor): void {
  const s = t.params.scale;
  if (!(s > 0 && s < Infinity))
    fail(node, `${what} (tensor ${t.index}) needs a positive finite quantization scale, got ${t.quantization ? s : 'none'}`);
}

function checkedMultiplier(node: Node, real: number, what: string) {
  if (!(real >= 0 && real < Infinity)) fail(node, `${what}: effective scale ${real} is not a finite non-negative number`);
  return quantizeMultiplier(real);
}

function mulParams(node: Node, scale1: number, scale2: number, outScale: number, lo: number, hi: number, outOffset: number): MulParams {
  const q = checkedMultiplier(node, (scale1 * scale2) / outScale, 'gate multiplication');
  return { outOffset, multiplier: q.multiplier, shift: q.shift, lo, hi };
}

function shapeOf(t: Tensor): string {
  return `[${Array.from(t.dims).join(', ')}]`;
}

/**
 * Packs one gate FC (weights [S, depth], GetQuantizedConvolutionMultipler over the Q3.12 output scale)
 * and writes its parameter block; returns the block's offset.
 */
function prepareGateFc(
  context: TfLiteContext,
  node: Node,
  x: Tensor,
  w: Tensor,
  bias: Tensor | null,
  stateDim: number,
  depth: number,
): number {
  const rows = w.dims.length === 2 ? w.dims[0]! : -1;
  if (w.dims.length !== 2 || rows !== stateDim || w.dims[1] !== depth)
    fail(node, `weight tensor ${w.index} has shape ${shapeOf(w)}, expected [${stateDim}, ${depth}]`);
  if (w.quantization === null || w.quantization.scale.length !== 1)
    fail(node, `weight tensor ${w.index} must be per-tensor quantized (got ${w.quantization?.scale.length ?? 0} scales)`);
  requireScale(node, 'weight tensor', w);
  const q = checkedMultiplier(node, Math.fround(x.params.scale * w.params.scale) / NONLINEAR_INPUT_SCALE, `weight tensor ${w.index}`);
  const kb8 = (depth + 7) >> 3;
  const multiplier = new Int32Array([q.multiplier]);
  const shift = new Int32Array([q.shift]);
  const region = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  const p = region.i32;
  writeWindowParams(p, { batches: 1, inH: 1, inW: 1, inC: depth, outH: 1, outW: 1, outC: stateDim, actMin: -32768, actMax: 32767 });
  packGemm(context, p, w.data as Int8Array, stateDim, 1, depth, kb8, bias ? (bias.data as Int32Array) : null, x.params.zeroPoint);
  // one requantization block for every unit (per-tensor weights), in the arena beside the weights
  const rq = context.allocatePersistentBuffer(RQ_BYTES);
  writeRequantBlock(rq.i32, 0, 0, 1, multiplier, shift);
  for (let k = 0; k < RQ_WORDS; k++) rq.i32[k] = rq.i32[k & ~3]!;
  p[W.Rq] = rq.offset;
  p[W.RqStride] = 0;
  p[W.Kb8] = kb8;
  p[W.Direct] = 1;
  p[W.Out16] = 1;
  return region.offset;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as LstmData;
  const options = node.builtinData as UnidirectionalSequenceLSTMOptions | null;
  if (!options) fail(node, 'missing UnidirectionalSequenceLSTMOptions');
  if (node.inputs.length !== T.COUNT || node.outputs.length !== 1) fail(node, `expects ${T.COUNT} inputs and 1 output`);
  const input = context.getTensor(node.inputs[T.INPUT]!);
  const hidden = optional(context, node, T.OUTPUT_STATE);
  const cell = optional(context, node, T.CELL_STATE);
  const output = context.getTensor(node.outputs[0]!);
  if (!hidden || !hidden.isVariable) fail(node, 'hidden state (input 18) must be a variable tensor');
  if (!cell || !cell.isVariable) fail(node, 'cell state (input 19) must be a variable tensor');
  if (hidden.type !== TensorType.INT8 || output.type !== TensorType.INT8) fail(node, 'hidden state and output must be int8 like the input');
  if (options.fusedActivationFunction !== ActivationFunctionType.TANH)
    fail(
      node,
      `unsupported cell gate activation ${ActivationFunctionType[options.fusedActivationFunction] ?? options.fusedActivationFunction} (TFLM supports TANH)`,
    );
  if (!(options.cellClip >= 0)) fail(node, `cell_clip must be >= 0, got ${options.cellClip}`);
  if (input.dims.length !== 3) fail(node, `input (tensor ${input.index}) must be 3-D, got ${shapeOf(input)}`);
  if (hidden.dims.length !== 2) fail(node, `hidden state (tensor ${hidden.index}) must be 2-D, got ${shapeOf(hidden)}`);
  const timeMajor = options.timeMajor;
  const batch = timeMajor ? input.dims[1]! : input.dims[0]!;
  const steps = timeMajor ? input.dims[0]! : input.dims[1]!;
  const inputDim = input.dims[2]!;
  const stateDim = hidden.dims[1]!;
  if (timeMajor && batch !== 1) fail(node, `time-major input with ${batch} batches (handles 1)`);
  if (numElements(hidden.dims) !== batch * stateDim)
    fail(
      node,
      `hidden state (tensor ${hidden.index}) has ${numElements(hidden.dims)} elements, expected batch ${batch} x state ${stateDim}`,
    );
  if (numElements(cell.dims) !== batch * stateDim)
    fail(node, `cell state (tensor ${cell.index}) has ${numElements(cell.dims)} elements, expected batch ${batch} x state ${stateDim}`);
  if (output.dims.length !== 3 || output.dims[0] !== input.dims[0] || output.dims[1] !== input.dims[1] || output.dims[2] !== stateDim)
    fail(node, `output (tensor ${output.index}) has shape ${shapeOf(output)}, expected [${input.dims[0]}, ${input.dims[1]}, ${stateDim}]`);
  requireScale(node, 'input', input);
  requireScale(node, 'hidden state', hidden);
  requireScale(node, 'cell state', cell);

  const paramsRegion = context.allocatePersistentBuffer(16);
  data.k = kernelsFor(OP, node, paramsRegion);
  data.timeMajor = timeMajor;
  data.batch = batch;
  data.steps = steps;
  data.inputDim = inputDim;
  data.stateDim = stateDim;
  data.fc = new Int32Array(8);
  for (let g = 0; g < 4; g++) {
    const bias = context.getTensor(node.inputs[GATE_BIAS[g]!]!);
    if (bias.dims.length !== 1 || bias.dims[0] !== stateDim)
      fail(node, `bias tensor ${bias.index} has shape ${shapeOf(bias)}, expected [${stateDim}]`);
    data.fc[2 * g] = prepareGateFc(context, node, input, context.getTensor(node.inputs[GATE_INPUT_WEIGHTS[g]!]!), bias, stateDim, inputDim);
    data.fc[2 * g + 1] = prepareGateFc(
      context,
      node,
      hidden,
      context.getTensor(node.inputs[GATE_RECURRENT_WEIGHTS[g]!]!),
      null,
      stateDim,
      stateDim,
    );
  }
  const cellScale = cell.params.scale;
  data.mulForgetCell = mulParams(node, NONLINEAR_OUTPUT_SCALE, cellScale, cellScale, -32768, 32767, 0);
  data.mulInputCellGate = mulParams(node, NONLINEAR_OUTPUT_SCALE, NONLINEAR_OUTPUT_SCALE, cellScale, -32768, 32767, 0);
  data.mulHidden = mulParams(node, NONLINEAR_OUTPUT_SCALE, NONLINEAR_OUTPUT_SCALE, hidden.params.scale, -128, 127, hidden.params.zeroPoint);
  // CheckedLog2 (its status is ignored by TFLM): the rounded log2 of the cell scale.
  const power = roundHalfAwayFromZero(Math.fround(Math.log2(cellScale)));
  const cellClip = Math.fround(options.cellClip);
  data.clipCell = cellClip > 0;
  data.cellClip = Math.trunc(Math.min(Math.max(cellClip / cellScale, -32768), 32767));
  const tanhShift = 15 + power - 3;
  [data.tanhMultiplier, data.tanhShift] = tanhShift < 0 ? [3, -tanhShift] : [0, tanhShift];
  for (let i = 0; i < 4; i++) data.scratch[i] = context.requestScratchBufferInArena(batch * stateDim * 2);
  data.fixed = constantInputCopies(context, node, [T.INPUT])[0]!;
}

/** out[outAt + i] = clamp(outOffset + MBQM(a[aAt + i] * b[bAt + i])) (int16 inputs, zero offsets). */
function mul(
  m: MulParams,
  a: Int16Array,
  aAt: number,
  b: Int16Array,
  bAt: number,
  out: Int16Array | Int8Array,
  outAt: number,
  n: number,
): void {
  const { outOffset, multiplier, shift, lo, hi } = m;
  for (let i = 0; i < n; i++) {
    const v = outOffset + multiplyByQuantizedMultiplier(Math.imul(a[aAt + i]!, b[bAt + i]!), multiplier, shift);
    out[outAt + i] = v < lo ? lo : v > hi ? hi : v;
  }
}

/** Saturating int16 `a[aAt + i] + b[i]` into `a[aAt + i]`. */
function addSaturating(a: Int16Array, aAt: number, b: Int16Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const s = a[aAt + i]! + b[i]!;
    a[aAt + i] = s < -32768 ? -32768 : s > 32767 ? 32767 : s;
  }
}

/**
 * One gate: activation(FC(input) + FC(hidden)) into `out` (TFLM CalculateLstmGate): both FCs in
 * WebAssembly (int16 Q3.12 outputs), the saturating sum and the int16 sigmoid or tanh here.
 */
function gate(
  k: KernelExports,
  fc: Int32Array,
  g: number,
  x: number,
  hiddenAt: number,
  out: Int16Array,
  fcScratch: Int16Array,
  n: number,
  useTanh: boolean,
): void {
  k.qs8_conv(fc[2 * g]!, x, out.byteOffset);
  k.qs8_conv(fc[2 * g + 1]!, hiddenAt, fcScratch.byteOffset);
  addSaturating(out, 0, fcScratch, n);
  if (useTanh) tanhInt16Run(out, 0, out, 0, n, 0, 0);
  else logisticInt16Run(out, 0, out, 0, n, 0, 0);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as LstmData;
  const k = d.k!;
  const inputAt = d.fixed >= 0 ? d.fixed : context.getEvalTensor(node.inputs[T.INPUT]!).data.byteOffset;
  const hidden = context.getEvalTensor(node.inputs[T.OUTPUT_STATE]!).data as Int8Array;
  const cell = context.getEvalTensor(node.inputs[T.CELL_STATE]!).data as Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const forget = context.getScratchBuffer(d.scratch[0]!).i16;
  const inputGate = context.getScratchBuffer(d.scratch[1]!).i16;
  const cellGate = context.getScratchBuffer(d.scratch[2]!).i16;
  const fcScratch = context.getScratchBuffer(d.scratch[3]!).i16;
  const S = d.stateDim;
  const fc = d.fc;
  // Batch-major: each batch row runs its time steps with its own slice of the states; time-major has one batch.
  for (let b = 0; b < d.batch; b++) {
    const stateAt = b * S;
    const hiddenAt = hidden.byteOffset + stateAt;
    for (let t = 0; t < d.steps; t++) {
      const row = d.timeMajor ? t : b * d.steps + t;
      const x = inputAt + row * d.inputDim;
      gate(k, fc, 0, x, hiddenAt, forget, fcScratch, S, false);
      gate(k, fc, 1, x, hiddenAt, inputGate, fcScratch, S, false);
      gate(k, fc, 2, x, hiddenAt, cellGate, fcScratch, S, true);
      // cell = forget * cell + input * cellGate (saturating), then clip
      mul(d.mulForgetCell, forget, 0, cell, stateAt, cell, stateAt, S);
      mul(d.mulInputCellGate, inputGate, 0, cellGate, 0, inputGate, 0, S);
      addSaturating(cell, stateAt, inputGate, S);
      if (d.clipCell) {
        const clip = d.cellClip;
        for (let i = stateAt; i < stateAt + S; i++) {
          const v = cell[i]!;
          cell[i] = v > clip ? clip : v < -clip ? -clip : v;
        }
      }
      // hidden = tanh(cell) * outputGate
      gate(k, fc, 3, x, hiddenAt, inputGate, fcScratch, S, false);
      tanhInt16Run(cell, stateAt, forget, 0, S, d.tanhMultiplier, d.tanhShift);
      mul(d.mulHidden, forget, 0, inputGate, 0, hidden, stateAt, S);
      for (let i = 0, o = row * S; i < S; i++) output[o + i] = hidden[stateAt + i]!;
    }
  }
}

const NO_MUL: MulParams = { outOffset: 0, multiplier: 0, shift: 0, lo: 0, hi: 0 };

/** The UNIDIRECTIONAL_SEQUENCE_LSTM registration (int8 variant). */
export function createUnidirectionalSequenceLstm(): Registration<LstmData> {
  return {
    builtinCode: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
    version: 4,
    provider: PROVIDER,
    name: 'UNIDIRECTIONAL_SEQUENCE_LSTM/wasm-int8-gates',
    supports,
    init: (): LstmData => ({
      k: null,
      timeMajor: false,
      batch: 0,
      steps: 0,
      inputDim: 0,
      stateDim: 0,
      fc: new Int32Array(8),
      scratch: new Int32Array(4),
      mulForgetCell: NO_MUL,
      mulInputCellGate: NO_MUL,
      mulHidden: NO_MUL,
      clipCell: false,
      cellClip: 0,
      tanhMultiplier: 0,
      tanhShift: 0,
      fixed: -1,
    }),
    prepare,
    invoke,
  };
}
