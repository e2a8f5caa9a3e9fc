/**
 * Float LSTM evaluation (TFLM lstm_eval.h EvalLstm<float, float, float, float>): reference float fully
 * connected layers, reference Logistic / Tanh, element-wise products and the cell clip. Float32 rounding
 * is reproduced step by step with Math.fround.
 */
import type { Node, TfLiteContext } from '@micrort/core';
import {
  GATE_BIAS,
  GATE_INPUT_WEIGHTS,
  GATE_RECURRENT_WEIGHTS,
  Gate,
  LstmParam,
  LstmTensor,
  runLstmSteps,
  type LstmSizeInfo,
  type LstmStepper,
} from './lstm-common.js';

const EMPTY_F32 = new Float32Array(0);
const FLT_MAX = 3.4028234663852886e38;
/** reference_ops::Logistic cut-offs (float). */
const LOGISTIC_CUTOFF_UPPER = Math.fround(16.619047164916992);
const LOGISTIC_CUTOFF_LOWER = -9;

// The hot loops below inline their float helpers (the activation clamp of kTfLiteActNone to
// [lowest, max] of float, and reference_ops::Logistic): a non-inlined call returning a double would
// box it on the heap.

/** The float LSTM of one node. Built in prepare; `run` evaluates every time step of one invoke. */
export class FloatLstmEval implements LstmStepper {
  private input: Float32Array = EMPTY_F32;
  private hidden: Float32Array = EMPTY_F32;
  private cell: Float32Array = EMPTY_F32;
  private output: Float32Array = EMPTY_F32;
  private readonly inputWeights: Float32Array[] = [EMPTY_F32, EMPTY_F32, EMPTY_F32, EMPTY_F32];
  private readonly recurrentWeights: Float32Array[] = [EMPTY_F32, EMPTY_F32, EMPTY_F32, EMPTY_F32];
  private readonly biases: Float32Array[] = [EMPTY_F32, EMPTY_F32, EMPTY_F32, EMPTY_F32];
  private readonly buffers: Float32Array[] = [EMPTY_F32, EMPTY_F32, EMPTY_F32, EMPTY_F32];

  /**
   * `cellClip` views the float32 cell clip (0: no clipping) in the persistent parameters; reading it from
   * a Float32Array keeps it an unboxed double in the hot loop.
   */
  constructor(
    private readonly size: LstmSizeInfo,
    private readonly params: Int32Array,
    private readonly cellClip: Float32Array,
  ) {}

  /** Binds this invoke's tensor data and scratch buffers, then runs every step. */
  run(context: TfLiteContext, node: Node): void {
    const inputs = node.inputs;
    this.input = context.getEvalTensor(inputs[LstmTensor.INPUT]!).data as Float32Array;
    this.hidden = context.getEvalTensor(inputs[LstmTensor.OUTPUT_STATE]!).data as Float32Array;
    this.cell = context.getEvalTensor(inputs[LstmTensor.CELL_STATE]!).data as Float32Array;
    this.output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let g = 0; g < 4; g++) {
      this.inputWeights[g] = context.getEvalTensor(inputs[GATE_INPUT_WEIGHTS[g]!]!).data as Float32Array;
      this.recurrentWeights[g] = context.getEvalTensor(inputs[GATE_RECURRENT_WEIGHTS[g]!]!).data as Float32Array;
      this.biases[g] = context.getEvalTensor(inputs[GATE_BIAS[g]!]!).data as Float32Array;
      this.buffers[g] = context.getScratchBuffer(this.params[LstmParam.SCRATCH_0 + g]!).f32;
    }
    runLstmSteps(this.size, this);
  }

  /** One LSTM step over `rows` rows (TFLM lstm_internal::LstmStep). */
  step(rows: number, inputOffset: number, outputOffset: number, stateOffset: number): void {
    const n = rows * this.size.stateDimension;
    const forgetGate = this.buffers[0]!;
    const inputGate = this.buffers[1]!;
    const cellGate = this.buffers[2]!;
    const cell = this.cell;

    this.gate(Gate.FORGET, rows, inputOffset, stateOffset, forgetGate, false);
    this.gate(Gate.INPUT, rows, inputOffset, stateOffset, inputGate, false);
    this.gate(Gate.CELL, rows, inputOffset, stateOffset, cellGate, true);

    // Cell update: cell = forget * cell + input * cellGate, then clip.
    const clip = this.cellClip[0]!;
    for (let i = 0; i < n; i++) {
      let c = Math.fround(forgetGate[i]! * cell[stateOffset + i]!);
      c = c < -FLT_MAX ? -FLT_MAX : c > FLT_MAX ? FLT_MAX : c;
      let ig = Math.fround(inputGate[i]! * cellGate[i]!);
      ig = ig < -FLT_MAX ? -FLT_MAX : ig > FLT_MAX ? FLT_MAX : ig;
      let v = Math.fround(c + ig);
      if (clip > 0) v = v > clip ? clip : v < -clip ? -clip : v;
      cell[stateOffset + i] = v;
    }

    // Hidden update: hidden = tanh(cell) * outputGate; the output row copies the hidden state.
    const outputGate = inputGate;
    this.gate(Gate.OUTPUT, rows, inputOffset, stateOffset, outputGate, false);
    const hidden = this.hidden;
    const output = this.output;
    for (let i = 0; i < n; i++) {
      let h = Math.fround(Math.fround(Math.tanh(cell[stateOffset + i]!)) * outputGate[i]!);
      h = h < -FLT_MAX ? -FLT_MAX : h > FLT_MAX ? FLT_MAX : h;
      hidden[stateOffset + i] = h;
      output[outputOffset + i] = h;
    }
  }

  /** gate = activation(FC(input) + FC(hidden)), into `out[0 .. rows * S)` (TFLM CalculateLstmGate). */
  private gate(g: number, rows: number, inputOffset: number, stateOffset: number, out: Float32Array, tanh: boolean): void {
    const size = this.size;
    const fcScratch = this.buffers[3]!;
    this.fc(this.input, inputOffset, size.inputDimension, this.inputWeights[g]!, this.biases[g]!, rows, out);
    this.fc(this.hidden, stateOffset, size.stateDimension, this.recurrentWeights[g]!, null, rows, fcScratch);
    const n = rows * size.stateDimension;
    if (tanh) {
      for (let i = 0; i < n; i++) out[i] = Math.tanh(Math.fround(out[i]! + fcScratch[i]!));
      return;
    }
    for (let i = 0; i < n; i++) {
      const v = Math.fround(out[i]! + fcScratch[i]!);
      // reference_ops::Logistic
      out[i] = v > LOGISTIC_CUTOFF_UPPER ? 1 : v < LOGISTIC_CUTOFF_LOWER ? Math.exp(v) : 1 / Math.fround(1 + Math.fround(Math.exp(-v)));
    }
  }

  /** reference_ops::FullyConnected (float, no activation) of `rows` rows of `x` into `out`. */
  private fc(
    x: Float32Array,
    xOffset: number,
    depth: number,
    w: Float32Array,
    bias: Float32Array | null,
    rows: number,
    out: Float32Array,
  ): void {
    const s = this.size.stateDimension;
    for (let r = 0; r < rows; r++) {
      const xb = xOffset + r * depth;
      for (let o = 0; o < s; o++) {
        const wb = o * depth;
        let total = 0;
        for (let d = 0; d < depth; d++) total = Math.fround(total + Math.fround(x[xb + d]! * w[wb + d]!));
        if (bias !== null) total = Math.fround(total + bias[o]!);
        out[r * s + o] = total < -FLT_MAX ? -FLT_MAX : total > FLT_MAX ? FLT_MAX : total;
      }
    }
  }
}
