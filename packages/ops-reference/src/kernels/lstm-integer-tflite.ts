/**
 * TFLite's integer LSTM cell, "8x8_16" (lstm.cc PopulateQuantizedLstmParams8x8_16 and
 * PopulatePrecomputedZPTimesWeightsWithBias; lstm_eval.cc LstmStepInteger8x8_16, TFLite 2.9): int8 input
 * and output state, int8 weights, int32 biases, int16 cell state, with every variant TFLite runs — CIFG,
 * peephole (int16 weights), layer normalization (int16 coefficients, the gate intermediates' scales),
 * projection (int32 bias, proj_clip) and cell clip. Gates are Q3.12 int16 sums (the intermediates'
 * scales with layer norm) through gemmlowp's int16 sigmoid and tanh; the hidden state takes the scale
 * and zero point of the fifth intermediate tensor. The arithmetic is kernel-support's lstm-integer.ts.
 *
 * This is not TFLM's integer LSTM (lstm-eval-integer.ts, UNIDIRECTIONAL_SEQUENCE_LSTM): TFLM uses the
 * reference int16 LUT sigmoid/tanh, the output state's scale for the hidden state and its own gate sums,
 * which round differently from TFLite's kernel in some elements.
 */
import {
  KernelError,
  TensorType,
  multiplyByQuantizedMultiplier,
  quantizeMultiplier,
  roundHalfAwayFromZero,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import {
  applyLayerNormInt16,
  cwiseAddInt16,
  cwiseMulShiftInt16,
  cwiseMulToInt8,
  gemmlowpLogisticInt16,
  gemmlowpTanhInt16,
  matrixBatchVectorMultiplyAccumulateInt,
  shapeText,
} from '@micrort/kernel-support';

/** Gates in TFLite's order. */
const INPUT = 0;
const FORGET = 1;
const CELL = 2;
const OUTPUT = 3;
const NAMES = ['input', 'forget', 'cell', 'output'];
const EMPTY_I8 = new Int8Array(0);
const EMPTY_I16 = new Int16Array(0);
const EMPTY_I32 = new Int32Array(0);

/** Positions of a full LSTM's inputs (24 inputs, as lstm_shared.h). */
const IN_W = [1, 2, 3, 4];
const REC_W = [5, 6, 7, 8];
const PEEP = [9, 10, -1, 11];
const BIAS = [12, 13, 14, 15];
const PROJ_W = 16;
const PROJ_B = 17;
const OUTPUT_STATE = 18;
const CELL_STATE = 19;
const LN = [20, 21, 22, 23];

/** Words of the parameter block (quantized multipliers are pairs: multiplier, shift). */
const P = {
  IN: 0, // 4 gates × 2
  REC: 8,
  PEEP: 16,
  LN: 24,
  GUARD: 32, // 4 gates
  PROJ: 36,
  HIDDEN: 38,
  HIDDEN_ZP: 40,
  OUT_ZP: 41,
  CELL_CLIP: 42,
  PROJ_CLIP: 43,
  CELL_SCALE: 44,
  COUNT: 45,
} as const;

function tensorAt(context: TfLiteContext, node: Node, position: number): Tensor | null {
  if (position < 0 || position >= node.inputs.length) return null;
  const i = node.inputs[position]!;
  return i < 0 ? null : context.getTensor(i);
}

/** float32 division/multiplication as C++ `float` expressions compute them. */
const f = Math.fround;

/** The integer cell of one LSTM node, prepared from its tensors; `step` runs one time step. */
export class TfliteIntegerLstmCell {
  readonly nBatch: number;
  readonly nInput: number;
  readonly nCell: number;
  readonly nOutput: number;
  private readonly useCifg: boolean;
  private readonly usePeephole: boolean;
  private readonly useLayerNorm: boolean;
  private readonly useProjection: boolean;
  private readonly p: Int32Array;
  /** Effective biases: input-to-gate (bias + input zp terms) and recurrent-to-gate, by gate; projection. */
  private readonly inBias: Int32Array[] = [EMPTY_I32, EMPTY_I32, EMPTY_I32, EMPTY_I32];
  private readonly recBias: Int32Array[] = [EMPTY_I32, EMPTY_I32, EMPTY_I32, EMPTY_I32];
  private readonly projBias: Int32Array;
  private readonly invSqrt: Int32Array;
  // Bound per invoke.
  private readonly inW: Int8Array[] = [EMPTY_I8, EMPTY_I8, EMPTY_I8, EMPTY_I8];
  private readonly recW: Int8Array[] = [EMPTY_I8, EMPTY_I8, EMPTY_I8, EMPTY_I8];
  private readonly peep: Int16Array[] = [EMPTY_I16, EMPTY_I16, EMPTY_I16, EMPTY_I16];
  private readonly ln: Int16Array[] = [EMPTY_I16, EMPTY_I16, EMPTY_I16, EMPTY_I16];
  private readonly lnBias: Int32Array[] = [EMPTY_I32, EMPTY_I32, EMPTY_I32, EMPTY_I32];
  private readonly gates: Int16Array[] = [EMPTY_I16, EMPTY_I16, EMPTY_I16, EMPTY_I16];
  private projW: Int8Array = EMPTY_I8;
  private hidden: Int8Array = EMPTY_I8;

  constructor(op: string, context: TfLiteContext, node: Node, nBatch: number, cellClip: number, projClip: number) {
    const fail = (msg: string): never => {
      throw new KernelError(op, node.index, msg);
    };
    const get = (pos: number) => tensorAt(context, node, pos);
    const need = (pos: number, what: string) => get(pos) ?? fail(`${what} (input ${pos}) is missing`);
    const typed = (t: Tensor | null, type: TensorType, what: string) => {
      if (t !== null && t.type !== type) fail(`${what} (tensor ${t.index}) must be ${tensorTypeName(type)}, got ${tensorTypeName(t.type)}`);
    };
    const scale = (t: Tensor, what: string): number => {
      const q = t.quantization;
      if (!q || q.scale.length !== 1 || !(q.scale[0]! > 0 && q.scale[0]! < Infinity))
        fail(`${what} (tensor ${t.index}) of an integer LSTM needs one positive finite scale`);
      return f(q!.scale[0]!);
    };
    const input = need(0, 'input');
    const outputState = need(OUTPUT_STATE, 'output state');
    const cellState = need(CELL_STATE, 'cell state');
    typed(input, TensorType.INT8, 'input');
    typed(outputState, TensorType.INT8, 'output state');
    typed(cellState, TensorType.INT16, 'cell state');
    if (!outputState.isVariable || !cellState.isVariable) fail('output and cell state must be variable tensors');
    if (node.intermediates.length !== 5)
      fail(
        node.intermediates.length === 12
          ? 'the 8x8_8 integer LSTM (12 intermediate tensors) is not implemented; the 8x8_16 one (5) is'
          : `an integer LSTM needs 5 intermediate tensors, got ${node.intermediates.length}`,
      );
    if (input.dims.length !== 2) fail(`input (tensor ${input.index}) must be 2-D, got ${shapeText(input.dims)}`);
    const inW = IN_W.map((pos) => get(pos));
    const recW = REC_W.map((pos) => get(pos));
    const toOutput = need(IN_W[OUTPUT]!, 'input-to-output weights');
    const recToOutput = need(REC_W[OUTPUT]!, 'recurrent-to-output weights');
    if (toOutput.dims.length !== 2 || recToOutput.dims.length !== 2) fail('input-to-output and recurrent-to-output weights must be 2-D');
    this.nBatch = nBatch;
    this.nInput = input.dims[1]!;
    this.nCell = toOutput.dims[0]!;
    this.nOutput = recToOutput.dims[1]!;
    const { nInput, nCell, nOutput } = this;
    this.useCifg = inW[INPUT] === null;
    if ((inW[INPUT] === null) !== (recW[INPUT] === null))
      fail('input-to-input and recurrent-to-input weights must be both present or absent');
    const dims = (t: Tensor, want: number[], what: string) => {
      if (t.dims.length !== want.length || want.some((d, i) => t.dims[i] !== d))
        fail(`${what} (tensor ${t.index}) has shape ${shapeText(t.dims)}, expected ${shapeText(want)}`);
    };
    const first = this.useCifg ? 1 : 0;
    for (let g = first; g < 4; g++) {
      const w = need(IN_W[g]!, `input-to-${NAMES[g]} weights`);
      const r = need(REC_W[g]!, `recurrent-to-${NAMES[g]} weights`);
      typed(w, TensorType.INT8, `input-to-${NAMES[g]} weights`);
      typed(r, TensorType.INT8, `recurrent-to-${NAMES[g]} weights`);
      dims(w, [nCell, nInput], `input-to-${NAMES[g]} weights`);
      dims(r, [nCell, nOutput], `recurrent-to-${NAMES[g]} weights`);
      const b = need(BIAS[g]!, `${NAMES[g]} gate bias`);
      typed(b, TensorType.INT32, `${NAMES[g]} gate bias`);
      dims(b, [nCell], `${NAMES[g]} gate bias`);
    }
    if (this.useCifg && get(BIAS[INPUT]!) !== null) fail('CIFG LSTM has an input gate bias');
    const peep = PEEP.map((pos) => get(pos));
    this.usePeephole = peep[OUTPUT] !== null;
    const peepOk = this.usePeephole
      ? (this.useCifg || peep[INPUT] !== null) && peep[FORGET] !== null
      : peep[INPUT] === null && peep[FORGET] === null;
    if (!peepOk || (this.useCifg && peep[INPUT] !== null))
      fail('peephole weights must be all present (no input one with CIFG) or all absent');
    for (const g of [INPUT, FORGET, OUTPUT]) {
      const t = peep[g]!;
      if (t === null) continue;
      typed(t, TensorType.INT16, `cell-to-${NAMES[g]} weights`);
      dims(t, [nCell], `cell-to-${NAMES[g]} weights`);
    }
    // TFLite accumulates the peephole product over rows of n_output elements (lstm_eval.cc passes n_output
    // as the vector size): reproduced when n_output <= n_cell; beyond, TFLite reads past the weights.
    if (this.usePeephole && nOutput > nCell)
      fail(`peephole with projection to ${nOutput} outputs from ${nCell} cells: TFLite's integer kernel reads past the peephole weights`);
    const ln = LN.map((pos) => get(pos));
    this.useLayerNorm = ln[FORGET] !== null;
    for (let g = 0; g < 4; g++) {
      const t = ln[g]!;
      const want = this.useLayerNorm && !(this.useCifg && g === INPUT);
      if ((t !== null) !== want) fail(`${NAMES[g]} layer norm coefficients must be ${want ? 'present' : 'absent'}`);
      if (t === null) continue;
      typed(t, TensorType.INT16, `${NAMES[g]} layer norm coefficients`);
      dims(t, [nCell], `${NAMES[g]} layer norm coefficients`);
    }
    const projW = get(PROJ_W);
    const projB = get(PROJ_B);
    this.useProjection = projW !== null;
    if (projW === null && projB !== null) fail('projection bias without projection weights');
    if (projW !== null) {
      typed(projW, TensorType.INT8, 'projection weights');
      dims(projW, [nOutput, nCell], 'projection weights');
    }
    if (projB !== null) {
      typed(projB, TensorType.INT32, 'projection bias');
      dims(projB, [nOutput], 'projection bias');
    }
    if (projW === null && nOutput !== nCell) fail(`without projection the output size ${nOutput} must equal the cell count ${nCell}`);
    if (outputState.elementCount !== nBatch * nOutput) fail(`output state (tensor ${outputState.index}) must hold ${nBatch} x ${nOutput}`);
    if (cellState.elementCount !== nBatch * nCell) fail(`cell state (tensor ${cellState.index}) must hold ${nBatch} x ${nCell}`);

    // PopulateQuantizedLstmParams8x8_16.
    const p = context.allocatePersistentBuffer(P.COUNT * 4).i32;
    this.p = p;
    const cellScale = scale(cellState, 'cell state');
    const output = context.getTensor(node.outputs[0]!);
    const outScale = scale(output, 'output');
    p[P.CELL_CLIP] = cellClip > 0 ? Math.trunc(Math.min(Math.max(f(cellClip / cellScale), -32768), 32767)) : 0;
    p[P.PROJ_CLIP] = projClip > 0 ? Math.trunc(Math.min(Math.max(f(projClip / outScale), -128), 127)) : 0;
    const interScale: number[] = [];
    const interZp: number[] = [];
    for (let i = 0; i < 5; i++) {
      const at = node.intermediates[i]!;
      if (!(at >= 0 && at < context.tensorsSize)) fail(`intermediate ${i} is tensor ${at}, not a tensor of the model`);
      const t = context.getTensor(at);
      if (i < 4 && !this.useLayerNorm) {
        interScale.push(Math.pow(2, -12));
        interZp.push(0);
        continue;
      }
      if (!t.quantization) fail(`intermediate tensor ${t.index} of an integer LSTM must be quantized`);
      interScale.push(scale(t, `intermediate ${i}`));
      interZp.push(t.params.zeroPoint);
    }
    const log2 = Math.log2(cellScale);
    const cellPower = roundHalfAwayFromZero(log2);
    if (!(Math.abs(log2 - cellPower) < 1e-3)) fail(`cell state scale ${cellScale} is not a power of two`);
    if (15 + cellPower < 0 || 15 + cellPower > 6 || 30 + cellPower < 0)
      fail(`cell state scale 2^${cellPower}: TFLite's integer tanh takes 0..6 integer bits (scale 2^-15 .. 2^-9)`);
    p[P.CELL_SCALE] = cellPower;
    const inputScale = scale(input, 'input');
    const stateScale = scale(outputState, 'output state');
    const setMultiplier = (at: number, real: number, what: string) => {
      if (!(real >= 0 && real < Infinity)) fail(`${what}: effective scale ${real} is not finite`);
      const q = quantizeMultiplier(real);
      p[at] = q.multiplier;
      p[at + 1] = q.shift;
    };
    for (let g = first; g < 4; g++) {
      const s = interScale[g]!;
      setMultiplier(P.IN + 2 * g, f(f(scale(inW[g]!, 'weights') * inputScale) / s), `input-to-${NAMES[g]}`);
      setMultiplier(P.REC + 2 * g, f(f(scale(recW[g]!, 'weights') * stateScale) / s), `recurrent-to-${NAMES[g]}`);
      if (this.usePeephole && g !== CELL)
        setMultiplier(P.PEEP + 2 * g, f((Math.pow(2, cellPower) * scale(peep[g]!, 'peephole weights')) / s), `cell-to-${NAMES[g]}`);
      const lnScale = this.useLayerNorm ? scale(ln[g]!, 'layer norm coefficients') : 1;
      setMultiplier(P.LN + 2 * g, lnScale, `${NAMES[g]} layer norm`);
      p[P.GUARD + g] = Math.max(1, Math.trunc(f(10000 * lnScale)));
    }
    setMultiplier(P.HIDDEN, f((Math.pow(2, -15) / interScale[4]!) * Math.pow(2, -15)), 'hidden');
    if (projW !== null) setMultiplier(P.PROJ, f(f(scale(projW, 'projection weights') * interScale[4]!) / stateScale), 'projection');
    p[P.HIDDEN_ZP] = interZp[4]!;
    p[P.OUT_ZP] = outputState.params.zeroPoint;

    // PopulatePrecomputedZPTimesWeightsWithBias: bias (none with layer norm) + zp × row sums.
    const effective = (w: Tensor, zp: number, bias: Tensor | null, rows: number, cols: number): Int32Array => {
      const out = context.allocatePersistentBuffer(Math.max(1, rows) * 4).i32;
      // TFLite folds them in prepare: weights and biases must be constants.
      if (!w.isConstant) fail(`weights (tensor ${w.index}) of an integer LSTM must be a constant`);
      if (bias !== null && !bias.isConstant) fail(`bias (tensor ${bias.index}) of an integer LSTM must be a constant`);
      const data = w.data as Int8Array;
      const b = bias === null ? null : (bias.data as Int32Array);
      for (let r = 0; r < rows; r++) {
        let sum = 0;
        for (let c = 0; c < cols; c++) sum += data[r * cols + c]!;
        out[r] = ((b === null ? 0 : b[r]!) + Math.imul(sum, zp)) | 0;
      }
      return out;
    };
    for (let g = first; g < 4; g++) {
      const bias = this.useLayerNorm ? null : get(BIAS[g]!);
      this.inBias[g] = effective(inW[g]!, -input.params.zeroPoint, bias, nCell, nInput);
      this.recBias[g] = effective(recW[g]!, -outputState.params.zeroPoint, null, nCell, nOutput);
    }
    // TFLite passes the hidden intermediate's zero point itself (not negated) for the projection.
    this.projBias = projW !== null ? effective(projW, interZp[4]!, projB, nOutput, nCell) : EMPTY_I32;
    this.invSqrt = context.allocatePersistentBuffer(8).i32;
    this.scratch = [0, 1, 2, 3].map(() => context.requestScratchBufferInArena(Math.max(1, nBatch * nCell) * 2));
    this.hiddenScratch = context.requestScratchBufferInArena(Math.max(1, nBatch * nCell));
  }

  private readonly scratch: number[];
  private readonly hiddenScratch: number;

  /** Binds this invoke's constant tensors and scratch buffers. */
  bind(context: TfLiteContext, node: Node): void {
    for (let g = 0; g < 4; g++) {
      this.inW[g] = (this.dataAt(context, node, IN_W[g]!) as Int8Array | null) ?? EMPTY_I8;
      this.recW[g] = (this.dataAt(context, node, REC_W[g]!) as Int8Array | null) ?? EMPTY_I8;
      this.peep[g] = (this.dataAt(context, node, PEEP[g]!) as Int16Array | null) ?? EMPTY_I16;
      this.ln[g] = (this.dataAt(context, node, LN[g]!) as Int16Array | null) ?? EMPTY_I16;
      this.lnBias[g] = (this.dataAt(context, node, BIAS[g]!) as Int32Array | null) ?? EMPTY_I32;
      this.gates[g] = context.getScratchBuffer(this.scratch[g]!).i16;
    }
    this.projW = (this.dataAt(context, node, PROJ_W) as Int8Array | null) ?? EMPTY_I8;
    this.hidden = context.getScratchBuffer(this.hiddenScratch).i8;
  }

  /** The data of the node's input at `position`, or null when omitted. */
  private dataAt(context: TfLiteContext, node: Node, position: number): ArrayBufferView | null {
    const i = position >= 0 && position < node.inputs.length ? node.inputs[position]! : -1;
    return i >= 0 ? context.getEvalTensor(i).data : null;
  }

  /**
   * LstmStepInteger8x8_16 over all `nBatch` rows: x [nBatch, nInput], h [nBatch, nOutput], c [nBatch,
   * nCell]. The gates run from one call site (the cell update before the output gate), so V8 inlines
   * `gate` once: an optimised `step` inlining it four times would run out of inlining budget and leave
   * calls that pass multipliers beyond its small integers (a boxed number, allocated, per call).
   */
  step(x: Int8Array, h: Int8Array, c: Int16Array, out: Int8Array): void {
    for (let g = this.useCifg ? FORGET : INPUT; g <= OUTPUT; g++) {
      if (g === OUTPUT) this.updateCell(c);
      this.gate(g, x, h, c);
    }
    this.output(h, c, out);
  }

  /** UpdateLstmCellInteger: cell = forget·cell + input·cellGate (CIFG: (1 - forget)·cellGate), clipped. */
  private updateCell(c: Int16Array): void {
    const p = this.p;
    const n = this.nBatch * this.nCell;
    const cellPower = p[P.CELL_SCALE]!;
    const forget = this.gates[FORGET]!;
    const cellGate = this.gates[CELL]!;
    cwiseMulShiftInt16(forget, c, n, 15, c);
    if (this.useCifg) {
      for (let i = 0; i < n; i++) forget[i] = 32767 - forget[i]!;
      cwiseMulShiftInt16(forget, cellGate, n, 30 + cellPower, forget);
    } else cwiseMulShiftInt16(this.gates[INPUT]!, cellGate, n, 30 + cellPower, forget);
    cwiseAddInt16(c, forget, n, c);
    const clip = p[P.CELL_CLIP]!;
    if (clip > 0)
      for (let i = 0; i < n; i++) {
        const v = c[i]!;
        c[i] = v > clip ? clip : v < -clip ? -clip : v;
      }
  }

  /** CalculateLstmOutputInteger8x8_16: tanh of the cell times the output gate, projected; copied to `out`. */
  private output(h: Int8Array, c: Int16Array, out: Int8Array): void {
    const { nBatch, nCell, nOutput } = this;
    const p = this.p;
    const n = nBatch * nCell;
    const tanhCell = this.gates[INPUT]!;
    const bits = 15 + p[P.CELL_SCALE]!;
    for (let i = 0; i < n; i++) tanhCell[i] = gemmlowpTanhInt16(c[i]!, bits);
    const hidden = this.hidden;
    cwiseMulToInt8(this.gates[OUTPUT]!, tanhCell, n, p, P.HIDDEN, p[P.HIDDEN_ZP]!, hidden);
    if (this.useProjection) {
      h.fill(0, 0, nBatch * nOutput);
      matrixBatchVectorMultiplyAccumulateInt(
        hidden,
        this.projBias,
        this.projW,
        p,
        P.PROJ,
        nBatch,
        nCell,
        nOutput,
        p[P.OUT_ZP]!,
        h,
        -128,
        127,
      );
      const projClip = p[P.PROJ_CLIP]!;
      if (projClip > 0)
        for (let i = 0; i < nBatch * nOutput; i++) {
          const v = h[i]!;
          h[i] = v > projClip ? projClip : v < -projClip ? -projClip : v;
        }
    } else for (let i = 0; i < n; i++) h[i] = hidden[i]!;
    for (let i = 0; i < nBatch * nOutput; i++) out[i] = h[i]!;
  }

  /** CalculateLstmGateInteger8x8_16 of gate `g` into its buffer (the input, then the recurrent product). */
  private gate(g: number, x: Int8Array, h: Int8Array, c: Int16Array): void {
    const { nBatch, nCell, nOutput } = this;
    const p = this.p;
    const out = this.gates[g]!;
    const n = nBatch * nCell;
    out.fill(0, 0, n);
    for (let k = 0; k < 2; k++) {
      const recurrent = k === 1;
      matrixBatchVectorMultiplyAccumulateInt(
        recurrent ? h : x,
        recurrent ? this.recBias[g]! : this.inBias[g]!,
        recurrent ? this.recW[g]! : this.inW[g]!,
        p,
        (recurrent ? P.REC : P.IN) + 2 * g,
        nBatch,
        recurrent ? nOutput : this.nInput,
        nCell,
        0,
        out,
        -32768,
        32767,
      );
    }
    // tensor_utils::VectorBatchVectorCwiseProductAccumulate, in rows of n_output elements as TFLite's kernel
    // steps them (see the constructor). Inline: as a separate call it was left unoptimised or un-inlined
    // often enough that its multiplier (beyond V8's small integers) was boxed on every invoke.
    if (this.usePeephole && g !== CELL) {
      const v = this.peep[g]!;
      const multiplier = p[P.PEEP + 2 * g]!;
      const shift = p[P.PEEP + 2 * g + 1]!;
      for (let b = 0; b < nBatch; b++)
        for (let i = 0; i < nOutput; i++) {
          const k = b * nOutput + i;
          const s = multiplyByQuantizedMultiplier(v[i]! * c[k]!, multiplier, shift) + out[k]!;
          out[k] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
        }
    }
    if (this.useLayerNorm)
      applyLayerNormInt16(out, this.ln[g]!, this.lnBias[g]!, p, P.LN + 2 * g, p[P.GUARD + g]!, nBatch, nCell, this.invSqrt);
    const cell = g === CELL;
    for (let i = 0; i < n; i++) out[i] = cell ? gemmlowpTanhInt16(out[i]!, 3) : gemmlowpLogisticInt16(out[i]!, 3);
  }
}
