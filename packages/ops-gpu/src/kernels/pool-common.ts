/**
 * Shared checks of AVERAGE_POOL_2D and MAX_POOL_2D (float32): 4-D NHWC input and output of the same
 * depth, TFLite's padding and output size, the fused activation bounds.
 */
import { type Node, type Pool2DOptions, type TfLiteContext } from '@micrort/core';
import { activationBounds, ensure, inputTensor, requireFloat32, singleOutput, type KernelPlan, type KernelSource } from './kernel-plan.js';
import { geometryKey, windowGeometry } from './window-common.js';

/** The plan of a float pooling node running `source`. */
export function planPooling(op: string, source: KernelSource, context: TfLiteContext, node: Node): KernelPlan {
  ensure(node.inputs.length === 1, op, node, `expects 1 input, got ${node.inputs.length}`);
  const input = inputTensor(context, op, node, 0);
  const output = singleOutput(context, op, node);
  requireFloat32(op, node, { t: input, what: 'input' }, { t: output, what: 'output' });
  const o = node.builtinData as Pool2DOptions;
  ensure(o.filterHeight >= 1 && o.filterWidth >= 1, op, node, `filter ${o.filterHeight}x${o.filterWidth} is empty`);
  ensure(input.dims.length === 4, op, node, `input must be 4-D NHWC, got rank ${input.dims.length}`);
  const g = windowGeometry(
    op,
    node,
    input,
    output,
    {
      padding: o.padding,
      strideH: o.strideH,
      strideW: o.strideW,
      dilationH: 1,
      dilationW: 1,
      filterH: o.filterHeight,
      filterW: o.filterWidth,
    },
    input.dims[3]!,
  );
  const [actMin, actMax] = activationBounds(op, node, o.fusedActivationFunction);
  return {
    op,
    key: `${op}|${geometryKey(g)}|act=${actMin},${actMax}`,
    source,
    constants: { ...g, actMin, actMax },
    floatConstants: ['actMin', 'actMax'],
    outputSize: output.elementCount,
    output: output.index,
    args: [{ tensor: input.index }],
  };
}
