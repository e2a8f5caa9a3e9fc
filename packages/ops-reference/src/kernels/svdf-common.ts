/**
 * SVDF evaluation loops (TFLM kernels/svdf_common.cc, reference build): float32, TFLite's hybrid (float32
 * activations × int8 weights, TFLite reference svdf.h), and full-integer with an int16 or int8 activation
 * state. Everything here runs in invoke: typed arrays in, no allocation.
 *
 * The activation state is `[batch, numFilters * memorySize]`, one row of `memorySize` values per filter;
 * each invoke shifts the whole state left by one element and writes the newest feature activation into the
 * last column of every row.
 */
import { ActivationFunctionType, multiplyByQuantizedMultiplier } from '@micrort/core';
import {
  applyActivationToVector,
  batchQuantizeFloats,
  isZeroVector,
  matrixBatchVectorMultiplyAccumulate,
  scaleFactors,
  type HybridWeights,
  type SvdfShape,
} from '@micrort/kernel-support';

/**
 * Word layout of the integer SVDF parameters kept in the node's persistent buffer (TFLM's OpDataSvdf).
 * `SCALE_1_*` requantizes the feature matmul into the state, `SCALE_2_*` the time matmul into the output.
 */
export const SvdfParam = {
  SCALE_1_A: 0,
  SCALE_1_B: 1,
  SCALE_2_A: 2,
  SCALE_2_B: 3,
  INPUT_ZERO_POINT: 4,
  OUTPUT_ZERO_POINT: 5,
  STATE_ZERO_POINT: 6,
  SCRATCH_INDEX: 7,
  SCRATCH_OUTPUT_INDEX: 8,
  /** Number of int32 words (TFLM's sizeof(OpDataSvdf) / 4). */
  COUNT: 9,
} as const;

/** Shifts the state left by one element (the oldest memory column falls off each filter row). */
function shiftStateLeft(state: Float32Array | Int16Array | Int8Array, length: number): void {
  state.copyWithin(0, 1, length);
}

/**
 * Float SVDF (EvalFloatSvdfReference). `scratch` holds `batch * numFilters` floats. Float32 rounding is
 * reproduced step by step with Math.fround.
 */
export function evalSvdfFloat(
  s: SvdfShape,
  activation: ActivationFunctionType,
  input: Float32Array,
  weightsFeature: Float32Array,
  weightsTime: Float32Array,
  bias: Float32Array | null,
  state: Float32Array,
  scratch: Float32Array,
  output: Float32Array,
): void {
  const { batchSize, inputSize, numFilters, memorySize } = s;
  shiftStateLeft(state, batchSize * numFilters * memorySize);

  // Feature matmul: the newest activation goes to the last column of each filter row.
  for (let b = 0; b < batchSize; b++) {
    const inBase = b * inputSize;
    const stateBase = b * numFilters * memorySize + memorySize - 1;
    for (let f = 0; f < numFilters; f++) {
      const wBase = f * inputSize;
      let dot = 0;
      for (let k = 0; k < inputSize; k++) dot = Math.fround(dot + Math.fround(weightsFeature[wBase + k]! * input[inBase + k]!));
      state[stateBase + f * memorySize] = dot;
    }
  }

  applyTimeWeightsBiasAndActivation(s, activation, weightsTime, bias, state, scratch, output);
}

/**
 * The float SVDF's second half (TFLite reference svdf.h ApplyTimeWeightsBiasAndActivation, shared by
 * the float and hybrid kernels): per filter, the dot product of its state row with its time weights into
 * `scratch`; per unit, the bias plus its `rank` filters' sums; then the activation.
 */
export function applyTimeWeightsBiasAndActivation(
  s: SvdfShape,
  activation: ActivationFunctionType,
  weightsTime: Float32Array,
  bias: Float32Array | null,
  state: Float32Array,
  scratch: Float32Array,
  output: Float32Array,
): void {
  const { batchSize, numFilters, numUnits, memorySize, rank } = s;
  // Time matmul into scratch.
  for (let b = 0; b < batchSize; b++) {
    const stateBase = b * memorySize * numFilters;
    const scratchBase = b * numFilters;
    for (let f = 0; f < numFilters; f++) {
      const rowBase = f * memorySize;
      let acc = 0;
      for (let j = 0; j < memorySize; j++)
        acc = Math.fround(acc + Math.fround(weightsTime[rowBase + j]! * state[stateBase + rowBase + j]!));
      scratch[scratchBase + f] = acc;
    }
  }

  // Bias, rank reduction, activation.
  for (let b = 0; b < batchSize; b++) {
    const outBase = b * numUnits;
    let sc = b * numFilters;
    for (let u = 0; u < numUnits; u++) {
      let acc = bias === null ? 0 : bias[u]!;
      for (let r = 0; r < rank; r++) acc = Math.fround(acc + scratch[sc++]!);
      output[outBase + u] = acc;
    }
  }
  applyActivationToVector(activation, output, 0, batchSize * numUnits);
}

/** What a hybrid SVDF node keeps from prepare (its weights and scratch buffers). */
export interface SvdfHybridPlan {
  weights: HybridWeights;
  /** The feature weights' scale, folded into the input's factors. */
  featureScale: number;
  /** The time weights dequantized once in prepare. */
  weightsTime: Float32Array;
  asymmetric: boolean;
  quantizedIndex: number;
  factorsIndex: number;
  zeroPointsIndex: number;
}

/**
 * Hybrid SVDF (TFLite reference svdf.h EvalHybridSVDF): shift the state, quantize the input rows,
 * int8 feature matmul scaled back to float into `scratch` (skipped for an all-zero input), the newest
 * column of the state, then the float time weights, bias and activation.
 */
export function evalSvdfHybrid(
  s: SvdfShape,
  plan: SvdfHybridPlan,
  quantized: Int8Array,
  factors: Float32Array,
  zeroPoints: Int32Array,
  activation: ActivationFunctionType,
  input: Float32Array,
  bias: Float32Array | null,
  state: Float32Array,
  scratch: Float32Array,
  output: Float32Array,
): void {
  const { batchSize, inputSize, numFilters, memorySize } = s;
  shiftStateLeft(state, batchSize * numFilters * memorySize);
  scratch.fill(0, 0, batchSize * numFilters);
  if (!isZeroVector(input, 0, batchSize * inputSize)) {
    batchQuantizeFloats(input, 0, batchSize, inputSize, quantized, 0, factors, zeroPoints, 0, plan.asymmetric);
    scaleFactors(factors, 0, batchSize, plan.featureScale);
    matrixBatchVectorMultiplyAccumulate(plan.weights, quantized, 0, factors, zeroPoints, 0, batchSize, scratch, 0);
  }
  for (let i = 0; i < batchSize * numFilters; i++) state[i * memorySize + memorySize - 1] = scratch[i]!;
  applyTimeWeightsBiasAndActivation(s, activation, plan.weightsTime, bias, state, scratch, output);
}

/**
 * Integer SVDF (EvalIntegerSvdfReference<int16_t | int8_t>). `state` and `weightsTime` share the state
 * type; `scratch` holds `batch * numFilters` int32 and `scratchOutput` `batch * numUnits` int32.
 *
 * As TFLM at the pinned commit: the requantized feature activation is clamped to the state type's range
 * first and the state zero point is added afterwards, so an int8 state wraps modulo 256 when the sum
 * leaves [-128, 127] (the typed-array store does the same narrowing as C's int8_t store). The fused
 * activation is not applied on this path.
 */
export function evalSvdfInteger(
  s: SvdfShape,
  p: Int32Array,
  input: Int8Array,
  weightsFeature: Int8Array,
  weightsTime: Int16Array | Int8Array,
  bias: Int32Array | null,
  state: Int16Array | Int8Array,
  stateMin: number,
  stateMax: number,
  scratch: Int32Array,
  scratchOutput: Int32Array,
  output: Int8Array,
): void {
  const { batchSize, inputSize, numFilters, numUnits, memorySize, rank } = s;
  const scale1a = p[SvdfParam.SCALE_1_A]!;
  const scale1b = p[SvdfParam.SCALE_1_B]!;
  const scale2a = p[SvdfParam.SCALE_2_A]!;
  const scale2b = p[SvdfParam.SCALE_2_B]!;
  const inputZp = p[SvdfParam.INPUT_ZERO_POINT]!;
  const outputZp = p[SvdfParam.OUTPUT_ZERO_POINT]!;
  const stateZp = p[SvdfParam.STATE_ZERO_POINT]!;

  shiftStateLeft(state, batchSize * numFilters * memorySize);

  // Feature matmul.
  const inputSize4 = inputSize & ~3;
  for (let b = 0; b < batchSize; b++) {
    const inBase = b * inputSize;
    const stateBase = b * numFilters * memorySize + memorySize - 1;
    for (let f = 0; f < numFilters; f++) {
      const wBase = f * inputSize;
      // sum(w * (x - zp)) = sum(w * x) - zp * sum(w), exact in wrapping int32; unrolled by four.
      let dot = 0;
      let wSum = 0;
      let k = 0;
      for (; k < inputSize4; k += 4) {
        const w0 = weightsFeature[wBase + k]!;
        const w1 = weightsFeature[wBase + k + 1]!;
        const w2 = weightsFeature[wBase + k + 2]!;
        const w3 = weightsFeature[wBase + k + 3]!;
        dot = (dot + w0 * input[inBase + k]! + w1 * input[inBase + k + 1]! + w2 * input[inBase + k + 2]! + w3 * input[inBase + k + 3]!) | 0;
        wSum = (wSum + w0 + w1 + w2 + w3) | 0;
      }
      for (; k < inputSize; k++) {
        const wk = weightsFeature[wBase + k]!;
        dot = (dot + wk * input[inBase + k]!) | 0;
        wSum = (wSum + wk) | 0;
      }
      dot = multiplyByQuantizedMultiplier((dot - Math.imul(inputZp, wSum)) | 0, scale1a, scale1b);
      dot = dot < stateMin ? stateMin : dot > stateMax ? stateMax : dot;
      state[stateBase + f * memorySize] = (stateZp + dot) | 0;
    }
  }

  // Time matmul.
  if (state instanceof Int16Array) timeMatmulInt16(s, weightsTime as Int16Array, state, stateZp, scratch);
  else timeMatmulInt8(s, weightsTime as Int8Array, state, stateZp, scratch);

  // Bias, rank reduction.
  for (let b = 0; b < batchSize; b++) {
    const outBase = b * numUnits;
    let sc = b * numFilters;
    for (let u = 0; u < numUnits; u++) {
      let acc = bias === null ? 0 : bias[u]!;
      for (let r = 0; r < rank; r++) acc = (acc + scratch[sc++]!) | 0;
      scratchOutput[outBase + u] = acc;
    }
  }

  // Rescale into the int8 output.
  const n = batchSize * numUnits;
  for (let i = 0; i < n; i++) {
    const x = multiplyByQuantizedMultiplier(scratchOutput[i]!, scale2a, scale2b) + outputZp;
    output[i] = x < -128 ? -128 : x > 127 ? 127 : x;
  }
}

/**
 * The SVDF time matmul for an int16 state: `scratch[b * F + f] = sum_j weightsTime[f * M + j] *
 * (state[(b * F + f) * M + j] - stateZp)` in wrapping int32. int16 and int8 get separate functions so
 * each keeps monomorphic element loads.
 */
function timeMatmulInt16(s: SvdfShape, weightsTime: Int16Array, state: Int16Array, stateZp: number, scratch: Int32Array): void {
  const { batchSize, numFilters, memorySize } = s;
  for (let b = 0; b < batchSize; b++) {
    const stateBase = b * memorySize * numFilters;
    const scratchBase = b * numFilters;
    for (let f = 0; f < numFilters; f++) {
      const rowBase = f * memorySize;
      let acc = 0;
      for (let j = 0; j < memorySize; j++)
        acc = (acc + Math.imul(weightsTime[rowBase + j]!, state[stateBase + rowBase + j]! - stateZp)) | 0;
      scratch[scratchBase + f] = acc;
    }
  }
}

/** {@link timeMatmulInt16} for an int8 state and int8 time weights. */
function timeMatmulInt8(s: SvdfShape, weightsTime: Int8Array, state: Int8Array, stateZp: number, scratch: Int32Array): void {
  const { batchSize, numFilters, memorySize } = s;
  for (let b = 0; b < batchSize; b++) {
    const stateBase = b * memorySize * numFilters;
    const scratchBase = b * numFilters;
    for (let f = 0; f < numFilters; f++) {
      const rowBase = f * memorySize;
      let acc = 0;
      for (let j = 0; j < memorySize; j++)
        acc = (acc + Math.imul(weightsTime[rowBase + j]!, state[stateBase + rowBase + j]! - stateZp)) | 0;
      scratch[scratchBase + f] = acc;
    }
  }
}
