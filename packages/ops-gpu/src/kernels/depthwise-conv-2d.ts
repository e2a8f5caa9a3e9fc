/**
 * DEPTHWISE_CONV_2D on the GPU (float32), reference_ops::DepthwiseConv semantics: output channel
 * oc = ic * depthMultiplier + m reads input channel ic; the sum over filter rows and columns of
 * input × filter[0, ky, kx, oc] where the tap lies inside the input, plus bias, clamped.
 */
import { BuiltinOperator, type DepthwiseConv2DOptions, type Node, type TfLiteContext } from '@micrort/core';
import { ensure, type GpuOpKernel, type KernelPlan, type KernelThis } from './kernel-plan.js';
import { convWindowParams, weightedOpPlan, weightedOpTensors } from './weighted-common.js';
import { geometryKey, windowGeometry, type WindowGeometry } from './window-common.js';
import { activationRangeFloat } from '@micrort/kernel-support';

const OP = 'DEPTHWISE_CONV_2D';

interface DepthwiseConstants extends WindowGeometry {
  depthMultiplier: number;
  actMin: number;
  actMax: number;
}

function depthwiseConv2d(this: KernelThis<DepthwiseConstants>, input: Float32Array, filter: Float32Array, bias: Float32Array): number {
  const oc = this.thread.x % this.constants.outDepth;
  const r1 = Math.floor(this.thread.x / this.constants.outDepth);
  const ox = r1 % this.constants.outWidth;
  const r2 = Math.floor(r1 / this.constants.outWidth);
  const oy = r2 % this.constants.outHeight;
  const b = Math.floor(r2 / this.constants.outHeight);
  const ic = Math.floor(oc / this.constants.depthMultiplier);
  const y0 = oy * this.constants.strideH - this.constants.padH;
  const x0 = ox * this.constants.strideW - this.constants.padW;
  let sum = 0;
  for (let ky = 0; ky < this.constants.filterHeight; ky++) {
    const iy = y0 + ky * this.constants.dilationH;
    for (let kx = 0; kx < this.constants.filterWidth; kx++) {
      const ix = x0 + kx * this.constants.dilationW;
      if (iy >= 0 && iy < this.constants.inHeight && ix >= 0 && ix < this.constants.inWidth) {
        const inIndex = ((b * this.constants.inHeight + iy) * this.constants.inWidth + ix) * this.constants.inDepth + ic;
        const fIndex = (ky * this.constants.filterWidth + kx) * this.constants.outDepth + oc;
        sum += input[inIndex]! * filter[fIndex]!;
      }
    }
  }
  sum += bias[oc]!;
  return Math.min(Math.max(sum, this.constants.actMin), this.constants.actMax);
}

/** DEPTHWISE_CONV_2D: float32 input and filter [1, kH, kW, inC * multiplier], optional float32 bias. */
export const depthwiseConv2dKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
  name: OP,
  plan(context: TfLiteContext, node: Node): KernelPlan {
    const t = weightedOpTensors(context, OP, node, 'filter');
    const filter = t.weights;
    ensure(
      filter.dims.length === 4 && filter.dims[0] === 1,
      OP,
      node,
      `filter must be [1, kH, kW, outC], got [${Array.from(filter.dims).join(',')}]`,
    );
    const o = node.builtinData as DepthwiseConv2DOptions;
    const [, filterH, filterW, outDepth] = Array.from(filter.dims) as [number, number, number, number];
    const g = windowGeometry(OP, node, t.input, t.output, convWindowParams(o, filterH, filterW), outDepth);
    ensure(g.inDepth > 0 && outDepth % g.inDepth === 0, OP, node, `output depth ${outDepth} is not a multiple of input depth ${g.inDepth}`);
    const depthMultiplier = outDepth / g.inDepth;
    const [actMin, actMax] = activationRangeFloat(OP, node, o.fusedActivationFunction);
    const key = `${OP}|${geometryKey(g)}|m=${depthMultiplier}|act=${actMin},${actMax}`;
    return weightedOpPlan(OP, node, t, key, depthwiseConv2d, { ...g, depthMultiplier, actMin, actMax }, outDepth);
  },
};
