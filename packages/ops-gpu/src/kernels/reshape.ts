/**
 * RESHAPE on the GPU: no kernel at all. The output has the same elements in the same order, so the
 * delegate makes the output tensor's device value the input's (an alias); only its shape differs, and
 * shapes live in the arena's tensors, not on the device.
 */
import { BuiltinOperator, type Node, type TfLiteContext } from '@micrort/core';
import { ensure, inputTensor, requireFloat32, singleOutput, type GpuOpKernel, type KernelPlan } from './kernel-plan.js';

const OP = 'RESHAPE';

/** RESHAPE: float32; the optional shape input (int32) is not read, the output's shape is the model's. */
export const reshapeKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.RESHAPE,
  name: OP,
  plan(context: TfLiteContext, node: Node): KernelPlan {
    ensure(node.inputs.length >= 1 && node.inputs.length <= 2, OP, node, `expects 1 or 2 inputs, got ${node.inputs.length}`);
    const input = inputTensor(context, OP, node, 0);
    const output = singleOutput(context, OP, node);
    requireFloat32(OP, node, { t: input, what: 'input' }, { t: output, what: 'output' });
    ensure(input.elementCount === output.elementCount, OP, node, `input has ${input.elementCount} elements, output ${output.elementCount}`);
    return {
      op: OP,
      key: `${OP}|n=${output.elementCount}`,
      source: null,
      constants: {},
      floatConstants: [],
      outputSize: output.elementCount,
      output: output.index,
      args: [{ tensor: input.index }],
    };
  },
};
