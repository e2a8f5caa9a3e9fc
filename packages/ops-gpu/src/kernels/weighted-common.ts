/**
 * Shared plan setup of the weighted GPU ops (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED): each reads an
 * input, a weights tensor and an optional bias, writes one float32 output, and runs a shader
 * `source(input, weights, bias)` whose constants end with the float activation bounds.
 */
import type { Node, Padding, Tensor, TfLiteContext } from '@micrort/core';
import {
  biasArgument,
  ensure,
  inputTensor,
  optionalInput,
  requireFloat32,
  singleOutput,
  type KernelPlan,
  type KernelSource,
} from './kernel-plan.js';
import type { WindowParams } from './window-common.js';

/** The tensors of a weighted op. */
export interface WeightedOpTensors {
  input: Tensor;
  /** The filter (convolutions) or weights matrix (FULLY_CONNECTED). */
  weights: Tensor;
  bias: Tensor | null;
  output: Tensor;
}

/**
 * Reads and checks the tensors of a weighted op: 2 or 3 inputs (input, weights, optional bias), a single
 * output, and input, weights and output float32. `weightsWhat` names the weights in messages.
 */
export function weightedOpTensors(context: TfLiteContext, op: string, node: Node, weightsWhat: string): WeightedOpTensors {
  ensure(node.inputs.length >= 2 && node.inputs.length <= 3, op, node, `expects 2 or 3 inputs, got ${node.inputs.length}`);
  const input = inputTensor(context, op, node, 0);
  const weights = inputTensor(context, op, node, 1);
  const bias = optionalInput(context, node, 2);
  const output = singleOutput(context, op, node);
  requireFloat32(op, node, { t: input, what: 'input' }, { t: weights, what: weightsWhat }, { t: output, what: 'output' });
  return { input, weights, bias, output };
}

/** Constants every weighted shader has: the fused activation bounds, compiled as floats. */
export interface ActivationConstants {
  actMin: number;
  actMax: number;
}

const ACTIVATION_FLOAT_CONSTANTS: readonly string[] = ['actMin', 'actMax'];

/**
 * The plan of a weighted op: one thread per output element running `source(input, weights, bias)`, with
 * `constants` (the activation bounds as floats, the rest integers). The bias argument is checked here
 * (float32 with `channels` elements) or replaced by zeros when the node has none.
 */
export function weightedOpPlan(
  op: string,
  node: Node,
  t: WeightedOpTensors,
  key: string,
  source: KernelSource,
  constants: ActivationConstants & Record<string, number>,
  channels: number,
): KernelPlan {
  return {
    op,
    key,
    source,
    constants,
    floatConstants: ACTIVATION_FLOAT_CONSTANTS,
    outputSize: t.output.elementCount,
    output: t.output.index,
    args: [{ tensor: t.input.index }, { tensor: t.weights.index }, biasArgument(op, node, t.bias, channels)],
  };
}

/** Window parameters of CONV_2D / DEPTHWISE_CONV_2D options for a `filterH` x `filterW` filter. */
export function convWindowParams(
  o: { padding: Padding; strideH: number; strideW: number; dilationHFactor: number; dilationWFactor: number },
  filterH: number,
  filterW: number,
): WindowParams {
  return {
    padding: o.padding,
    strideH: o.strideH,
    strideW: o.strideW,
    dilationH: o.dilationHFactor,
    dilationW: o.dilationWFactor,
    filterH,
    filterW,
  };
}
