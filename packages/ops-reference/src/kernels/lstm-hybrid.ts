/**
 * TFLite's hybrid LSTM step (lstm_eval.cc LstmStepHybrid, 2.9) for LSTM and BIDIRECTIONAL_SEQUENCE_LSTM:
 * float32 activations and states × int8 weights (uint8 read as int8), one scale per weight tensor. Per
 * step the input, aux input and output state rows are quantized once (symmetric, or asymmetric with
 * `asymmetric_quantize_inputs`; all-zero inputs skipped); each gate = bias (0 with layer norm) +
 * Σ int8 products × (row factor · weight scale) + recovered peephole weights ⊙ cell, then layer norm and
 * the activation, as the float cell; the projection quantizes the gated cell output the same way. The
 * arithmetic is kernel-support's hybrid.ts; the cell update is the float cell's.
 */
import { KernelError, TensorType, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import {
  applyActivationToVector,
  batchQuantizeFloats,
  hybridWeightsInt8,
  isZeroVector,
  matrixBatchVectorMultiplyAccumulate,
  reductionSumVector,
  type HybridWeights,
} from '@micrort/kernel-support';
import type { FullLstmInputs, FullLstmShape } from './lstm-full-float.js';
import { ACT_SIGMOID, applyActivation, meanStddevNormalize } from './recurrent-float.js';

const EMPTY = new Float32Array(0);
const INPUT = 0;
const FORGET = 1;
const CELL = 2;
const OUTPUT = 3;

/** A hybrid matrix with its per-tensor scale (null when the tensor is absent). */
interface Matrix {
  w: HybridWeights;
  scale: number;
}

function tensorAt(context: TfLiteContext, node: Node, position: number): Tensor | null {
  if (position < 0 || position >= node.inputs.length) return null;
  const i = node.inputs[position]!;
  return i < 0 ? null : context.getTensor(i);
}

function scaleOf(op: string, node: Node, what: string, t: Tensor): number {
  const q = t.quantization;
  if (!q || q.scale.length !== 1 || !(q.scale[0]! > 0 && q.scale[0]! < Infinity))
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) of a hybrid LSTM needs one positive scale`);
  return q.scale[0]!;
}

function matrixAt(op: string, context: TfLiteContext, node: Node, position: number, rows: number, cols: number): Matrix | null {
  const t = tensorAt(context, node, position);
  if (t === null) return null;
  if (t.type !== TensorType.INT8 && t.type !== TensorType.UINT8)
    throw new KernelError(
      op,
      node.index,
      `weights (tensor ${t.index}) of a hybrid LSTM must be int8 or uint8, got ${tensorTypeName(t.type)}`,
    );
  const data = hybridWeightsInt8(op, context, node, 'weights', t);
  if (data === null) throw new KernelError(op, node.index, `weights (tensor ${t.index}) of a hybrid LSTM must be a constant`);
  const rowSums = context.allocatePersistentBuffer(Math.max(1, rows) * 4).i32;
  reductionSumVector(data, 0, rows, cols, rowSums);
  return {
    w: { matrix: data, offset: 0, rows, cols, rowSums, rowSumsOffset: 0, perChannelScale: null },
    scale: scaleOf(op, node, 'weights', t),
  };
}

/** The float data of the node's input at `position`, or an empty array when omitted. */
function floatData(context: TfLiteContext, node: Node, position: number): Float32Array {
  const i = position >= 0 && position < node.inputs.length ? node.inputs[position]! : -1;
  return i >= 0 ? (context.getEvalTensor(i).data as Float32Array) : EMPTY;
}

/** One hybrid LSTM cell of a node; its quantization buffers are persistent, its gate buffers arena scratch. */
export class HybridLstmCell {
  private readonly w: (Matrix | null)[];
  private readonly aw: (Matrix | null)[];
  private readonly rw: (Matrix | null)[];
  private readonly proj: Matrix | null;
  /** Peephole weights recovered to float (int8 × scale), by gate. */
  private readonly peep: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly bias: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly ln: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private projB: Float32Array = EMPTY;
  private readonly gates: Float32Array[] = [EMPTY, EMPTY, EMPTY, EMPTY];
  private readonly qx: Int8Array;
  private readonly qaux: Int8Array;
  private readonly qh: Int8Array;
  private readonly qcell: Int8Array;
  /** Row factors and zero points of x, aux, h and the projection input, rows at 0, B, 2B, 3B. */
  private readonly sf: Float32Array;
  private readonly zp: Int32Array;
  /** Factor × weight scale of one product, in the slots of `sf`. */
  private readonly scaled: Float32Array;
  /** Zero-input flags of x, aux, h for this step (1: all zero, skipped). */
  private readonly zero: Int32Array;

  constructor(
    op: string,
    context: TfLiteContext,
    node: Node,
    readonly shape: FullLstmShape,
    private readonly at: FullLstmInputs,
    private readonly asymmetric: boolean,
    nBatch: number,
    private readonly scratch: readonly number[],
    private readonly clips: Float32Array,
  ) {
    const { nCell, nInput, nAux, nOutput } = shape;
    this.w = at.inputWeights.map((p) => matrixAt(op, context, node, p, nCell, nInput));
    this.aw = at.auxWeights.map((p) => (nAux > 0 ? matrixAt(op, context, node, p, nCell, nAux) : null));
    this.rw = at.recurrentWeights.map((p) => matrixAt(op, context, node, p, nCell, nOutput));
    this.proj = shape.useProjection ? matrixAt(op, context, node, at.projectionWeights, nOutput, nCell) : null;
    const peepholes = [at.peephole[0], at.peephole[1], -1, at.peephole[2]];
    peepholes.forEach((p, g) => {
      const t = tensorAt(context, node, p);
      if (t === null) return;
      if (t.type === TensorType.FLOAT32)
        throw new KernelError(op, node.index, `peephole weights (tensor ${t.index}) of a hybrid LSTM must be int8`);
      const data = hybridWeightsInt8(op, context, node, 'peephole weights', t);
      if (data === null) throw new KernelError(op, node.index, `peephole weights (tensor ${t.index}) of a hybrid LSTM must be a constant`);
      const scale = scaleOf(op, node, 'peephole weights', t);
      const recovered = context.allocatePersistentBuffer(nCell * 4).f32;
      for (let i = 0; i < nCell; i++) recovered[i] = data[i]! * scale;
      this.peep[g] = recovered;
    });
    const rows = Math.max(1, nBatch);
    this.qx = context.allocatePersistentBuffer(Math.max(1, rows * nInput)).i8;
    this.qaux = context.allocatePersistentBuffer(Math.max(1, rows * nAux)).i8;
    this.qh = context.allocatePersistentBuffer(Math.max(1, rows * nOutput)).i8;
    this.qcell = context.allocatePersistentBuffer(Math.max(1, rows * nCell)).i8;
    this.sf = context.allocatePersistentBuffer(4 * rows * 4).f32;
    this.zp = context.allocatePersistentBuffer(4 * rows * 4).i32;
    this.scaled = context.allocatePersistentBuffer(4 * rows * 4).f32;
    this.zero = context.allocatePersistentBuffer(16).i32;
    clips[0] = shape.cellClip;
    clips[1] = shape.projClip;
  }

  /** Binds this invoke's float tensors (biases, layer norm, projection bias) and scratch buffers. */
  bind(context: TfLiteContext, node: Node): void {
    const at = this.at;
    for (let g = 0; g < 4; g++) {
      this.bias[g] = floatData(context, node, at.biases[g]!);
      this.ln[g] = floatData(context, node, at.layerNorm[g]!);
      this.gates[g] = context.getScratchBuffer(this.scratch[g]!).f32;
    }
    this.projB = floatData(context, node, at.projectionBias);
  }

  /** One step over `batches` rows, with the float cell's arguments (FullLstmCell.step). */
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
    this.quantize(0, x, xAt, batches, s.nInput, this.qx);
    if (s.nAux > 0) this.quantize(1, aux, auxAt, batches, s.nAux, this.qaux);
    else this.zero[1] = 1;
    this.quantize(2, h, hAt, batches, s.nOutput, this.qh);
    if (!s.useCifg) this.gate(INPUT, ACT_SIGMOID, batches, c, cAt);
    this.gate(FORGET, ACT_SIGMOID, batches, c, cAt);
    this.gate(CELL, s.activation, batches, c, cAt);

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
    this.gate(OUTPUT, ACT_SIGMOID, batches, c, cAt);

    // CalculateLstmOutputHybrid.
    const outputGate = this.gates[OUTPUT]!;
    applyActivation(c, cAt, n, s.activation, cellGate, 0);
    for (let i = 0; i < n; i++) cellGate[i] = Math.fround(outputGate[i]! * cellGate[i]!);
    const nOut = s.nOutput;
    if (this.proj !== null) {
      for (let b = 0; b < batches; b++) for (let o = 0; o < nOut; o++) h[hAt + b * nOut + o] = s.useProjectionBias ? this.projB[o]! : 0;
      this.quantize(3, cellGate, 0, batches, s.nCell, this.qcell);
      if (this.zero[3] === 0) this.product(this.proj, this.qcell, 3, batches, h, hAt, nOut);
      const projClip = this.clips[1]!;
      if (projClip > 0)
        for (let i = 0; i < batches * nOut; i++) {
          const v = h[hAt + i]!;
          h[hAt + i] = v > projClip ? projClip : v < -projClip ? -projClip : v;
        }
    } else for (let i = 0; i < batches * nOut; i++) h[hAt + i] = cellGate[i]!;
    for (let b = 0; b < batches; b++) for (let o = 0; o < nOut; o++) out[outAt + b * outStride + o] = h[hAt + b * nOut + o]!;
  }

  /** Quantizes `batches` rows of `size` into `q` (factors and zero points in slot `slot`), unless all zero. */
  private quantize(slot: number, v: Float32Array, at: number, batches: number, size: number, q: Int8Array): void {
    const zero = isZeroVector(v, at, batches * size);
    this.zero[slot] = zero ? 1 : 0;
    if (!zero) batchQuantizeFloats(v, at, batches, size, q, 0, this.sf, this.zp, slot * batches, this.asymmetric);
  }

  /** out rows (`stride` apart) += m × q, with the factors of `slot` × m's scale. */
  private product(m: Matrix, q: Int8Array, slot: number, batches: number, out: Float32Array, outAt: number, stride: number): void {
    const at = slot * batches;
    for (let b = 0; b < batches; b++) this.scaled[at + b] = this.sf[at + b]! * m.scale;
    matrixBatchVectorMultiplyAccumulate(m.w, q, 0, this.scaled, this.zp, slot * batches, batches, out, outAt, stride);
  }

  /** CalculateLstmGateHybrid of gate `g` into its scratch buffer. */
  private gate(g: number, activation: number, batches: number, c: Float32Array, cAt: number): void {
    const s = this.shape;
    const nCell = s.nCell;
    const out = this.gates[g]!;
    const bias = this.bias[g]!;
    for (let b = 0; b < batches; b++) for (let i = 0; i < nCell; i++) out[b * nCell + i] = s.useLayerNorm ? 0 : bias[i]!;
    if (this.zero[0] === 0) this.product(this.w[g]!, this.qx, 0, batches, out, 0, nCell);
    const aw = this.aw[g];
    if (this.zero[1] === 0 && aw) this.product(aw, this.qaux, 1, batches, out, 0, nCell);
    if (this.zero[2] === 0) this.product(this.rw[g]!, this.qh, 2, batches, out, 0, nCell);
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
    if (activation === ACT_SIGMOID) applyActivation(out, 0, batches * nCell, activation, out, 0);
    else applyActivationToVector(activation, out, 0, batches * nCell);
  }
}
