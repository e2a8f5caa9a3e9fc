/**
 * SVDF's prepare math (TFLM kernels/svdf.cc Prepare, svdf_common.cc), shared by ops-reference's kernel
 * and ops-wasm's: the node's tensors with their shapes checked and the output resized, and the two
 * requantization multipliers of the full-integer kernel.
 *
 * Inputs: 0 input [batch, inputSize], 1 weights_feature [numFilters, inputSize], 2 weights_time
 * [numFilters, memorySize], 3 optional bias [numUnits], 4 activation state (variable)
 * [batch, memorySize * numFilters]. Output: [batch, numUnits], numUnits = numFilters / rank.
 */
import {
  KernelError,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  quantizeMultiplier,
  type Node,
  type SVDFOptions,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { setOutputShape } from './output-shape.js';

/** Shapes of one SVDF node, fixed in prepare. */
export interface SvdfShape {
  rank: number;
  batchSize: number;
  inputSize: number;
  numFilters: number;
  numUnits: number;
  memorySize: number;
}

/** The tensors of an SVDF node, its options and its shape. */
export interface SvdfTensors {
  options: SVDFOptions;
  input: Tensor;
  weightsFeature: Tensor;
  weightsTime: Tensor;
  bias: Tensor | null;
  state: Tensor;
  output: Tensor;
  shape: SvdfShape;
}

function checkDims(op: string, node: Node, what: string, t: Tensor, expected: readonly number[]): void {
  const ok = t.dims.length === expected.length && expected.every((d, i) => t.dims[i] === d);
  if (!ok)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) has shape [${Array.from(t.dims).join(', ')}], expected [${expected.join(', ')}]`,
    );
}

/** SVDF's inputs other than the optional bias (3): input, weights_feature, weights_time, activation state. */
export const SVDF_REQUIRED_INPUTS: readonly number[] = [0, 1, 2, 4];

/**
 * SVDF's tensors in prepare: options and arity checked, rank positive and dividing num_filters, input and
 * weights 2-D, the output resized to [batch, numUnits], weights, bias and state shapes checked, the state a
 * variable tensor. Types are the caller's to check (each kernel takes its own set).
 */
export function svdfTensors(op: string, context: TfLiteContext, node: Node): SvdfTensors {
  const options = node.builtinData as SVDFOptions | null;
  if (!options) throw new KernelError(op, node.index, 'missing SVDFOptions');
  checkArity(op, node, 5, 1);

  const input = getInput(context, node, 0, op);
  const weightsFeature = getInput(context, node, 1, op);
  const weightsTime = getInput(context, node, 2, op);
  const bias = getOptionalInput(context, node, 3);
  const state = getInput(context, node, 4, op);
  const output = getOutput(context, node, 0, op);

  const rank = options.rank;
  if (!(rank > 0)) throw new KernelError(op, node.index, `rank must be positive, got ${rank}`);
  if (input.dims.length !== 2)
    throw new KernelError(op, node.index, `input (tensor ${input.index}) must be 2-D, got ${input.dims.length}-D`);
  if (weightsFeature.dims.length !== 2 || weightsTime.dims.length !== 2)
    throw new KernelError(
      op,
      node.index,
      `weights_feature and weights_time must be 2-D, got ${weightsFeature.dims.length}-D and ${weightsTime.dims.length}-D`,
    );
  const batchSize = input.dims[0]!;
  const inputSize = input.dims[1]!;
  const numFilters = weightsFeature.dims[0]!;
  if (numFilters % rank !== 0) throw new KernelError(op, node.index, `num_filters ${numFilters} is not a multiple of rank ${rank}`);
  const numUnits = numFilters / rank;
  const memorySize = weightsTime.dims[1]!;

  setOutputShape(op, context, node, 0, [batchSize, numUnits]);
  checkDims(op, node, 'weights_feature', weightsFeature, [numFilters, inputSize]);
  checkDims(op, node, 'weights_time', weightsTime, [numFilters, memorySize]);
  if (bias !== null && (bias.dims.length < 1 || bias.dims[0] !== numUnits))
    throw new KernelError(
      op,
      node.index,
      `bias (tensor ${bias.index}) has shape [${Array.from(bias.dims).join(', ')}], expected [${numUnits}]`,
    );
  checkDims(op, node, 'activation state', state, [batchSize, memorySize * numFilters]);
  if (!state.isVariable) throw new KernelError(op, node.index, `activation state (tensor ${state.index}) must be a variable tensor`);

  const shape = { rank, batchSize, inputSize, numFilters, numUnits, memorySize };
  return { options, input, weightsFeature, weightsTime, bias, state, output, shape };
}

/** TFLM's quantized multiplier and shift. */
export interface SvdfMultiplier {
  multiplier: number;
  shift: number;
}

/**
 * The full-integer SVDF's requantizations (TFLM svdf.cc Prepare): `scale1` takes the feature matmul into
 * the state (input × weights_feature / state), `scale2` the time matmul into the output (state ×
 * weights_time / output), each product and quotient rounded to float32 first as TFLM does. Checks that a
 * bias's scale is state × weights_time and that both scales are positive and finite (zero, missing or
 * extreme scales make them NaN or infinite: the node is refused rather than crash). Takes the tensors
 * alone, so a `supports()` can ask before prepare.
 */
export function svdfIntegerMultipliers(
  op: string,
  node: Node,
  t: Omit<SvdfTensors, 'options' | 'shape'>,
): { scale1: SvdfMultiplier; scale2: SvdfMultiplier } {
  const { input, weightsFeature, weightsTime, bias, state, output } = t;
  // TFLM multiplies and divides the float scales in float, then widens to double.
  const effectiveScale1 = Math.fround(Math.fround(input.params.scale * weightsFeature.params.scale) / state.params.scale);
  const effectiveScale2 = Math.fround(Math.fround(state.params.scale * weightsTime.params.scale) / output.params.scale);
  if (bias !== null) {
    const expected = Math.fround(state.params.scale * weightsTime.params.scale);
    if (!(Math.abs(bias.params.scale - expected) < 1e-5))
      throw new KernelError(
        op,
        node.index,
        `bias scale ${bias.params.scale} must equal activation state scale x weights_time scale (${expected})`,
      );
  }
  for (const [what, scale] of [
    ['input x weights_feature / activation state', effectiveScale1],
    ['activation state x weights_time / output', effectiveScale2],
  ] as const)
    if (!(scale > 0 && scale < Infinity))
      throw new KernelError(
        op,
        node.index,
        `effective scale ${what} is ${scale}; the scales of input ${input.index}, weights ${weightsFeature.index}/${weightsTime.index}, state ${state.index} and output ${output.index} must be positive and finite`,
      );
  return { scale1: quantizeMultiplier(effectiveScale1), scale2: quantizeMultiplier(effectiveScale2) };
}
