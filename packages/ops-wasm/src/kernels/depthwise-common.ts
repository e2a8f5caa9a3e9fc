/**
 * The node checks every ops-wasm DEPTHWISE_CONV_2D kernel (int8/uint8, 16x8, hybrid, float32) makes first
 * in prepare, in ops-reference's wording: options present, 2–3 inputs and one output, the output shape
 * set from the window, a positive depth multiplier, a filter [1, kH, kW, channels] whose channels are the
 * output's and the input's times the multiplier, one batch count, and the padding's output size.
 */
import {
  KernelError,
  checkArity,
  getInput,
  getOptionalInput,
  type DepthwiseConv2DOptions,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { convWindow, expectPositive, expectWindowOutput, setConvOutputShape, type PaddingAndOutputSize } from '@micrort/kernel-support';

const OP = 'DEPTHWISE_CONV_2D';

/** A checked DEPTHWISE_CONV_2D node: its options, tensors and sizes. */
export interface DepthwiseNode {
  opts: DepthwiseConv2DOptions;
  input: Tensor;
  filter: Tensor;
  bias: Tensor | null;
  output: Tensor;
  batches: number;
  inH: number;
  inW: number;
  inC: number;
  kH: number;
  kW: number;
  /** Output channels: input channels × depth multiplier. */
  channels: number;
  /** The padding and output size of the window (before any absorbed PAD). */
  pad: PaddingAndOutputSize;
}

/** Checks `node` (phase prepare) and sets its output shape; throws a KernelError naming what is wrong. */
export function prepareDepthwiseNode(context: TfLiteContext, node: Node): DepthwiseNode {
  const opts = node.builtinData as DepthwiseConv2DOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing DepthwiseConv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = setConvOutputShape(OP, context, node, { input, filter }, opts, filter.dims[3]!);
  expectPositive(OP, node, 'depth_multiplier', opts.depthMultiplier);
  const [batches, inH, inW, inC] = input.dims as unknown as number[];
  const [one, kH, kW, fC] = filter.dims as unknown as number[];
  const channels = output.dims[3]!;
  if (one !== 1)
    throw new KernelError(
      OP,
      node.index,
      `filter (tensor ${filter.index}) must have shape [1, kH, kW, channels], got [${Array.from(filter.dims).join(', ')}]`,
    );
  if (fC !== channels) throw new KernelError(OP, node.index, `filter (tensor ${filter.index}) has ${fC} channels, the output ${channels}`);
  if (inC! * opts.depthMultiplier !== channels)
    throw new KernelError(
      OP,
      node.index,
      `output channels ${channels} != input channels ${inC} * depth_multiplier ${opts.depthMultiplier}`,
    );
  if (output.dims[0] !== batches)
    throw new KernelError(OP, node.index, `output batch ${output.dims[0]} differs from input batch ${batches}`);
  const pad = expectWindowOutput(OP, node, convWindow(input, filter, opts), opts.padding, output);
  return { opts, input, filter, bias, output, batches: batches!, inH: inH!, inW: inW!, inC: inC!, kH: kH!, kW: kW!, channels, pad };
}
