/**
 * What the ops-simd kernels do spatially (`Registration.spatial`), for schedules that run nodes on
 * windows of their tensors (the patch schedule of @micrort/schedules). The kernels are int8 only: a
 * convolution's padded tap stands for the input zero point (CMSIS-NN skips it, as TFLM does), a max
 * pool's for -128; an average pool leaves padded taps out of the average.
 *
 * TODO(kernel-support): the same window describers as ops-reference's src/kernels/spatial.ts; they
 * belong beside the conv and pooling op-data calculators of @micrort/kernel-support.
 */
import {
  type Conv2DOptions,
  type DepthwiseConv2DOptions,
  type Node,
  type Pool2DOptions,
  type SpatialBehaviour,
  type TfLiteContext,
} from '@micrort/core';

const POINTWISE: SpatialBehaviour = Object.freeze({ kind: 'pointwise' });

/** ADD and MUL: output element i reads element i of each input. */
export function pointwiseSpatial(): SpatialBehaviour {
  return POINTWISE;
}

function convWindow(context: TfLiteContext, node: Node, depthwise: boolean): SpatialBehaviour | string {
  const o = node.builtinData as (Conv2DOptions & DepthwiseConv2DOptions) | null;
  const x = node.inputs[0] ?? -1;
  const f = node.inputs[1] ?? -1;
  if (!o) return 'no options';
  if (x < 0 || f < 0) return 'no input or filter';
  const filter = context.getTensor(f);
  if (filter.dims.length !== 4) return 'filter is not rank 4';
  const kh = filter.dims[1]!;
  const kw = filter.dims[2]!;
  return {
    kind: 'window',
    input: 0,
    kernelH: kh,
    kernelW: kw,
    strideH: o.strideH,
    strideW: o.strideW,
    dilationH: o.dilationHFactor,
    dilationW: o.dilationWFactor,
    padding: o.padding,
    padValue: context.getTensor(x).params.zeroPoint,
    macsPerOutput: depthwise ? kh * kw : kh * kw * filter.dims[3]!,
  };
}

/** CONV_2D's spatial behaviour. */
export function convSpatial(context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return convWindow(context, node, false);
}

/** DEPTHWISE_CONV_2D's spatial behaviour. */
export function depthwiseSpatial(context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return convWindow(context, node, true);
}

function poolWindow(node: Node, padValue: number | string): SpatialBehaviour | string {
  const o = node.builtinData as Pool2DOptions | null;
  if (!o) return 'no options';
  return {
    kind: 'window',
    input: 0,
    kernelH: o.filterHeight,
    kernelW: o.filterWidth,
    strideH: o.strideH,
    strideW: o.strideW,
    dilationH: 1,
    dilationW: 1,
    padding: o.padding,
    padValue,
    macsPerOutput: 0,
  };
}

/** MAX_POOL_2D's spatial behaviour (int8: a padded tap is -128, where the kernel starts). */
export function maxPoolSpatial(_context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return poolWindow(node, -128);
}

/** AVERAGE_POOL_2D's spatial behaviour: padded taps are left out of the average, which no value reproduces. */
export function averagePoolSpatial(_context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return poolWindow(node, 'averages over the in-image taps only');
}
