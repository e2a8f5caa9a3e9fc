/**
 * RFFT2D (TFLite kernels/rfft2d.cc; TFLM has no such kernel): the 2-D FFT of real float32 data over the
 * innermost two dimensions, keeping the non-negative frequencies of the last one.
 *
 * Inputs: 0 input float32 [..., h, w] (rank >= 2), 1 fft_length int32 [2] = (H, W), powers of two
 * (TFLite's IsPowerOfTwo check), H ≥ 1 (YAMNet's [1, N] is a 1-D RFFT of each row) and W ≥ 2 (TFLite
 * accepts W = 1, but its fft2d returns no spectrum for it: its numbers there are not the transform), a
 * constant tensor (micrort's shapes are static).
 * Output: complex64 [..., H, W/2 + 1], element (k1, k2) = Σ x[n1, n2]·e^(-2πi(k1·n1/H + k2·n2/W)), where
 * each slice is cropped or zero-padded to H×W first (as TFLite's PrepareInputBuffer), computed in double
 * and rounded to float32 like TFLite's rdft2d in double. COMPLEX64 data are Float32Array (re, im) pairs.
 *
 * The computation: an FFT of each of the H rows (length W, see fft-common.ts), keeping bins 0..W/2, then
 * an FFT of each of those W/2 + 1 columns (length H). TFLite's double work matrix (H × (W + 2) doubles) is
 * a scratch buffer here; the twiddle table (max(H, W) doubles, fft2d's work area) is persistent.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { Float64Scratch } from './conv-common.js';
import { fftInPlace, fillTwiddles, isPowerOfTwo } from './fft-common.js';
import { opData, setOutputShape } from '@micrort/kernel-support';

const OP = 'RFFT2D';
const INPUT = 0;
const FFT_LENGTH = 1;

interface Rfft2dOpData {
  fftHeight: number;
  fftWidth: number;
  /** W / 2 + 1 output columns. */
  bins: number;
  slices: number;
  inHeight: number;
  inWidth: number;
  /** Input rows and columns used (the rest of the H×W frame is zero). */
  rows: number;
  cols: number;
  twiddles: Float64Array;
  /** max(H, W): the twiddle table's length. */
  twiddleLength: number;
  scratchIndex: number;
  /** Row results (H × bins complex) followed by one line of max(H, W) complex values. */
  work: Float64Scratch;
  workLength: number;
}

function dims(d: ArrayLike<number>): string {
  return `[${Array.from(d).join(', ')}]`;
}

/** Why this kernel cannot serve the node's types, or null. */
function unsupportedTypes(context: TfLiteContext, node: Node): string | null {
  if (node.inputs.length !== 2 || node.outputs.length !== 1)
    return `expects 2 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`;
  if (node.inputs[INPUT]! < 0 || node.inputs[FFT_LENGTH]! < 0 || node.outputs[0]! < 0)
    return 'input, fft_length and output tensors are required';
  const input = context.getTensor(node.inputs[INPUT]!);
  if (input.type !== TensorType.FLOAT32) return `${tensorTypeName(input.type)} input (handles float32)`;
  const fftLength = context.getTensor(node.inputs[FFT_LENGTH]!);
  if (fftLength.type !== TensorType.INT32) return `${tensorTypeName(fftLength.type)} fft_length (handles int32)`;
  const output = context.getTensor(node.outputs[0]!);
  if (output.type !== TensorType.COMPLEX64) return `${tensorTypeName(output.type)} output (handles complex64)`;
  return null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<Rfft2dOpData>(OP, node);
  const fail = (detail: string): never => {
    throw new KernelError(OP, node.index, detail);
  };
  checkArity(OP, node, 2, 1);
  const why = unsupportedTypes(context, node);
  if (why !== null) fail(why);
  const input = getInput(context, node, INPUT, OP);
  const fftLength = getInput(context, node, FFT_LENGTH, OP);
  const rank = input.dims.length;
  if (rank < 2) fail(`input (tensor ${input.index}) must have at least 2 dimensions, has shape ${dims(input.dims)}`);
  if (fftLength.dims.length !== 1 || fftLength.dims[0] !== 2)
    fail(`fft_length (tensor ${fftLength.index}) must have shape [2], has ${dims(fftLength.dims)}`);
  if (!fftLength.isConstant) fail(`fft_length (tensor ${fftLength.index}) must be a constant tensor (output shapes are static)`);
  const lengths = fftLength.data as Int32Array;
  const height = lengths[0]!;
  const width = lengths[1]!;
  if (!isPowerOfTwo(height) || !isPowerOfTwo(width) || width < 2)
    fail(`fft_length is [${height}, ${width}]; both must be powers of two and the width at least 2 (TFLite's fft2d computes only those)`);
  const expected = Array.from(input.dims);
  expected[rank - 2] = height;
  expected[rank - 1] = (width >> 1) + 1;
  setOutputShape(OP, context, node, 0, expected);

  data.fftHeight = height;
  data.fftWidth = width;
  data.bins = (width >> 1) + 1;
  data.inHeight = input.dims[rank - 2]!;
  data.inWidth = input.dims[rank - 1]!;
  data.rows = Math.min(data.inHeight, height);
  data.cols = Math.min(data.inWidth, width);
  let slices = 1;
  for (let i = 0; i < rank - 2; i++) slices *= input.dims[i]!;
  data.slices = slices;
  const longest = Math.max(height, width);
  data.twiddleLength = longest;
  const region = context.allocatePersistentBuffer(longest * 8);
  data.twiddles = new Float64Array(region.buffer, region.offset, longest);
  fillTwiddles(data.twiddles, longest);
  data.workLength = (height * data.bins + longest) * 2;
  data.scratchIndex = context.requestScratchBufferInArena(data.workLength * 8);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<Rfft2dOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[INPUT]!).data as Float32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array; // complex64: (re, im) pairs
  const work = d.work.of(context.getScratchBuffer(d.scratchIndex), d.workLength);
  const { fftHeight: height, fftWidth: width, bins, slices, inHeight, inWidth, rows, cols, twiddles, twiddleLength } = d;
  const line = height * bins * 2; // offset of the one-line buffer after the row results
  const inSlice = inHeight * inWidth;
  const outSlice = height * bins * 2;
  for (let s = 0; s < slices; s++) {
    const inBase = s * inSlice;
    // rows: FFT of the cropped / zero-padded row, keep bins 0..W/2
    for (let r = 0; r < height; r++) {
      const row = r * bins * 2;
      if (r >= rows) {
        work.fill(0, row, row + bins * 2);
        continue;
      }
      const src = inBase + r * inWidth;
      for (let c = 0; c < cols; c++) {
        work[line + 2 * c] = input[src + c]!;
        work[line + 2 * c + 1] = 0;
      }
      work.fill(0, line + 2 * cols, line + 2 * width);
      fftInPlace(work, line, width, twiddles, twiddleLength);
      for (let k = 0; k < 2 * bins; k++) work[row + k] = work[line + k]!;
    }
    // columns: FFT of each kept bin over the H rows, rounded to float32 into the output
    const outBase = s * outSlice;
    for (let c = 0; c < bins; c++) {
      for (let r = 0; r < height; r++) {
        work[line + 2 * r] = work[(r * bins + c) * 2]!;
        work[line + 2 * r + 1] = work[(r * bins + c) * 2 + 1]!;
      }
      fftInPlace(work, line, height, twiddles, twiddleLength);
      for (let r = 0; r < height; r++) {
        output[outBase + (r * bins + c) * 2] = work[line + 2 * r]!;
        output[outBase + (r * bins + c) * 2 + 1] = work[line + 2 * r + 1]!;
      }
    }
  }
}

/** RFFT2D reference kernel (float32 → complex64), version 1. */
export const RFFT2D: Registration<Rfft2dOpData> = {
  builtinCode: BuiltinOperator.RFFT2D,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => unsupportedTypes(context, node) ?? true,
  init: (): Rfft2dOpData => ({
    fftHeight: 0,
    fftWidth: 0,
    bins: 0,
    slices: 0,
    inHeight: 0,
    inWidth: 0,
    rows: 0,
    cols: 0,
    twiddles: new Float64Array(0),
    twiddleLength: 0,
    scratchIndex: -1,
    work: new Float64Scratch(),
    workLength: 0,
  }),
  prepare,
  invoke,
};
