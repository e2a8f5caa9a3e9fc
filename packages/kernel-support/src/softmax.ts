/**
 * The op data of SOFTMAX with int8 input (TFLM's kernels/softmax_common.cc CalculateSoftmaxParams),
 * shared by the reference, CMSIS-NN-style and WebAssembly kernels: the output quantization TFLM requires
 * (int8: scale 1/256 exactly, zero point -128; int16: scale 1/65536 within 0.1%, zero point -32768) and
 * the input rescaling of the differences to the row maximum (PreprocessSoftmaxScaling into Q5.26,
 * CalculateInputRadius for the smallest difference that still counts), and TFLite's float32 exp table
 * of uint8 inputs.
 */
import {
  TensorType,
  calculateInputRadius,
  expF32,
  numElements,
  preprocessSoftmaxScaling,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { OptionError, QuantizationError, TensorShapeError, expectQuantized, shapeText } from './checks.js';

/** Integer bits of the scaled input differences (Q5.26), gemmlowp's and TFLM's kScaledDiffIntegerBits. */
export const SCALED_DIFF_INTEGER_BITS = 5;
/** Integer bits of the sum of exponentials (Q12.19), TFLM's kAccumulationIntegerBits. */
export const ACCUMULATION_INTEGER_BITS = 12;

/** TFLM's SoftmaxParams for int8 input. */
export interface SoftmaxInt8Params {
  /** beta as float32, as the options store it. */
  beta: number;
  /** QuantizeMultiplierGreaterThanOne of beta * input_scale * 2^(31 - 5). */
  inputMultiplier: number;
  inputLeftShift: number;
  /** -CalculateInputRadius(5, left shift): differences below it contribute nothing. */
  diffMin: number;
  /** 8 for an int8 output, 16 for an int16 output. */
  outputBits: 8 | 16;
}

/** Rows of a softmax: `outer` rows of `depth` elements (the last dimension). */
export interface SoftmaxShape {
  outer: number;
  depth: number;
}

/**
 * TFLM's SOFTMAX shape checks: input rank >= 1, the output holding as many elements with the same last
 * dimension (TFLM resizes it to the input's shape). Returns the rows softmax runs over.
 */
export function expectSoftmaxShape(op: string, node: Node, input: Tensor, output: Tensor): SoftmaxShape {
  const rank = input.dims.length;
  if (rank < 1)
    throw new TensorShapeError(
      op,
      node.index,
      'input',
      input.index,
      Array.from(input.dims),
      `input (tensor ${input.index}) must have rank >= 1`,
    );
  const count = numElements(input.dims);
  const depth = input.dims[rank - 1]!;
  if (numElements(output.dims) !== count || output.dims[output.dims.length - 1] !== depth)
    throw new TensorShapeError(
      op,
      node.index,
      'output',
      output.index,
      Array.from(output.dims),
      `output shape ${shapeText(output.dims)} must match input shape ${shapeText(input.dims)}`,
    );
  return { outer: depth === 0 ? 0 : count / depth, depth };
}

/**
 * Invoke: the rows of a softmax-like op (SOFTMAX, LOG_SOFTMAX) whose input has a data-dependent shape,
 * from the input's actual dims (rows of its last dimension), written into `shape`; the output takes the
 * input's actual dims. Allocates nothing.
 */
export function followSoftmaxShape(context: TfLiteContext, node: Node, shape: SoftmaxShape): void {
  const dims = context.getEvalTensor(node.inputs[0]!).dims;
  const depth = dims[dims.length - 1]!;
  let outer = 1;
  for (let i = 0; i < dims.length - 1; i++) outer *= dims[i]!;
  shape.depth = depth;
  shape.outer = depth === 0 ? 0 : outer;
  context.setActualShape(node.outputs[0]!, dims);
}

/** TF_LITE_ENSURE_NEAR on float32 values: |a - b| <= eps evaluated in float32. */
function near(a: number, b: number, eps: number): boolean {
  return Math.abs(Math.fround(Math.fround(a) - Math.fround(b))) <= Math.fround(eps);
}

/**
 * Throws unless `output` has zero point `zeroPoint` and scale `scale` — exactly (`exact`, as float32) or
 * within 0.1% as TFLM's TF_LITE_ENSURE_NEAR.
 */
export function expectSoftmaxOutputQuantization(
  op: string,
  node: Node,
  output: Tensor,
  zeroPoint: number,
  scale: number,
  exact: boolean,
): void {
  const zp = output.params.zeroPoint;
  const s = output.params.scale;
  const scaleOk = exact ? s === Math.fround(scale) : near(s, scale, Math.fround(Math.fround(0.001) * Math.fround(scale)));
  if (zp !== zeroPoint || !scaleOk)
    throw new QuantizationError(
      op,
      node.index,
      'output',
      output.index,
      `${tensorTypeName(output.type)} output (tensor ${output.index}) must have zero point ${zeroPoint} and scale ${exact ? '' : '≈ '}${scale}, got zero point ${zp} and scale ${s}`,
    );
}

/**
 * TFLM CalculateSoftmaxParams for int8 input and an int8 or int16 output: input and output quantized, the
 * output quantization TFLM requires, beta finite, and the rescaling of the differences (a scale too small
 * to rescale is an `OptionError` naming beta and the scale).
 */
export function calculateSoftmaxInt8Params(op: string, node: Node, input: Tensor, output: Tensor, beta: number): SoftmaxInt8Params {
  expectQuantized(op, node, 'input', input);
  expectQuantized(op, node, 'output', output);
  const outputBits = output.type === TensorType.INT16 ? 16 : 8;
  if (outputBits === 16) expectSoftmaxOutputQuantization(op, node, output, -32768, 1 / 65536, false);
  else expectSoftmaxOutputQuantization(op, node, output, -128, 1 / 256, true);
  if (!Number.isFinite(beta)) throw new OptionError(op, node.index, 'beta', beta, `beta must be finite, got ${beta}`);
  const betaF = Math.fround(beta);
  let m;
  try {
    m = preprocessSoftmaxScaling(betaF, input.params.scale, SCALED_DIFF_INTEGER_BITS);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new OptionError(
      op,
      node.index,
      'beta',
      betaF,
      `input scale ${input.params.scale} with beta ${betaF} is too small to rescale: ${e.message}`,
    );
  }
  return {
    beta: betaF,
    inputMultiplier: m.multiplier,
    inputLeftShift: m.shift,
    diffMin: -calculateInputRadius(SCALED_DIFF_INTEGER_BITS, m.shift),
    outputBits,
  };
}

/** Entries of TFLite's uint8 softmax table (SoftmaxOpData::table, float[256]). */
export const UINT8_SOFTMAX_TABLE_ENTRIES = 256;

/**
 * TFLite's optimized_ops::PopulateSoftmaxLookupTable, the table its SOFTMAX kernel builds in prepare for
 * uint8 inputs: `table[255 - v] = expf(-input_scale * beta * v)` for v in 0..255, every step in float32
 * (core's `expF32` is glibc's expf). `table` holds at least {@link UINT8_SOFTMAX_TABLE_ENTRIES} floats.
 */
export function populateSoftmaxUint8Table(table: Float32Array, inputScale: number, beta: number): void {
  const f = Math.fround;
  const scale = f(-f(inputScale) * f(beta));
  for (let v = 0; v < UINT8_SOFTMAX_TABLE_ENTRIES; v++) table[255 - v] = expF32(f(scale * v));
}
