/**
 * SOFTMAX on the GPU (float32) over the last dimension, reference_ops::Softmax semantics: per row,
 * exp((x - max) * beta) / sum of exp((x_k - max) * beta). Each thread recomputes its row's max and sum
 * (rows are short in the models this targets: class scores).
 */
import { BuiltinOperator, type Node, type SoftmaxOptions, type TfLiteContext } from '@micrort/core';
import { ensure, inputTensor, requireFloat32, singleOutput, type GpuOpKernel, type KernelPlan, type KernelThis } from './kernel-plan.js';

const OP = 'SOFTMAX';

interface SoftmaxConstants {
  depth: number;
  beta: number;
}

function softmax(this: KernelThis<SoftmaxConstants>, input: Float32Array): number {
  const base = Math.floor(this.thread.x / this.constants.depth) * this.constants.depth;
  let max = input[base]!;
  for (let k = 1; k < this.constants.depth; k++) {
    max = Math.max(max, input[base + k]!);
  }
  let sum = 0;
  for (let k = 0; k < this.constants.depth; k++) {
    sum += Math.exp((input[base + k]! - max) * this.constants.beta);
  }
  return Math.exp((input[this.thread.x]! - max) * this.constants.beta) / sum;
}

/** SOFTMAX: float32, any rank >= 1, over the last dimension. */
export const softmaxKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.SOFTMAX,
  name: OP,
  plan(context: TfLiteContext, node: Node): KernelPlan {
    ensure(node.inputs.length === 1, OP, node, `expects 1 input, got ${node.inputs.length}`);
    const input = inputTensor(context, OP, node, 0);
    const output = singleOutput(context, OP, node);
    requireFloat32(OP, node, { t: input, what: 'input' }, { t: output, what: 'output' });
    ensure(input.dims.length >= 1, OP, node, 'input must have rank >= 1');
    ensure(input.elementCount === output.elementCount, OP, node, `input has ${input.elementCount} elements, output ${output.elementCount}`);
    const depth = input.dims[input.dims.length - 1]!;
    ensure(depth > 0, OP, node, 'the last dimension is empty');
    const beta = Math.fround((node.builtinData as SoftmaxOptions | null)?.beta ?? 1);
    return {
      op: OP,
      key: `${OP}|n=${output.elementCount}|depth=${depth}|beta=${beta}`,
      source: softmax,
      constants: { depth, beta },
      floatConstants: ['beta'],
      outputSize: output.elementCount,
      output: output.index,
      args: [{ tensor: input.index }],
    };
  },
};
