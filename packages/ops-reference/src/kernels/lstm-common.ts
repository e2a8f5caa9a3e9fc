/**
 * Shared pieces of the UNIDIRECTIONAL_SEQUENCE_LSTM reference kernel (TFLM kernels/lstm_shared.h,
 * lstm_eval.h, lstm_eval_common.cc): tensor indices, the sizes of one node, the layout of the integer
 * parameters kept in the node's persistent buffer, the per-step slicing rule, and the int16 sigmoid and
 * tanh of the reference integer kernels (reference_integer_ops::Logistic / Tanh on int16, whose LUT math
 * is core's, shared with the LOGISTIC and TANH kernels and ops-wasm's LSTM).
 */
import { logisticInt16Run } from '@micrort/core';

/** Input tensor indices of the LSTM node (TFLM lstm_shared.h). */
export const LstmTensor = {
  INPUT: 0,
  INPUT_TO_INPUT_WEIGHTS: 1,
  INPUT_TO_FORGET_WEIGHTS: 2,
  INPUT_TO_CELL_WEIGHTS: 3,
  INPUT_TO_OUTPUT_WEIGHTS: 4,
  RECURRENT_TO_INPUT_WEIGHTS: 5,
  RECURRENT_TO_FORGET_WEIGHTS: 6,
  RECURRENT_TO_CELL_WEIGHTS: 7,
  RECURRENT_TO_OUTPUT_WEIGHTS: 8,
  CELL_TO_INPUT_WEIGHTS: 9,
  CELL_TO_FORGET_WEIGHTS: 10,
  CELL_TO_OUTPUT_WEIGHTS: 11,
  INPUT_GATE_BIAS: 12,
  FORGET_GATE_BIAS: 13,
  CELL_GATE_BIAS: 14,
  OUTPUT_GATE_BIAS: 15,
  PROJECTION_WEIGHTS: 16,
  PROJECTION_BIAS: 17,
  /** The hidden state (variable). */
  OUTPUT_STATE: 18,
  /** The cell state (variable). */
  CELL_STATE: 19,
  INPUT_LAYER_NORM_COEFFICIENTS: 20,
  FORGET_LAYER_NORM_COEFFICIENTS: 21,
  CELL_LAYER_NORM_COEFFICIENTS: 22,
  OUTPUT_LAYER_NORM_COEFFICIENTS: 23,
  /** Number of inputs of the node. */
  COUNT: 24,
} as const;

/** The four gates, in TFLM's evaluation order. */
export const Gate = { FORGET: 0, INPUT: 1, CELL: 2, OUTPUT: 3 } as const;

/** Input-to-gate weight tensor of each gate (indexed by `Gate`). */
export const GATE_INPUT_WEIGHTS: readonly number[] = [
  LstmTensor.INPUT_TO_FORGET_WEIGHTS,
  LstmTensor.INPUT_TO_INPUT_WEIGHTS,
  LstmTensor.INPUT_TO_CELL_WEIGHTS,
  LstmTensor.INPUT_TO_OUTPUT_WEIGHTS,
];
/** Recurrent-to-gate weight tensor of each gate (indexed by `Gate`). */
export const GATE_RECURRENT_WEIGHTS: readonly number[] = [
  LstmTensor.RECURRENT_TO_FORGET_WEIGHTS,
  LstmTensor.RECURRENT_TO_INPUT_WEIGHTS,
  LstmTensor.RECURRENT_TO_CELL_WEIGHTS,
  LstmTensor.RECURRENT_TO_OUTPUT_WEIGHTS,
];
/** Bias tensor of each gate (indexed by `Gate`). */
export const GATE_BIAS: readonly number[] = [
  LstmTensor.FORGET_GATE_BIAS,
  LstmTensor.INPUT_GATE_BIAS,
  LstmTensor.CELL_GATE_BIAS,
  LstmTensor.OUTPUT_GATE_BIAS,
];
/** Gate names for messages (indexed by `Gate`). */
export const GATE_NAMES: readonly string[] = ['forget', 'input', 'cell', 'output'];

/** TFLM LstmSizeInfo: batch (B), time steps (T), input dimension (I), state dimension (S). */
export interface LstmSizeInfo {
  timeMajor: boolean;
  batchSize: number;
  timeSteps: number;
  inputDimension: number;
  stateDimension: number;
}

/**
 * Word layout of the LSTM parameters in the node's persistent buffer (TFLM's OpDataLSTM). Integer
 * kernels use all of it; the float kernel uses the scratch indices and `CELL_CLIP_F32`.
 *
 * Each fully connected block (`FC_WORDS` words at `fcBase(gate, recurrent)`): input offset, weights
 * offset, output offset, multiplier, shift, activation min, activation max (TFLM FullyConnectedParams).
 * Each element-wise multiplication block (`MUL_WORDS` words at `MUL_*`): input1 offset, input2 offset,
 * output offset, multiplier, shift, activation min, activation max (TFLM ArithmeticParams).
 */
export const LstmParam = {
  FC_WORDS: 7,
  FC_IN_OFFSET: 0,
  FC_WEIGHTS_OFFSET: 1,
  FC_OUT_OFFSET: 2,
  FC_MULTIPLIER: 3,
  FC_SHIFT: 4,
  FC_ACT_MIN: 5,
  FC_ACT_MAX: 6,
  MUL_WORDS: 7,
  MUL_IN1_OFFSET: 0,
  MUL_IN2_OFFSET: 1,
  MUL_OUT_OFFSET: 2,
  MUL_MULTIPLIER: 3,
  MUL_SHIFT: 4,
  MUL_ACT_MIN: 5,
  MUL_ACT_MAX: 6,
  /** forget gate x cell state -> cell state. */
  MUL_FORGET_CELL: 56,
  /** input gate x cell gate -> cell state. */
  MUL_INPUT_CELL_GATE: 63,
  /** tanh(cell state) x output gate -> hidden state. */
  MUL_HIDDEN: 70,
  /** log2 of the cell state scale (TFLM cell_state_scale_power). */
  CELL_STATE_SCALE_POWER: 77,
  /** Cell clip in the cell state's quantized domain (0: no clipping). */
  QUANTIZED_CELL_CLIP: 78,
  /** Input multiplier and left shift of the int16 tanh applied to the cell state. */
  HIDDEN_TANH_MULTIPLIER: 79,
  HIDDEN_TANH_SHIFT: 80,
  /** Four scratch buffer indices (gate buffers 0..3). */
  SCRATCH_0: 81,
  /** The float cell clip, stored as float32 bits (float kernel). */
  CELL_CLIP_F32: 85,
  /** Number of 32-bit words. */
  COUNT: 86,
} as const;

/** First word of the fully connected block of `gate` (input FC, or recurrent FC when `recurrent`). */
export function fcBase(gate: number, recurrent: boolean): number {
  return gate * 2 * LstmParam.FC_WORDS + (recurrent ? LstmParam.FC_WORDS : 0);
}

/**
 * Per-step slicing (TFLM LstmStepManager). Time-major input runs all batches of one time step at once;
 * batch-major input runs one batch row at a time with its own slice of the states.
 * Calls `step(rows, inputOffset, outputOffset, stateOffset)` once per step, in TFLM's order.
 */
export interface LstmStepper {
  step(rows: number, inputOffset: number, outputOffset: number, stateOffset: number): void;
}

/** Drives `stepper` through every time step of one invoke. */
export function runLstmSteps(size: LstmSizeInfo, stepper: LstmStepper): void {
  const { batchSize, timeSteps, inputDimension, stateDimension } = size;
  if (size.timeMajor) {
    for (let t = 0; t < timeSteps; t++) stepper.step(batchSize, t * batchSize * inputDimension, t * batchSize * stateDimension, 0);
    return;
  }
  for (let b = 0; b < batchSize; b++) {
    for (let t = 0; t < timeSteps; t++) {
      const row = b * timeSteps + t;
      stepper.step(1, row * inputDimension, row * stateDimension, b * stateDimension);
    }
  }
}

/**
 * reference_integer_ops::Logistic for int16 (Q3.12 in, Q0.15 out), in place over `data[offset ..
 * offset + count)`. `inputMultiplier` 0 means the power-of-two case (multiplier 3 << leftShift).
 */
export function logisticInt16(data: Int16Array, offset: number, count: number, inputMultiplier: number, inputLeftShift: number): void {
  logisticInt16Run(data, offset, data, offset, count, inputMultiplier, inputLeftShift);
}

/**
 * reference_integer_ops::Tanh for int16 (Q0.15 out), from `input[inOffset ..]` to `output[outOffset ..]`
 * (may alias): `tanhInt16Run(input, inOffset, output, outOffset, count, inputMultiplier, inputLeftShift)`,
 * where `inputMultiplier` 0 means the power-of-two case (multiplier 3 << leftShift).
 */
export { tanhInt16Run as tanhInt16 } from '@micrort/core';

/**
 * Input multiplier and left shift TFLM's lstm_internal::Tanh passes to the int16 tanh for a cell state
 * with scale 2^power: the cell state is rescaled from Q(-power) to Q3.12.
 */
export function hiddenTanhParams(cellStateScalePower: number): [multiplier: number, leftShift: number] {
  const shift = 15 + cellStateScalePower - 3;
  return shift < 0 ? [3, -shift] : [0, shift];
}
