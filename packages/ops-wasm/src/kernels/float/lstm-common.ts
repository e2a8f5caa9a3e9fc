/**
 * What the float32 and the hybrid UNIDIRECTIONAL_SEQUENCE_LSTM kernels of ops-wasm share: the node's
 * input positions, what both decline (layer normalization, cell activations other than TANH, missing
 * gates, states or output not float32), the shape checks of prepare (TFLite's
 * CheckInputTensorDimensions for the variants both run: CIFG, peepholes, projection) and the parameter
 * block LF of the float cell (assembly/float/lstm.ts lstmCell), which both run after their gate products.
 */
import {
  ActivationFunctionType,
  KernelError,
  TensorType,
  type ArenaRegion,
  type Node,
  type Tensor,
  type TfLiteContext,
  type UnidirectionalSequenceLSTMOptions,
} from '@micrort/core';
import { declineArity, setOutputShape, shapeText } from '@micrort/kernel-support';
import { LF, LF_BYTES, U, U_BYTES } from '../../generated/abi.js';
import { declineNonFloat } from './float-common.js';

export const OP = 'UNIDIRECTIONAL_SEQUENCE_LSTM';

/** Input positions (TFLite lstm_shared.h). */
export const X = 0;
/** Input-to-gate weights, recurrent weights and biases, gate order input, forget, cell, output. */
export const INPUT_WEIGHTS = [1, 2, 3, 4] as const;
export const RECURRENT_WEIGHTS = [5, 6, 7, 8] as const;
export const BIASES = [12, 13, 14, 15] as const;
/** Peephole weights of the input, forget and output gates. */
export const PEEPHOLE = [9, 10, 11] as const;
export const PROJECTION_WEIGHTS = 16;
export const PROJECTION_BIAS = 17;
export const OUTPUT_STATE = 18;
export const CELL_STATE = 19;
const LAYER_NORM = [20, 21, 22, 23] as const;
const COUNT = 24;
export const GATE_NAMES = ['input', 'forget', 'cell', 'output'];

export function fail(node: Node, detail: string): never {
  throw new KernelError(OP, node.index, detail);
}

/** The node's tensor at input `i`, or null when omitted. */
export function optional(context: TfLiteContext, node: Node, i: number): Tensor | null {
  const idx = node.inputs[i];
  return idx === undefined || idx < 0 ? null : context.getTensor(idx);
}

/** The node's tensors at `positions` that are present. */
export function presentWeights(context: TfLiteContext, node: Node, positions: readonly number[]): Tensor[] {
  return positions.map((i) => optional(context, node, i)).filter((t): t is Tensor => t !== null);
}

/**
 * Why neither LSTM kernel takes the node, or null: arity, an input, states or output not float32, layer
 * normalization, a cell activation other than TANH, a gate (other than CIFG's input gate) without its
 * weights or bias, an input gate with only one of its weight tensors.
 */
export function declineLstm(context: TfLiteContext, node: Node): string | null {
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
  return null;
}

/** The tensor at input `i`, which must be present, of shape `dims`. */
export function expectShape(context: TfLiteContext, node: Node, i: number, what: string, dims: readonly number[]): Tensor {
  const t = optional(context, node, i);
  if (!t) fail(node, `${what} (input ${i}) is missing`);
  if (t.dims.length !== dims.length || dims.some((d, j) => t.dims[j] !== d))
    fail(node, `${what} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected ${shapeText(dims)}`);
  return t;
}

/** A prepared node's geometry and the tensors of its gates, in packing order. */
export interface LstmShape {
  options: UnidirectionalSequenceLSTMOptions;
  timeMajor: boolean;
  steps: number;
  batches: number;
  nInput: number;
  /** Cell size S. */
  S: number;
  nOutput: number;
  cifg: boolean;
  peephole: boolean;
  projection: boolean;
  /** The gates in packing order: input (unless CIFG), forget, cell, output. */
  gates: number[];
  /** gates.length * S. */
  channels: number;
  /** Per packed gate: input weights [S, nInput], recurrent weights [S, nOutput], bias [S]. */
  inputWeights: Tensor[];
  recurrentWeights: Tensor[];
  biases: Tensor[];
  /** Peephole weights [S] of the input (null with CIFG), forget and output gates, or nulls. */
  peepholes: (Tensor | null)[];
  /** Projection weights [nOutput, S] and bias [nOutput], or null. */
  projectionWeights: Tensor | null;
  projectionBias: Tensor | null;
}

/** Checks the node's tensors (shapes, states, options), sets the output's shape and returns its geometry. */
export function prepareLstmShape(context: TfLiteContext, node: Node): LstmShape {
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
  const gates = cifg ? [1, 2, 3] : [0, 1, 2, 3];
  const inputWeights = gates.map((g) => expectShape(context, node, INPUT_WEIGHTS[g]!, `input-to-${GATE_NAMES[g]} weights`, [S, nInput]));
  const recurrentWeights = gates.map((g) =>
    expectShape(context, node, RECURRENT_WEIGHTS[g]!, `recurrent-to-${GATE_NAMES[g]} weights`, [S, nOutput]),
  );
  const biases = gates.map((g) => expectShape(context, node, BIASES[g]!, `${GATE_NAMES[g]} gate bias`, [S]));
  const peepholes: (Tensor | null)[] = [null, null, null];
  if (peephole) {
    if (!cifg) peepholes[0] = expectShape(context, node, PEEPHOLE[0], 'input peephole weights', [S]);
    peepholes[1] = expectShape(context, node, PEEPHOLE[1], 'forget peephole weights', [S]);
    peepholes[2] = expectShape(context, node, PEEPHOLE[2], 'output peephole weights', [S]);
  } else if (PEEPHOLE.some((i) => optional(context, node, i))) fail(node, 'peephole weights without the forget gate’s');
  const hidden = expectShape(context, node, OUTPUT_STATE, 'output state', [batches, nOutput]);
  const cell = expectShape(context, node, CELL_STATE, 'cell state', [batches, S]);
  if (!hidden.isVariable || !cell.isVariable) fail(node, 'output state (input 18) and cell state (input 19) must be variable tensors');
  const output = setOutputShape(OP, context, node, 0, [d0, d1, nOutput]);
  if (output.type !== TensorType.FLOAT32) fail(node, `output (tensor ${output.index}) must be float32`);
  const projectionWeights = projection ? expectShape(context, node, PROJECTION_WEIGHTS, 'projection weights', [nOutput, S]) : null;
  const projectionBias =
    projection && optional(context, node, PROJECTION_BIAS)
      ? expectShape(context, node, PROJECTION_BIAS, 'projection bias', [nOutput])
      : null;
  return {
    options,
    timeMajor: options.timeMajor,
    steps,
    batches,
    nInput,
    S,
    nOutput,
    cifg,
    peephole,
    projection,
    gates,
    channels: gates.length * S,
    inputWeights,
    recurrentWeights,
    biases,
    peepholes,
    projectionWeights,
    projectionBias,
  };
}

/** An f32_sigmoid / f32_tanh block over `count` floats. */
function unaryBlock(context: TfLiteContext, count: number): number {
  const r = context.allocatePersistentBuffer(U_BYTES);
  r.i32[U.Count] = count;
  return r.offset;
}

/** A persistent arena copy of the `n` floats of `src` with four floats of slack (the kernels read four at a time); its offset. */
export function arenaCopy(context: TfLiteContext, src: Float32Array, n: number): number {
  const r = context.allocatePersistentBuffer((n + 4) * 4);
  r.f32.set(src.subarray(0, n));
  return r.offset;
}

/**
 * The cell's parameter block LF for `s`, with the peephole weights (float32, input / forget / output, null
 * where absent) copied into the arena; LF.Packed, LF.Gates and LF.Projected are the caller's.
 */
export function cellBlock(context: TfLiteContext, s: LstmShape, peepholes: readonly (Float32Array | null)[]): ArenaRegion {
  const block = context.allocatePersistentBuffer(LF_BYTES);
  const p = block.i32;
  p.fill(0, 0, LF.Words);
  p[LF.Batches] = s.batches;
  p[LF.Cell] = s.S;
  p[LF.Output] = s.nOutput;
  p[LF.Input] = s.nInput;
  p[LF.Channels] = s.channels;
  p[LF.Cifg] = s.cifg ? 1 : 0;
  p[LF.XBatchBytes] = (s.timeMajor ? s.nInput : s.steps * s.nInput) * 4;
  p[LF.OutBatchBytes] = (s.timeMajor ? s.nOutput : s.steps * s.nOutput) * 4;
  const copy = (w: Float32Array | null | undefined) => (w ? arenaCopy(context, w, s.S) : 0);
  p[LF.PeepI] = copy(peepholes[0]);
  p[LF.PeepF] = copy(peepholes[1]);
  p[LF.PeepO] = copy(peepholes[2]);
  block.f32[LF.CellClip] = Math.fround(s.options.cellClip);
  p[LF.SigFirst] = unaryBlock(context, (s.cifg ? 1 : 2) * s.S);
  p[LF.OneGate] = unaryBlock(context, s.S);
  return block;
}

/** Byte steps from one time step's first input and output rows to the next: time-major [T, B, .] B rows, batch-major [B, T, .] one. */
export function stepBytes(s: LstmShape): { x: number; out: number } {
  return { x: (s.timeMajor ? s.batches * s.nInput : s.nInput) * 4, out: (s.timeMajor ? s.batches * s.nOutput : s.nOutput) * 4 };
}
