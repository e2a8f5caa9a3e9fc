/**
 * FULLY_CONNECTED on the GPU (float32), reference_ops::FullyConnected semantics: for batch b and unit o,
 * the sum over depth of input[b, d] × weights[o, d], plus bias[o], clamped to the fused activation.
 */
import { BuiltinOperator, FullyConnectedWeightsFormat, type FullyConnectedOptions, type Node, type TfLiteContext } from '@micrort/core';
import { ensure, type GpuOpKernel, type KernelPlan, type KernelThis } from './kernel-plan.js';
import { weightedOpPlan, weightedOpTensors } from './weighted-common.js';
import { activationRangeFloat } from '@micrort/kernel-support';

const OP = 'FULLY_CONNECTED';

interface FcConstants {
  units: number;
  depth: number;
  actMin: number;
  actMax: number;
}

function fullyConnected(this: KernelThis<FcConstants>, input: Float32Array, weights: Float32Array, bias: Float32Array): number {
  const o = this.thread.x % this.constants.units;
  const b = Math.floor(this.thread.x / this.constants.units);
  let sum = 0;
  for (let d = 0; d < this.constants.depth; d++) {
    sum += input[b * this.constants.depth + d]! * weights[o * this.constants.depth + d]!;
  }
  sum += bias[o]!;
  return Math.min(Math.max(sum, this.constants.actMin), this.constants.actMax);
}

/** FULLY_CONNECTED: float32 input and weights [units, depth] (default format), optional float32 bias. */
export const fullyConnectedKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.FULLY_CONNECTED,
  name: OP,
  plan(context: TfLiteContext, node: Node): KernelPlan {
    const t = weightedOpTensors(context, OP, node, 'weights');
    const { input, weights, output } = t;
    const o = node.builtinData as FullyConnectedOptions | null;
    ensure(
      !o || o.weightsFormat === FullyConnectedWeightsFormat.DEFAULT,
      OP,
      node,
      `weights format ${o?.weightsFormat} is not supported on the GPU`,
    );
    ensure(weights.dims.length === 2, OP, node, `weights must be 2-D [units, depth], got rank ${weights.dims.length}`);
    const [units, depth] = [weights.dims[0]!, weights.dims[1]!];
    ensure(depth > 0 && units > 0, OP, node, `weights shape [${units},${depth}] is empty`);
    ensure(
      input.elementCount % depth === 0,
      OP,
      node,
      `input has ${input.elementCount} elements, not a multiple of the weights depth ${depth}`,
    );
    const batches = input.elementCount / depth;
    ensure(output.elementCount === batches * units, OP, node, `output has ${output.elementCount} elements, expected ${batches} x ${units}`);
    const [actMin, actMax] = activationRangeFloat(OP, node, o?.fusedActivationFunction ?? 0);
    return weightedOpPlan(
      OP,
      node,
      t,
      `${OP}|b=${batches}|units=${units}|depth=${depth}|act=${actMin},${actMax}`,
      fullyConnected,
      { units, depth, actMin, actMax },
      units,
    );
  },
};
