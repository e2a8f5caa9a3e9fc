/**
 * Prepare of TFLite's full float LSTM cell (lstm.cc / bidirectional_sequence_lstm.cc
 * CheckInputTensorDimensions): which variant the present tensors make (CIFG, peephole, layer norm,
 * projection), every tensor's shape against nCell, nInput, nOutput, and four gate scratch buffers.
 * Float32 only; the hybrid and integer kernels are declined with a reason.
 */
import { KernelError, TensorType, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { shapeText } from '@micrort/kernel-support';
import { FullLstmCell, type FullLstmInputs, type FullLstmShape } from './lstm-full-float.js';
import { HybridLstmCell } from './lstm-hybrid.js';
import { isVectorActivation } from './recurrent-float.js';

/** The node's tensor at input `position`, or null when omitted (or beyond the node's inputs). */
function optional(context: TfLiteContext, node: Node, position: number): Tensor | null {
  if (position < 0 || position >= node.inputs.length) return null;
  const i = node.inputs[position]!;
  return i < 0 ? null : context.getTensor(i);
}

/** Reason to decline: an integer LSTM (non-float input) or weights neither float32 nor int8/uint8. */
export function fullLstmDecline(context: TfLiteContext, node: Node, weightPositions: readonly number[]): true | string {
  const x = optional(context, node, 0);
  if (x !== null && x.type !== TensorType.FLOAT32) return `integer LSTM (input ${tensorTypeName(x.type)}) is not implemented; float32 only`;
  for (const p of weightPositions) {
    const t = optional(context, node, p);
    if (t !== null && t.type !== TensorType.FLOAT32 && t.type !== TensorType.INT8 && t.type !== TensorType.UINT8)
      return `LSTM weights of type ${tensorTypeName(t.type)}: float32, or int8/uint8 (hybrid) only`;
  }
  return true;
}

/** Options of the cell that come from the op's options. */
export interface FullLstmCellOptions {
  activation: number;
  cellClip: number;
  projClip: number;
}

/**
 * Checks one cell whose input rows have `nInput` values (and aux rows `nAux`, 0 for none) and returns
 * its shape; `nBatch` sizes the state checks. Throws a KernelError naming the tensor on any mismatch.
 */
export function checkFullLstmCell(
  op: string,
  context: TfLiteContext,
  node: Node,
  at: FullLstmInputs,
  nBatch: number,
  nInput: number,
  nAux: number,
  o: FullLstmCellOptions,
  weightType: TensorType = TensorType.FLOAT32,
): FullLstmShape {
  const fail = (msg: string): never => {
    throw new KernelError(op, node.index, msg);
  };
  const get = (p: number) => optional(context, node, p);
  const need = (p: number, what: string): Tensor => get(p) ?? fail(`${what} (input ${p}) is missing`);
  const typed = (t: Tensor | null, what: string, type: TensorType) => {
    if (t !== null && t.type !== type)
      fail(`${what} (tensor ${t.index}) has type ${tensorTypeName(t.type)}, expected ${tensorTypeName(type)}`);
  };
  const dims = (t: Tensor | null, want: number[], what: string, type: TensorType = TensorType.FLOAT32) => {
    if (t === null) return;
    typed(t, what, type);
    if (t.dims.length !== want.length || want.some((d, i) => t.dims[i] !== d))
      fail(`${what} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected ${shapeText(want)}`);
  };

  const inputToOutput = need(at.inputWeights[3], 'input-to-output weights');
  const recurrentToOutput = need(at.recurrentWeights[3], 'recurrent-to-output weights');
  if (inputToOutput.dims.length !== 2 || recurrentToOutput.dims.length !== 2)
    fail('input-to-output and recurrent-to-output weights must be 2-D');
  const nCell = inputToOutput.dims[0]!;
  const nOutput = recurrentToOutput.dims[1]!;
  const names = ['input', 'forget', 'cell', 'output'];

  const inputToInput = get(at.inputWeights[0]);
  const recurrentToInput = get(at.recurrentWeights[0]);
  if ((inputToInput === null) !== (recurrentToInput === null))
    fail('input-to-input and recurrent-to-input weights must be both present or both absent (CIFG)');
  const useCifg = inputToInput === null;
  for (let g = useCifg ? 1 : 0; g < 4; g++) {
    dims(need(at.inputWeights[g]!, `input-to-${names[g]} weights`), [nCell, nInput], `input-to-${names[g]} weights`, weightType);
    dims(
      need(at.recurrentWeights[g]!, `recurrent-to-${names[g]} weights`),
      [nCell, nOutput],
      `recurrent-to-${names[g]} weights`,
      weightType,
    );
  }
  for (let g = 0; g < 4; g++) {
    const w = get(at.auxWeights[g]!);
    if (nAux > 0 && !(useCifg && g === 0))
      dims(need(at.auxWeights[g]!, `aux-input-to-${names[g]} weights`), [nCell, nAux], `aux-to-${names[g]} weights`, weightType);
    else if (w !== null && nAux === 0) fail(`aux-input-to-${names[g]} weights (tensor ${w.index}) without an aux input`);
  }

  const peepInput = get(at.peephole[0]);
  const peepForget = get(at.peephole[1]);
  const peepOutput = get(at.peephole[2]);
  const usePeephole = peepOutput !== null;
  const peepholeConsistent = usePeephole
    ? (useCifg || peepInput !== null) && peepForget !== null
    : peepInput === null && peepForget === null;
  if (!peepholeConsistent) fail('peephole weights must be all present (the input one absent with CIFG) or all absent');
  if (useCifg && peepInput !== null) fail(`CIFG LSTM has cell-to-input weights (tensor ${peepInput.index})`);
  for (const [t, what] of [
    [peepInput, 'cell-to-input weights'],
    [peepForget, 'cell-to-forget weights'],
    [peepOutput, 'cell-to-output weights'],
  ] as const)
    dims(t, [nCell], what, weightType);

  const inputBias = get(at.biases[0]);
  if (useCifg && inputBias !== null) fail(`CIFG LSTM has an input gate bias (tensor ${inputBias.index})`);
  for (let g = useCifg ? 1 : 0; g < 4; g++) dims(need(at.biases[g]!, `${names[g]} gate bias`), [nCell], `${names[g]} gate bias`);

  const projW = get(at.projectionWeights);
  const projB = get(at.projectionBias);
  if (projW === null && projB !== null) fail(`projection bias (tensor ${projB.index}) without projection weights`);
  dims(projW, [nOutput, nCell], 'projection weights', weightType);
  dims(projB, [nOutput], 'projection bias');
  if (projW === null && nOutput !== nCell) fail(`without projection the output size ${nOutput} must equal the cell count ${nCell}`);

  const ln = at.layerNorm.map((p) => get(p));
  const useLayerNorm = ln[1] !== null;
  for (let g = 0; g < 4; g++) {
    const present = ln[g] !== null;
    const expected = useLayerNorm && !(useCifg && g === 0);
    if (present !== expected)
      fail(
        `${names[g]} layer norm coefficients must be ${expected ? 'present' : 'absent'} (layer norm ${useLayerNorm ? 'on' : 'off'}${useCifg ? ', CIFG' : ''})`,
      );
    dims(ln[g]!, [nCell], `${names[g]} layer norm coefficients`);
  }
  if (!isVectorActivation(o.activation)) fail(`unsupported activation ${o.activation}`);
  if (!(o.cellClip >= 0) || !(o.projClip >= 0)) fail(`cell_clip ${o.cellClip} and proj_clip ${o.projClip} must be >= 0`);
  if (!(nBatch >= 0)) fail(`batch ${nBatch}`);
  return {
    nCell,
    nInput,
    nAux,
    nOutput,
    useCifg,
    usePeephole,
    useLayerNorm,
    useProjection: projW !== null,
    useProjectionBias: projB !== null,
    activation: o.activation,
    cellClip: Math.fround(o.cellClip),
    projClip: Math.fround(o.projClip),
  };
}

/** Checks a state tensor: a float32 variable of `rows` × `cols` elements. */
export function checkLstmState(op: string, node: Node, t: Tensor, what: string, rows: number, cols: number): void {
  if (t.type !== TensorType.FLOAT32)
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) must be float32, got ${tensorTypeName(t.type)}`);
  if (!t.isVariable) throw new KernelError(op, node.index, `${what} (tensor ${t.index}) must be a variable tensor`);
  if (t.elementCount !== rows * cols)
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) has ${t.elementCount} elements, expected ${rows} x ${cols}`);
}

/** A cell of `shape` with four gate scratch buffers of `nBatch` rows requested from the arena. */
export function newFullLstmCell(context: TfLiteContext, shape: FullLstmShape, at: FullLstmInputs, nBatch: number): FullLstmCell {
  const scratch = [0, 1, 2, 3].map(() => context.requestScratchBufferInArena(Math.max(1, nBatch * shape.nCell) * 4));
  const clips = context.allocatePersistentBuffer(8).f32;
  return new FullLstmCell(shape, at, scratch, clips);
}

/** The weight type of a cell: float32, or int8/uint8 (the hybrid kernel), from its input-to-output weights. */
export function lstmWeightType(context: TfLiteContext, node: Node, at: FullLstmInputs): TensorType {
  return optional(context, node, at.inputWeights[3])?.type ?? TensorType.FLOAT32;
}

/** What LSTM and BIDIRECTIONAL_SEQUENCE_LSTM run: the float cell or the hybrid one. */
export type LstmCellRunner = FullLstmCell | HybridLstmCell;

/** The cell for `shape`: hybrid when `weightType` is not float32 (`asymmetric`: asymmetric_quantize_inputs). */
export function newLstmCell(
  op: string,
  context: TfLiteContext,
  node: Node,
  shape: FullLstmShape,
  at: FullLstmInputs,
  nBatch: number,
  weightType: TensorType,
  asymmetric: boolean,
): LstmCellRunner {
  if (weightType === TensorType.FLOAT32) return newFullLstmCell(context, shape, at, nBatch);
  const scratch = [0, 1, 2, 3].map(() => context.requestScratchBufferInArena(Math.max(1, nBatch * shape.nCell) * 4));
  const clips = context.allocatePersistentBuffer(8).f32;
  return new HybridLstmCell(op, context, node, shape, at, asymmetric, nBatch, scratch, clips);
}
