/**
 * UNIDIRECTIONAL_SEQUENCE_LSTM, the int8 variant (int8 input and hidden state, int8 symmetric
 * per-tensor weights, int32 biases, int16 cell state; TFLM lstm_eval.h EvalLstm<int8_t, int8_t,
 * int16_t, int32_t>): one WebAssembly call per invoke (qs8_lstm, assembly/int8/lstm.ts) runs every time
 * step of every batch: the eight gate fully connected layers (qs8_conv's one-pixel GEMM with int16
 * outputs, weights packed at prepare without padding, the input zero point folded into the bias), the int16
 * sigmoid/tanh (the int16 LOGISTIC / TANH kernels' table interpolation), the gate products
 * (MultiplyByQuantizedMultiplier), the saturating cell update and clip, the hidden state's
 * requantization to int8. Batch-major or time-major, any batches. Declines float32 and 16x8 LSTMs, CIFG,
 * peepholes, projection, layer normalization, asymmetric or non-constant weights, and cell-state scales
 * so large (about 2.8 and up) that the tanh rescaling multiplier leaves int16 (ops-reference serves them).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  numElements,
  quantizeMultiplier,
  roundHalfAwayFromZero,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
  type UnidirectionalSequenceLSTMOptions,
} from '@micrort/core';
import { LQ, LQ_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { RQ_BYTES, constantInputCopies } from './kernel-common.js';
import { sigmoid16TableAt } from '../constant-tables.js';
import { packGemv } from './weight-pack.js';
import { declineArity, int16SigmoidEvalRescale } from '@micrort/kernel-support';

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

interface LstmData {
  k: KernelExports | null;
  /** Arena offset of the LQ parameter block. */
  params: number;
  /** Memory offset of the packed int16 sigmoid table (constant-tables.ts, past the arena). */
  table: number;
  /** The scratch buffer: four int16 gate buffers and a requantization block. */
  scratch: number;
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
  const cellScale = cell.params.scale;
  if (cellScale > 0 && cellScale < Infinity && cellTanhRescale(cellScale).multiplier > 32767)
    return `cell state scale ${cellScale}: the tanh rescaling multiplier ${cellTanhRescale(cellScale).multiplier} does not fit in int16`;
  return true;
}

/**
 * The eval's rescaling of the cell state's tanh (TFLM's Q3.12 input from the cell scale: the rounded log2
 * of the scale, CheckedLog2 whose status TFLM ignores, gives a left shift of 15 + log2 - 3, or a right
 * shift with multiplier 3 when negative), as kernel-support's int16SigmoidEvalRescale runs it.
 */
function cellTanhRescale(cellScale: number): { multiplier: number; shift: number } {
  const power = roundHalfAwayFromZero(Math.fround(Math.log2(cellScale)));
  const tanhShift = 15 + power - 3;
  return int16SigmoidEvalRescale(tanhShift < 0 ? { multiplier: 3, leftShift: -tanhShift } : { multiplier: 0, leftShift: tanhShift });
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

/** Writes the quantized multiplier and shift of an element-wise int16 product (TFLM CreateInterGateMulParams) at `at`. */
function mulParams(node: Node, p: Int32Array, at: number, scale1: number, scale2: number, outScale: number): void {
  const q = checkedMultiplier(node, (scale1 * scale2) / outScale, 'gate multiplication');
  p[at] = q.multiplier;
  p[at + 1] = q.shift;
}

function shapeOf(t: Tensor): string {
  return `[${Array.from(t.dims).join(', ')}]`;
}

/**
 * Packs one gate FC (weights [S, depth], GetQuantizedConvolutionMultipler over the Q3.12 output scale)
 * for qs8_lstm: writes the packed weights' offset at `p[LQ.Fc + f]` and its quantized multiplier and shift
 * at `p[LQ.Rq + 2f]` (the kernel expands them into a requantization block in its scratch buffer).
 */
function prepareGateFc(
  context: TfLiteContext,
  node: Node,
  p: Int32Array,
  f: number,
  x: Tensor,
  w: Tensor,
  bias: Tensor | null,
  stateDim: number,
  depth: number,
): void {
  const rows = w.dims.length === 2 ? w.dims[0]! : -1;
  if (w.dims.length !== 2 || rows !== stateDim || w.dims[1] !== depth)
    fail(node, `weight tensor ${w.index} has shape ${shapeOf(w)}, expected [${stateDim}, ${depth}]`);
  if (w.quantization === null || w.quantization.scale.length !== 1)
    fail(node, `weight tensor ${w.index} must be per-tensor quantized (got ${w.quantization?.scale.length ?? 0} scales)`);
  requireScale(node, 'weight tensor', w);
  const q = checkedMultiplier(node, Math.fround(x.params.scale * w.params.scale) / NONLINEAR_INPUT_SCALE, `weight tensor ${w.index}`);
  p[LQ.Fc + f] = packGemv(context, w.data as Int8Array, stateDim, depth, bias ? (bias.data as Int32Array) : null, x.params.zeroPoint);
  p[LQ.Rq + 2 * f] = q.multiplier;
  p[LQ.Rq + 2 * f + 1] = q.shift;
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

  const paramsRegion = context.allocatePersistentBuffer(LQ_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  data.table = data.k ? sigmoid16TableAt(paramsRegion) : 0;
  data.params = paramsRegion.offset;
  const p = paramsRegion.i32;
  const gates = (stateDim + 7) & ~7;
  p[LQ.Batches] = batch;
  p[LQ.Steps] = steps;
  p[LQ.TimeMajor] = timeMajor ? 1 : 0;
  p[LQ.Input] = inputDim;
  p[LQ.State] = stateDim;
  p[LQ.Gates] = gates;
  for (let g = 0; g < 4; g++) {
    const bias = context.getTensor(node.inputs[GATE_BIAS[g]!]!);
    if (bias.dims.length !== 1 || bias.dims[0] !== stateDim)
      fail(node, `bias tensor ${bias.index} has shape ${shapeOf(bias)}, expected [${stateDim}]`);
    const inputWeights = context.getTensor(node.inputs[GATE_INPUT_WEIGHTS[g]!]!);
    prepareGateFc(context, node, p, 2 * g, input, inputWeights, bias, stateDim, inputDim);
    const recurrentWeights = context.getTensor(node.inputs[GATE_RECURRENT_WEIGHTS[g]!]!);
    prepareGateFc(context, node, p, 2 * g + 1, hidden, recurrentWeights, null, stateDim, stateDim);
  }
  const cellScale = cell.params.scale;
  mulParams(node, p, LQ.FcMult, NONLINEAR_OUTPUT_SCALE, cellScale, cellScale);
  mulParams(node, p, LQ.IcMult, NONLINEAR_OUTPUT_SCALE, NONLINEAR_OUTPUT_SCALE, cellScale);
  mulParams(node, p, LQ.HMult, NONLINEAR_OUTPUT_SCALE, NONLINEAR_OUTPUT_SCALE, hidden.params.scale);
  p[LQ.HZp] = hidden.params.zeroPoint;
  const cellClip = Math.fround(options.cellClip);
  p[LQ.Clip] = cellClip > 0 ? 1 : 0;
  p[LQ.CellClip] = Math.trunc(Math.min(Math.max(cellClip / cellScale, -32768), 32767));
  const tanh = cellTanhRescale(cellScale);
  if (tanh.multiplier > 32767) fail(node, `cell state scale ${cellScale}: tanh rescaling multiplier ${tanh.multiplier} > 32767`);
  p[LQ.TanhMult] = tanh.multiplier;
  p[LQ.TanhShift] = tanh.shift;
  // the forget, input, cell and recurrent-FC gate buffers (whole vectors), then the requantization block
  data.scratch = context.requestScratchBufferInArena(4 * gates * 2 + RQ_BYTES);
  data.fixed = constantInputCopies(context, node, [T.INPUT])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as LstmData;
  const inputAt = d.fixed >= 0 ? d.fixed : context.getEvalTensor(node.inputs[T.INPUT]!).data.byteOffset;
  const hidden = context.getEvalTensor(node.inputs[T.OUTPUT_STATE]!).data.byteOffset;
  const cell = context.getEvalTensor(node.inputs[T.CELL_STATE]!).data.byteOffset;
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const scratch = context.getScratchBuffer(d.scratch);
  d.k!.qs8_lstm(d.params, inputAt, hidden, cell, output, d.table, scratch.offset);
}

/** The UNIDIRECTIONAL_SEQUENCE_LSTM registration (int8 variant). */
export function createUnidirectionalSequenceLstm(): Registration<LstmData> {
  return {
    builtinCode: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
    version: 4,
    provider: PROVIDER,
    name: 'UNIDIRECTIONAL_SEQUENCE_LSTM/wasm-int8',
    supports,
    init: (): LstmData => ({ k: null, params: 0, table: 0, scratch: -1, fixed: -1 }),
    prepare,
    invoke,
  };
}
