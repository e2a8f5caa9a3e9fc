/**
 * What CONV_3D and CONV_3D_TRANSPOSE share (TFLite conv3d.cc, conv3d_transpose.cc): Conv3DOptions checked
 * (positive strides and dilations, a known padding), TFLite's ComputePadding3DValues (each spatial
 * dimension's output size and leading padding, from kernel-support's computeOutSize /
 * computePaddingWithOffset) and the fused activation's float range.
 */
import { KernelError, type Conv3DOptions, type Node } from '@micrort/core';
import { activationRangeFloat, computeOutSize, computePaddingWithOffset, expectKnownPadding } from '@micrort/kernel-support';

/** Per spatial dimension (depth, height, width): stride, dilation, leading padding. */
export interface Conv3DGeometry {
  stride: [number, number, number];
  dilation: [number, number, number];
  pad: [number, number, number];
  /** Output sizes computed from the input sizes (CONV_3D's output shape). */
  out: [number, number, number];
  actMin: number;
  actMax: number;
}

/**
 * ComputePadding3DValues for `inSize` (d, h, w) and `filter` (d, h, w): the output sizes and leading
 * paddings. CONV_3D passes its input's sizes; CONV_3D_TRANSPOSE its output's (the convolution it undoes).
 */
export function conv3DGeometry(op: string, node: Node, inSize: readonly number[], filter: readonly number[]): Conv3DGeometry {
  const o = node.builtinData as Conv3DOptions | null;
  if (!o) throw new KernelError(op, node.index, 'Conv3DOptions are missing');
  expectKnownPadding(op, node, o.padding);
  const stride: [number, number, number] = [o.strideD, o.strideH, o.strideW];
  const dilation: [number, number, number] = [o.dilationDFactor, o.dilationHFactor, o.dilationWFactor];
  for (const v of [...stride, ...dilation])
    if (!(v > 0)) throw new KernelError(op, node.index, `strides and dilations must be positive, got ${stride} and ${dilation}`);
  const out = [0, 1, 2].map((i) => computeOutSize(o.padding, inSize[i]!, filter[i]!, stride[i]!, dilation[i]!)) as [number, number, number];
  const pad = [0, 1, 2].map((i) => computePaddingWithOffset(stride[i]!, dilation[i]!, inSize[i]!, filter[i]!, out[i]!).padding) as [
    number,
    number,
    number,
  ];
  const [actMin, actMax] = activationRangeFloat(op, node, o.fusedActivationFunction);
  return { stride, dilation, pad, out, actMin, actMax };
}
