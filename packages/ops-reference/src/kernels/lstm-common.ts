/**
 * Shared pieces of the UNIDIRECTIONAL_SEQUENCE_LSTM reference kernel (TFLM kernels/lstm_shared.h,
 * lstm_eval.h, lstm_eval_common.cc): tensor indices, the sizes of one node, the layout of the integer
 * parameters kept in the node's persistent buffer, the per-step slicing rule, and the int16 sigmoid and
 * tanh of the reference integer kernels (reference_integer_ops::Logistic / Tanh on int16).
 */

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
 * sigmoid(i / 24) in unsigned Q0.16, i = 0..255: the table shared by the reference int16 sigmoid and tanh
 * (tanh(x) = 2 sigmoid(2x) - 1). Data, as printed in TFLM's kernels/internal/common.h.
 */
export const SIGMOID_TABLE_UINT16: Uint16Array = Uint16Array.from([
  32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
  43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
  51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
  57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
  61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
  63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
  64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
  64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
  65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
  65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
  65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
  65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
  65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
  65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
  65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
  65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
]);

/**
 * reference_integer_ops::Logistic for int16 (Q3.12 in, Q0.15 out), in place over `data[offset ..
 * offset + count)`. `inputMultiplier` 0 means the power-of-two case (multiplier 3 << leftShift).
 */
export function logisticInt16(data: Int16Array, offset: number, count: number, inputMultiplier: number, inputLeftShift: number): void {
  let mult = inputMultiplier;
  let shift = inputLeftShift;
  if (mult === 0) {
    mult = 3 << shift;
    shift = 0;
  }
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  const table = SIGMOID_TABLE_UINT16;
  const end = offset + count;
  for (let i = offset; i < end; i++) {
    const x = (Math.imul(data[i]!, mult) + round) >> shift;
    const ax = x < 0 ? -x : x;
    const uh = ax >>> 9;
    let result: number;
    if (uh >= 255) {
      result = 0x7fff << 10;
    } else {
      const ua = table[uh]!;
      const ub = table[uh + 1]!;
      result = ua * 512 + (ax & 0x1ff) * (ub - ua);
    }
    result = x >= 0 ? result + 512 : 33554432 - result + 512 - 1;
    data[i] = result >>> 10;
  }
}

/**
 * reference_integer_ops::Tanh for int16 (Q0.15 out), from `input[inOffset ..]` to `output[outOffset ..]`
 * (may alias). `inputMultiplier` 0 means the power-of-two case (multiplier 3 << leftShift).
 */
export function tanhInt16(
  input: Int16Array,
  inOffset: number,
  output: Int16Array,
  outOffset: number,
  count: number,
  inputMultiplier: number,
  inputLeftShift: number,
): void {
  let mult = inputMultiplier;
  let shift = inputLeftShift;
  if (mult === 0) {
    mult = 3 << shift;
    shift = 0;
  }
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  const table = SIGMOID_TABLE_UINT16;
  for (let i = 0; i < count; i++) {
    const x = (Math.imul(input[inOffset + i]!, mult) + round) >> shift;
    const ax = x < 0 ? -x : x;
    const uh = ax >>> 8;
    let result: number;
    if (uh >= 255) {
      result = 0xffff << 8;
    } else {
      const ua = table[uh]!;
      const ub = table[uh + 1]!;
      result = ua * 256 + (ax & 0xff) * (ub - ua);
    }
    result = x >= 0 ? result - 8388608 + 128 : -result + 8388608 + 128 - 1;
    output[outOffset + i] = result >> 8;
  }
}

/**
 * Input multiplier and left shift TFLM's lstm_internal::Tanh passes to the int16 tanh for a cell state
 * with scale 2^power: the cell state is rescaled from Q(-power) to Q3.12.
 */
export function hiddenTanhParams(cellStateScalePower: number): [multiplier: number, leftShift: number] {
  const shift = 15 + cellStateScalePower - 3;
  return shift < 0 ? [3, -shift] : [0, shift];
}
