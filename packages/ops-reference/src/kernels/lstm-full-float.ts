/**
 * TFLite's float LSTM step (lstm_eval.cc LstmStepFloat, 2.9): every variant TFLite's full kernel runs —
 * CIFG (no input gate: input = 1 − forget), peephole connections, layer normalization, projection with
 * its clip, an auxiliary input, the cell clip — for LSTM and BIDIRECTIONAL_SEQUENCE_LSTM. TFLM's
 * UNIDIRECTIONAL_SEQUENCE_LSTM kernel (lstm-eval-float.ts) keeps TFLM's restrictions; this one follows
 * TFLite.
 *
 * Per gate: gate = bias (or 0 with layer norm) + W·x + Waux·aux + R·h + peephole ⊙ cell, then with
 * layer norm normalize(gate) ⊙ coefficients + bias; sigmoid, or the options' activation for the cell
 * gate. cell = forget ⊙ cell + input ⊙ cellGate (clipped); h = output ⊙ activation(cell), projected
 * (and clipped) when there are projection weights. Float32 rounding via Math.fround.
 */
import type { Node, TfLiteContext } from '@micrort/core';
import { ACT_SIGMOID, applyActivation, matVecAccumulate, meanStddevNormalize } from './recurrent-float.js';

const EMPTY = new Float32Array(0);

/** Positions, in the node's inputs, of one LSTM cell's tensors (-1: the op has no such input). */
export interface FullLstmInputs {
  /** Input-to-gate weights, gate order input, forget, cell, output. */
  inputWeights: readonly [number, number, number, number];
  auxWeights: readonly [number, number, number, number];
  recurrentWeights: readonly [number, number, number, number];
  /** Peephole weights of the input, forget and output gates. */
  peephole: readonly [number, number, number];
  biases: readonly [number, number, number, number];
  projectionWeights: number;
  projectionBias: number;
  layerNorm: readonly [number, number, number, number];
}

/** Sizes and variant of one cell, fixed in prepare. */
export interface FullLstmShape {
  nCell: number;
  nInput: number;
  nAux: number;
  nOutput: number;
  useCifg: boolean;
  usePeephole: boolean;
  useLayerNorm: boolean;
  useProjection: boolean;
  useProjectionBias: boolean;
  /** LSTMOptions' activation of the cell gate and of the cell state (ActivationFunctionType). */
  activation: number;
  cellClip: number;
  projClip: number;
}

/** The float data of the node's input at `position`, or an empty array when it is omitted or absent. */
function tensorData(context: TfLiteContext, node: Node, position: number): Float32Array {
  const i = position >= 0 && position < node.inputs.length ? node.inputs[position]! : -1;
  return i >= 0 ? (context.getEvalTensor(i).data as Float32Array) : EMPTY;
}

const INPUT = 0;
const FORGET = 1;
const CELL = 2;
const OUTPUT = 3;

/**
 * One LSTM cell of a node: its tensors bound per invoke (no allocation), four gate scratch buffers of
 * batch × nCell floats from the arena, and `step`, TFLite's LstmStepFloat over `batches` rows.
 */
export class FullLstmCell {
  private readonly w: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly aw: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly rw: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly bias: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly ln: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  /** Peephole weights by gate (index FORGET, INPUT, OUTPUT used). */
  private readonly peep: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private projW: Float32Array = EMPTY;
  private projB: Float32Array = EMPTY;
  private readonly gates: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];

  /** `scratch`: the arena scratch-buffer indices of the four gates. */
  constructor(
    readonly shape: FullLstmShape,
    private readonly at: FullLstmInputs,
    private readonly scratch: readonly number[],
    private readonly clips: Float32Array,
  ) {
    clips[0] = shape.cellClip;
    clips[1] = shape.projClip;
  }

  /** Binds this invoke's weight tensors and scratch buffers. */
  bind(context: TfLiteContext, node: Node): void {
    const at = this.at;
    for (let g = 0; g < 4; g++) {
      this.w[g] = tensorData(context, node, at.inputWeights[g]!);
      this.aw[g] = tensorData(context, node, at.auxWeights[g]!);
      this.rw[g] = tensorData(context, node, at.recurrentWeights[g]!);
      this.bias[g] = tensorData(context, node, at.biases[g]!);
      this.ln[g] = tensorData(context, node, at.layerNorm[g]!);
      this.gates[g] = context.getScratchBuffer(this.scratch[g]!).f32;
    }
    this.peep[INPUT] = tensorData(context, node, at.peephole[0]);
    this.peep[FORGET] = tensorData(context, node, at.peephole[1]);
    this.peep[OUTPUT] = tensorData(context, node, at.peephole[2]);
    this.projW = tensorData(context, node, at.projectionWeights);
    this.projB = tensorData(context, node, at.projectionBias);
  }

  /**
   * One step over `batches` rows: x rows of nInput from `xAt`, aux rows of nAux from `auxAt` (when nAux
   * > 0), the output state (nOutput per row) and cell state (nCell per row) updated in place, and the
   * new output state written to `out` rows `outStride` apart from `outAt`.
   */
  step(
    batches: number,
    x: Float32Array,
    xAt: number,
    aux: Float32Array,
    auxAt: number,
    h: Float32Array,
    hAt: number,
    c: Float32Array,
    cAt: number,
    out: Float32Array,
    outAt: number,
    outStride: number,
  ): void {
    const s = this.shape;
    const n = s.nCell * batches;
    if (!s.useCifg) this.gate(INPUT, ACT_SIGMOID, batches, x, xAt, aux, auxAt, h, hAt, c, cAt);
    this.gate(FORGET, ACT_SIGMOID, batches, x, xAt, aux, auxAt, h, hAt, c, cAt);
    this.gate(CELL, s.activation, batches, x, xAt, aux, auxAt, h, hAt, c, cAt);

    // UpdateLstmCellFloat.
    const forget = this.gates[FORGET]!;
    const cellGate = this.gates[CELL]!;
    const input = s.useCifg ? forget : this.gates[INPUT]!;
    const cellClip = this.clips[0]!;
    for (let i = 0; i < n; i++) {
      const f = forget[i]!;
      const ig = s.useCifg ? Math.fround(1 - f) : input[i]!;
      let v = Math.fround(Math.fround(f * c[cAt + i]!) + Math.fround(cellGate[i]! * ig));
      if (cellClip > 0) v = v > cellClip ? cellClip : v < -cellClip ? -cellClip : v;
      c[cAt + i] = v;
    }

    this.gate(OUTPUT, ACT_SIGMOID, batches, x, xAt, aux, auxAt, h, hAt, c, cAt);

    // CalculateLstmOutputFloat: the cell gate buffer is the scratch (activation NONE leaves it as is).
    const outputGate = this.gates[OUTPUT]!;
    applyActivation(c, cAt, n, s.activation, cellGate, 0);
    for (let i = 0; i < n; i++) cellGate[i] = Math.fround(outputGate[i]! * cellGate[i]!);
    const nOut = s.nOutput;
    if (s.useProjection) {
      for (let b = 0; b < batches; b++) for (let o = 0; o < nOut; o++) h[hAt + b * nOut + o] = s.useProjectionBias ? this.projB[o]! : 0;
      matVecAccumulate(this.projW, 0, nOut, s.nCell, cellGate, 0, batches, h, hAt, nOut);
      const projClip = this.clips[1]!;
      if (projClip > 0)
        for (let i = 0; i < batches * nOut; i++) {
          const v = h[hAt + i]!;
          h[hAt + i] = v > projClip ? projClip : v < -projClip ? -projClip : v;
        }
    } else for (let i = 0; i < batches * nOut; i++) h[hAt + i] = cellGate[i]!;
    for (let b = 0; b < batches; b++) for (let o = 0; o < nOut; o++) out[outAt + b * outStride + o] = h[hAt + b * nOut + o]!;
  }

  /** CalculateLstmGateFloat of gate `g` into its scratch buffer. */
  private gate(
    g: number,
    activation: number,
    batches: number,
    x: Float32Array,
    xAt: number,
    aux: Float32Array,
    auxAt: number,
    h: Float32Array,
    hAt: number,
    c: Float32Array,
    cAt: number,
  ): void {
    const s = this.shape;
    const nCell = s.nCell;
    const out = this.gates[g]!;
    const bias = this.bias[g]!;
    for (let b = 0; b < batches; b++) for (let i = 0; i < nCell; i++) out[b * nCell + i] = s.useLayerNorm ? 0 : bias[i]!;
    matVecAccumulate(this.w[g]!, 0, nCell, s.nInput, x, xAt, batches, out, 0, nCell);
    if (s.nAux > 0) matVecAccumulate(this.aw[g]!, 0, nCell, s.nAux, aux, auxAt, batches, out, 0, nCell);
    matVecAccumulate(this.rw[g]!, 0, nCell, s.nOutput, h, hAt, batches, out, 0, nCell);
    if (s.usePeephole && g !== CELL) {
      const p = this.peep[g]!;
      for (let b = 0; b < batches; b++)
        for (let i = 0; i < nCell; i++)
          out[b * nCell + i] = Math.fround(out[b * nCell + i]! + Math.fround(p[i]! * c[cAt + b * nCell + i]!));
    }
    if (s.useLayerNorm) {
      meanStddevNormalize(out, 0, nCell, batches);
      const coef = this.ln[g]!;
      for (let b = 0; b < batches; b++)
        for (let i = 0; i < nCell; i++) out[b * nCell + i] = Math.fround(Math.fround(out[b * nCell + i]! * coef[i]!) + bias[i]!);
    }
    applyActivation(out, 0, batches * nCell, activation, out, 0);
  }
}
