/**
 * CONV_2D on the GPU (float32), reference_ops::Conv semantics: for each output (b, y, x, oc), the sum over
 * filter rows, columns and input channels of input × filter where the tap lies inside the input, plus
 * bias, clamped to the fused activation. Filter layout [outDepth, filterH, filterW, inDepth].
 */
import { BuiltinOperator, type Conv2DOptions, type Node, type TfLiteContext } from '@micrort/core';
import { ensure, type GpuOpKernel, type KernelPlan, type KernelThis } from './kernel-plan.js';
import { convWindowParams, weightedOpPlan, weightedOpTensors } from './weighted-common.js';
import { geometryKey, windowGeometry, type WindowGeometry } from './window-common.js';
import { activationRangeFloat } from '@micrort/kernel-support';

const OP = 'CONV_2D';

interface ConvConstants extends WindowGeometry {
  actMin: number;
  actMax: number;
}

function conv2d(this: KernelThis<ConvConstants>, input: Float32Array, filter: Float32Array, bias: Float32Array): number {
  const oc = this.thread.x % this.constants.outDepth;
  const r1 = Math.floor(this.thread.x / this.constants.outDepth);
  const ox = r1 % this.constants.outWidth;
  const r2 = Math.floor(r1 / this.constants.outWidth);
  const oy = r2 % this.constants.outHeight;
  const b = Math.floor(r2 / this.constants.outHeight);
  const y0 = oy * this.constants.strideH - this.constants.padH;
  const x0 = ox * this.constants.strideW - this.constants.padW;
  let sum = 0;
  for (let ky = 0; ky < this.constants.filterHeight; ky++) {
    const iy = y0 + ky * this.constants.dilationH;
    for (let kx = 0; kx < this.constants.filterWidth; kx++) {
      const ix = x0 + kx * this.constants.dilationW;
      if (iy >= 0 && iy < this.constants.inHeight && ix >= 0 && ix < this.constants.inWidth) {
        const inBase = ((b * this.constants.inHeight + iy) * this.constants.inWidth + ix) * this.constants.inDepth;
        const fBase = ((oc * this.constants.filterHeight + ky) * this.constants.filterWidth + kx) * this.constants.inDepth;
        for (let c = 0; c < this.constants.inDepth; c++) {
          sum += input[inBase + c]! * filter[fBase + c]!;
        }
      }
    }
  }
  sum += bias[oc]!;
  return Math.min(Math.max(sum, this.constants.actMin), this.constants.actMax);
}

/** CONV_2D: float32 input and filter, optional float32 bias; no groups. */
export const conv2dKernel: GpuOpKernel = {
  builtinCode: BuiltinOperator.CONV_2D,
  name: OP,
  plan(context: TfLiteContext, node: Node): KernelPlan {
    const t = weightedOpTensors(context, OP, node, 'filter');
    const filter = t.weights;
    ensure(filter.dims.length === 4, OP, node, `filter must be 4-D [outC, kH, kW, inC], got rank ${filter.dims.length}`);
    const o = node.builtinData as Conv2DOptions;
    const [outDepth, filterH, filterW, filterDepth] = Array.from(filter.dims) as [number, number, number, number];
    const g = windowGeometry(OP, node, t.input, t.output, convWindowParams(o, filterH, filterW), outDepth);
    ensure(
      filterDepth === g.inDepth,
      OP,
      node,
      `grouped convolution (filter depth ${filterDepth}, input depth ${g.inDepth}) is not supported on the GPU`,
    );
    const [actMin, actMax] = activationRangeFloat(OP, node, o.fusedActivationFunction);
    return weightedOpPlan(OP, node, t, `${OP}|${geometryKey(g)}|act=${actMin},${actMax}`, conv2d, { ...g, actMin, actMax }, outDepth);
  },
};
