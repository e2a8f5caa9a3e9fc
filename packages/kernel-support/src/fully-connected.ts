/**
 * The quantized op data of FULLY_CONNECTED (TFLM's kernels/fully_connected_common.cc
 * CalculateOpDataFullyConnected), shared by the reference, CMSIS-NN-style and WebAssembly kernels:
 * per-tensor weights take GetQuantizedConvolutionMultipler (the scale product in float, a bias scale
 * within 2% of an output step of it), per-channel weights one multiplier and shift per output unit in
 * two persistent arena arrays; then the offsets and the quantized activation range.
 */
import {
  ActivationFunctionType,
  checkedQuantizeMultiplier,
  getQuantizedConvolutionMultiplier,
  numElements,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { activationRangeQuantized } from './activation.js';
import { QuantizationError, TensorShapeError, expectQuantized, shapeText } from './checks.js';
import { allocatePerChannelBuffers, type PerChannelBuffers } from './conv.js';

/** The matrix product a FULLY_CONNECTED node computes. */
export interface FullyConnectedShape {
  /** Rows of the input (output elements / output depth). */
  batches: number;
  /** Output units: the filter's rows and the output's last dimension. */
  outputDepth: number;
  /** Inputs per unit: the filter's last dimension. */
  accumDepth: number;
}

/**
 * FULLY_CONNECTED's shapes as TFLM's prepare checks them: filter [..., output_depth, accum_depth] (rank >= 2,
 * accum_depth > 0), output [..., output_depth], the input holding batches * accum_depth elements where
 * batches = output elements / output_depth; with keep_num_dims the output is the input's shape with the
 * last dimension replaced. Throws a `TensorShapeError` naming the shapes otherwise.
 */
export function expectFullyConnectedShape(
  op: string,
  node: Node,
  input: Tensor,
  filter: Tensor,
  output: Tensor,
  keepNumDims: boolean,
): FullyConnectedShape {
  const fail = (what: string, t: Tensor, detail: string): never => {
    throw new TensorShapeError(op, node.index, what, t.index, Array.from(t.dims), detail);
  };
  const fr = filter.dims.length;
  if (fr < 2) fail('filter', filter, `filter (tensor ${filter.index}) must have rank >= 2, got shape ${shapeText(filter.dims)}`);
  const accumDepth = filter.dims[fr - 1]!;
  const filterRows = filter.dims[fr - 2]!;
  if (accumDepth <= 0)
    fail('filter', filter, `filter (tensor ${filter.index}) has an empty accumulation dimension, shape ${shapeText(filter.dims)}`);
  const or = output.dims.length;
  if (or < 1) fail('output', output, `output (tensor ${output.index}) must have rank >= 1`);
  const outputDepth = output.dims[or - 1]!;
  if (outputDepth !== filterRows)
    fail(
      'output',
      output,
      `output (tensor ${output.index}) last dimension ${outputDepth} does not match the filter's ${filterRows} output units (filter shape ${shapeText(filter.dims)})`,
    );
  const batches = outputDepth === 0 ? 0 : numElements(output.dims) / outputDepth;
  const inCount = numElements(input.dims);
  if (inCount !== batches * accumDepth)
    fail(
      'input',
      input,
      `input (tensor ${input.index}, shape ${shapeText(input.dims)}) has ${inCount} elements, expected batches ${batches} x accum_depth ${accumDepth} = ${batches * accumDepth}`,
    );
  if (keepNumDims) {
    let ok = input.dims.length === or;
    for (let i = 0; ok && i < or - 1; i++) ok = input.dims[i] === output.dims[i];
    if (!ok)
      fail(
        'output',
        output,
        `keep_num_dims: output shape ${shapeText(output.dims)} must be the input shape ${shapeText(input.dims)} with the last dimension replaced by ${outputDepth}`,
      );
  }
  return { batches, outputDepth, accumDepth };
}

/** The quantized fields of TFLM's OpDataFullyConnected. */
export interface FullyConnectedQuantization {
  /** Whether the filter has one scale per output unit. */
  perChannel: boolean;
  /** Per-tensor multiplier and shift (the first channel's when per-channel). */
  outputMultiplier: number;
  outputShift: number;
  /** Per-channel multipliers and shifts in the arena (per-channel filters only, else null). */
  perChannelBuffers: PerChannelBuffers | null;
  inputZeroPoint: number;
  filterZeroPoint: number;
  outputZeroPoint: number;
  actMin: number;
  actMax: number;
}

/**
 * TFLM CalculateOpDataFullyConnected for quantized FULLY_CONNECTED (int8 or int16 activations, int8
 * weights): input, filter and output quantized; a per-channel filter must be quantized along its output
 * dimension (rank - 2) with one scale per unit, whose multipliers (double(input_scale) *
 * double(filter_scale[c]) / double(output_scale)) go to two persistent arena arrays; a per-tensor filter
 * gets GetQuantizedConvolutionMultipler, and a bias whose scale differs from input_scale * filter_scale by
 * more than 0.02 output steps is refused as TFLM does.
 */
export function calculateOpDataFullyConnected(
  op: string,
  context: TfLiteContext,
  node: Node,
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  activation: ActivationFunctionType,
): FullyConnectedQuantization {
  expectQuantized(op, node, 'input', input);
  expectQuantized(op, node, 'filter', filter);
  expectQuantized(op, node, 'output', output);
  const fq = filter.quantization!;
  const perChannel = fq.scale.length > 1;
  const inputScale = input.params.scale;
  const outputScale = output.params.scale;
  let perChannelBuffers: PerChannelBuffers | null = null;
  let outputMultiplier: number;
  let outputShift: number;
  if (perChannel) {
    const qd = fq.quantizedDimension;
    const channels = fq.scale.length;
    if (qd !== filter.dims.length - 2)
      throw new QuantizationError(
        op,
        node.index,
        'filter',
        filter.index,
        `per-channel filter (tensor ${filter.index}) must be quantized along its output dimension ${filter.dims.length - 2}, got quantized_dimension ${qd}`,
      );
    if (channels !== filter.dims[qd])
      throw new QuantizationError(
        op,
        node.index,
        'filter',
        filter.index,
        `per-channel filter (tensor ${filter.index}) has ${channels} scales for ${filter.dims[qd]} output channels`,
      );
    perChannelBuffers = allocatePerChannelBuffers(context, channels);
    for (let c = 0; c < channels; c++) {
      // TFLM: double(input_scale) * double(filter_scale[c]) / double(output_scale)
      const m = checkedQuantizeMultiplier(op, node, (inputScale * fq.scale[c]!) / outputScale, 'per-channel output multiplier');
      perChannelBuffers.multiplier[c] = m.multiplier;
      perChannelBuffers.shift[c] = m.shift;
    }
    outputMultiplier = perChannelBuffers.multiplier[0]!;
    outputShift = perChannelBuffers.shift[0]!;
  } else {
    // TFLM GetQuantizedConvolutionMultipler: the bias scale must be close to input_scale * filter_scale.
    const filterScale = filter.params.scale;
    if (bias) {
      const productScale = inputScale * filterScale;
      const diff = Math.abs(productScale - bias.params.scale) / outputScale;
      if (!(diff <= 0.02))
        throw new QuantizationError(
          op,
          node.index,
          'bias',
          bias.index,
          `bias scale ${bias.params.scale} (tensor ${bias.index}) differs from input_scale * filter_scale = ${productScale} by ${diff} output scales (max 0.02)`,
        );
    }
    const m = checkedQuantizeMultiplier(
      op,
      node,
      getQuantizedConvolutionMultiplier(inputScale, filterScale, outputScale),
      'output multiplier',
    );
    outputMultiplier = m.multiplier;
    outputShift = m.shift;
  }
  const [actMin, actMax] = activationRangeQuantized(op, node, activation, output);
  return {
    perChannel,
    outputMultiplier,
    outputShift,
    perChannelBuffers,
    inputZeroPoint: input.params.zeroPoint,
    filterZeroPoint: filter.params.zeroPoint,
    outputZeroPoint: output.params.zeroPoint,
    actMin,
    actMax,
  };
}
