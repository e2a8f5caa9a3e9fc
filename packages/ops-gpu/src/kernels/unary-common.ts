/** Shared checks of the element-wise float32 activations (RELU, RELU6, LOGISTIC, TANH). */
import type { Node, TfLiteContext } from '@micrort/core';
import { ensure, inputTensor, requireFloat32, singleOutput, type GpuOpKernel, type KernelSource } from './kernel-plan.js';

/** A GPU kernel applying `source` element by element; input and output have the same element count. */
export function unaryKernel(builtinCode: number, name: string, source: KernelSource): GpuOpKernel {
  return {
    builtinCode,
    name,
    plan(context: TfLiteContext, node: Node) {
      ensure(node.inputs.length === 1, name, node, `expects 1 input, got ${node.inputs.length}`);
      const input = inputTensor(context, name, node, 0);
      const output = singleOutput(context, name, node);
      requireFloat32(name, node, { t: input, what: 'input' }, { t: output, what: 'output' });
      ensure(
        input.elementCount === output.elementCount,
        name,
        node,
        `input has ${input.elementCount} elements, output ${output.elementCount}`,
      );
      return {
        op: name,
        key: `${name}|n=${output.elementCount}`,
        source,
        constants: {},
        floatConstants: [],
        outputSize: output.elementCount,
        output: output.index,
        args: [{ tensor: input.index }],
      };
    },
  };
}
