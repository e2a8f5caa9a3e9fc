/**
 * Integer LSTM evaluation (TFLM lstm_eval.h EvalLstm<int8_t, int8_t, int16_t, int32_t> and
 * <int16_t, int8_t, int16_t, int64_t>, reference build): gate fully connected layers into Q3.12 int16,
 * the reference int16 sigmoid/tanh, element-wise multiplications and a saturating int16 cell update.
 *
 * Everything runs in invoke without allocating: the evaluator is built in prepare with fixed-size arrays
 * of tensor views that are re-bound at the start of every invoke.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64, type Node, type TfLiteContext } from '@micrort/core';
import {
  GATE_BIAS,
  GATE_INPUT_WEIGHTS,
  GATE_RECURRENT_WEIGHTS,
  Gate,
  LstmParam,
  LstmTensor,
  fcBase,
  logisticInt16,
  runLstmSteps,
  tanhInt16,
  type LstmSizeInfo,
  type LstmStepper,
} from './lstm-common.js';

const EMPTY_I8 = new Int8Array(0);
const EMPTY_I16 = new Int16Array(0);
const EMPTY_I32 = new Int32Array(0);

/**
 * reference_integer_ops::MulElementwise on int16 inputs: `out[outOffset + i] = clamp(outOffset_q +
 * MultiplyByQuantizedMultiplier((a + off1) * (b + off2)))`, parameters at `base` of `p`.
 */
function mulElementwise(
  p: Int32Array,
  base: number,
  a: Int16Array,
  aOffset: number,
  b: Int16Array,
  bOffset: number,
  out: Int16Array | Int8Array,
  outOffset: number,
  count: number,
): void {
  const off1 = p[base + LstmParam.MUL_IN1_OFFSET]!;
  const off2 = p[base + LstmParam.MUL_IN2_OFFSET]!;
  const outOff = p[base + LstmParam.MUL_OUT_OFFSET]!;
  const mult = p[base + LstmParam.MUL_MULTIPLIER]!;
  const shift = p[base + LstmParam.MUL_SHIFT]!;
  const lo = p[base + LstmParam.MUL_ACT_MIN]!;
  const hi = p[base + LstmParam.MUL_ACT_MAX]!;
  for (let i = 0; i < count; i++) {
    const prod = Math.imul(a[aOffset + i]! + off1, b[bOffset + i]! + off2);
    const v = outOff + multiplyByQuantizedMultiplier(prod, mult, shift);
    out[outOffset + i] = v < lo ? lo : v > hi ? hi : v;
  }
}

/** lstm_internal::AddElementWise on int16: saturating `a[aOffset + i] + b[i]` into `out[outOffset + i]`. */
function addSaturating(a: Int16Array, aOffset: number, b: Int16Array, out: Int16Array, outOffset: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const s = a[aOffset + i]! + b[i]!;
    out[outOffset + i] = s < -32768 ? -32768 : s > 32767 ? 32767 : s;
  }
}

/**
 * The integer LSTM of one node. Built in prepare; `run` evaluates every time step of one invoke.
 * `bias64` holds the int64 gate biases of the 16x8 variant as exact doubles (gate-major, `Gate` order),
 * or null for the 8x8 variant (int32 biases read from the bias tensors).
 */
export class IntegerLstmEval implements LstmStepper {
  private input: Int8Array | Int16Array = EMPTY_I8;
  private hidden: Int8Array | Int16Array = EMPTY_I8;
  private cell: Int16Array = EMPTY_I16;
  private output: Int8Array | Int16Array = EMPTY_I8;
  private readonly inputWeights: Int8Array[] = [EMPTY_I8, EMPTY_I8, EMPTY_I8, EMPTY_I8];
  private readonly recurrentWeights: Int8Array[] = [EMPTY_I8, EMPTY_I8, EMPTY_I8, EMPTY_I8];
  private readonly bias32: Int32Array[] = [EMPTY_I32, EMPTY_I32, EMPTY_I32, EMPTY_I32];
  private readonly buffers: Int16Array[] = [EMPTY_I16, EMPTY_I16, EMPTY_I16, EMPTY_I16];

  constructor(
    private readonly size: LstmSizeInfo,
    private readonly params: Int32Array,
    private readonly bias64: Float64Array | null,
    private readonly cellClipEnabled: boolean,
  ) {}

  /** Binds this invoke's tensor data and scratch buffers, then runs every step. */
  run(context: TfLiteContext, node: Node): void {
    const inputs = node.inputs;
    this.input = context.getEvalTensor(inputs[LstmTensor.INPUT]!).data as Int8Array | Int16Array;
    this.hidden = context.getEvalTensor(inputs[LstmTensor.OUTPUT_STATE]!).data as Int8Array | Int16Array;
    this.cell = context.getEvalTensor(inputs[LstmTensor.CELL_STATE]!).data as Int16Array;
    this.output = context.getEvalTensor(node.outputs[0]!).data as Int8Array | Int16Array;
    for (let g = 0; g < 4; g++) {
      this.inputWeights[g] = context.getEvalTensor(inputs[GATE_INPUT_WEIGHTS[g]!]!).data as Int8Array;
      this.recurrentWeights[g] = context.getEvalTensor(inputs[GATE_RECURRENT_WEIGHTS[g]!]!).data as Int8Array;
      if (this.bias64 === null) this.bias32[g] = context.getEvalTensor(inputs[GATE_BIAS[g]!]!).data as Int32Array;
      this.buffers[g] = context.getScratchBuffer(this.params[LstmParam.SCRATCH_0 + g]!).i16;
    }
    runLstmSteps(this.size, this);
  }

  /** One LSTM step over `rows` rows (TFLM lstm_internal::LstmStep). */
  step(rows: number, inputOffset: number, outputOffset: number, stateOffset: number): void {
    const p = this.params;
    const n = rows * this.size.stateDimension;
    const forgetGate = this.buffers[0]!;
    const inputGate = this.buffers[1]!;
    const cellGate = this.buffers[2]!;
    const cell = this.cell;

    this.gate(Gate.FORGET, rows, inputOffset, stateOffset, forgetGate, false);
    this.gate(Gate.INPUT, rows, inputOffset, stateOffset, inputGate, false);
    this.gate(Gate.CELL, rows, inputOffset, stateOffset, cellGate, true);

    // Cell update: cell = forget * cell + input * cellGate (saturating), then clip.
    mulElementwise(p, LstmParam.MUL_FORGET_CELL, forgetGate, 0, cell, stateOffset, cell, stateOffset, n);
    mulElementwise(p, LstmParam.MUL_INPUT_CELL_GATE, inputGate, 0, cellGate, 0, inputGate, 0, n);
    addSaturating(cell, stateOffset, inputGate, cell, stateOffset, n);
    if (this.cellClipEnabled) {
      const clip = p[LstmParam.QUANTIZED_CELL_CLIP]!;
      for (let i = stateOffset; i < stateOffset + n; i++) {
        const v = cell[i]!;
        cell[i] = v > clip ? clip : v < -clip ? -clip : v;
      }
    }

    // Hidden update: hidden = tanh(cell) * outputGate.
    const outputGate = inputGate;
    this.gate(Gate.OUTPUT, rows, inputOffset, stateOffset, outputGate, false);
    const tanhCell = forgetGate;
    tanhInt16(cell, stateOffset, tanhCell, 0, n, p[LstmParam.HIDDEN_TANH_MULTIPLIER]!, p[LstmParam.HIDDEN_TANH_SHIFT]!);
    const hidden = this.hidden;
    mulElementwise(p, LstmParam.MUL_HIDDEN, tanhCell, 0, outputGate, 0, hidden, stateOffset, n);

    const output = this.output;
    for (let i = 0; i < n; i++) output[outputOffset + i] = hidden[stateOffset + i]!;
  }

  /** gate = activation(FC(input) + FC(hidden)), into `out[0 .. rows * S)` (TFLM CalculateLstmGate). */
  private gate(g: number, rows: number, inputOffset: number, stateOffset: number, out: Int16Array, tanh: boolean): void {
    const size = this.size;
    const fcScratch = this.buffers[3]!;
    if (this.bias64 === null) {
      this.fcInt8(
        fcBase(g, false),
        this.input as Int8Array,
        inputOffset,
        size.inputDimension,
        this.inputWeights[g]!,
        this.bias32[g]!,
        rows,
        out,
      );
      this.fcInt8(
        fcBase(g, true),
        this.hidden as Int8Array,
        stateOffset,
        size.stateDimension,
        this.recurrentWeights[g]!,
        null,
        rows,
        fcScratch,
      );
    } else {
      const s = size.stateDimension;
      this.fcInt16(fcBase(g, false), this.input as Int16Array, inputOffset, size.inputDimension, this.inputWeights[g]!, g * s, rows, out);
      this.fcInt16(fcBase(g, true), this.hidden as Int16Array, stateOffset, s, this.recurrentWeights[g]!, -1, rows, fcScratch);
    }
    const n = rows * size.stateDimension;
    addSaturating(out, 0, fcScratch, out, 0, n);
    if (tanh) tanhInt16(out, 0, out, 0, n, 0, 0);
    else logisticInt16(out, 0, n, 0, 0);
  }

  /**
   * reference_integer_ops::FullyConnected, int8 x int8 -> int16 with int32 accumulator and bias.
   * The offsets are factored out of the dot product, exactly in wrapping int32 arithmetic:
   * sum((w + wOff) * (x + inOff)) = sum(w*x) + inOff*sum(w) + wOff*sum(x) + depth*wOff*inOff,
   * so the inner loop (unrolled by four) only multiplies and adds raw int8 values.
   */
  private fcInt8(
    base: number,
    x: Int8Array,
    xOffset: number,
    depth: number,
    w: Int8Array,
    bias: Int32Array | null,
    rows: number,
    out: Int16Array,
  ): void {
    const p = this.params;
    const inOff = p[base + LstmParam.FC_IN_OFFSET]!;
    const wOff = p[base + LstmParam.FC_WEIGHTS_OFFSET]!;
    const outOff = p[base + LstmParam.FC_OUT_OFFSET]!;
    const mult = p[base + LstmParam.FC_MULTIPLIER]!;
    const shift = p[base + LstmParam.FC_SHIFT]!;
    const lo = p[base + LstmParam.FC_ACT_MIN]!;
    const hi = p[base + LstmParam.FC_ACT_MAX]!;
    const s = this.size.stateDimension;
    const depth4 = depth & ~3;
    for (let r = 0; r < rows; r++) {
      const xb = xOffset + r * depth;
      let xSum = 0;
      for (let d = 0; d < depth; d++) xSum += x[xb + d]!;
      const rowConst = (Math.imul(wOff, xSum) + Math.imul(Math.imul(depth, wOff), inOff)) | 0;
      for (let o = 0; o < s; o++) {
        const wb = o * depth;
        let acc = 0;
        let wSum = 0;
        let d = 0;
        for (; d < depth4; d += 4) {
          const w0 = w[wb + d]!;
          const w1 = w[wb + d + 1]!;
          const w2 = w[wb + d + 2]!;
          const w3 = w[wb + d + 3]!;
          acc = (acc + w0 * x[xb + d]! + w1 * x[xb + d + 1]! + w2 * x[xb + d + 2]! + w3 * x[xb + d + 3]!) | 0;
          wSum = (wSum + w0 + w1 + w2 + w3) | 0;
        }
        for (; d < depth; d++) {
          const wd = w[wb + d]!;
          acc = (acc + wd * x[xb + d]!) | 0;
          wSum = (wSum + wd) | 0;
        }
        acc = (acc + Math.imul(inOff, wSum) + rowConst) | 0;
        if (bias !== null) acc = (acc + bias[o]!) | 0;
        const v = multiplyByQuantizedMultiplier(acc, mult, shift) + outOff;
        out[r * s + o] = v < lo ? lo : v > hi ? hi : v;
      }
    }
  }

  /**
   * reference_integer_ops::FullyConnected, int16 x int8 -> int16 with int64 accumulator (exact in a
   * double) and the int64 bias at `bias64[biasOffset ..]` (`biasOffset` < 0: no bias).
   */
  private fcInt16(
    base: number,
    x: Int16Array,
    xOffset: number,
    depth: number,
    w: Int8Array,
    biasOffset: number,
    rows: number,
    out: Int16Array,
  ): void {
    const p = this.params;
    const bias64 = this.bias64!;
    const inOff = p[base + LstmParam.FC_IN_OFFSET]!;
    const wOff = p[base + LstmParam.FC_WEIGHTS_OFFSET]!;
    const outOff = p[base + LstmParam.FC_OUT_OFFSET]!;
    const mult = p[base + LstmParam.FC_MULTIPLIER]!;
    const shift = p[base + LstmParam.FC_SHIFT]!;
    const lo = p[base + LstmParam.FC_ACT_MIN]!;
    const hi = p[base + LstmParam.FC_ACT_MAX]!;
    const s = this.size.stateDimension;
    for (let r = 0; r < rows; r++) {
      const xb = xOffset + r * depth;
      for (let o = 0; o < s; o++) {
        const wb = o * depth;
        let acc = 0;
        for (let d = 0; d < depth; d++) acc += Math.imul(w[wb + d]! + wOff, x[xb + d]! + inOff);
        if (biasOffset >= 0) acc += bias64[biasOffset + o]!;
        const v = multiplyByQuantizedMultiplierInt64(acc, mult, shift) + outOff;
        out[r * s + o] = v < lo ? lo : v > hi ? hi : v;
      }
    }
  }
}
