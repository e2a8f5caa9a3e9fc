/**
 * Geometry shared by the windowed ops (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D): TFLite's
 * ComputeOutSize / ComputePaddingHeightWidth (kernels/padding.h), and the NHWC shape constants the GPU
 * kernels decompose their flat thread index with.
 */
import { Padding, type Node, type Tensor } from '@micrort/core';
import { ensure } from './kernel-plan.js';

/** Spatial stride, dilation and padding of a windowed op. */
export interface WindowParams {
  padding: Padding;
  strideH: number;
  strideW: number;
  dilationH: number;
  dilationW: number;
  filterH: number;
  filterW: number;
}

/** NHWC sizes and the padding TFLite computes, as shader constants. */
export interface WindowGeometry {
  batches: number;
  inHeight: number;
  inWidth: number;
  inDepth: number;
  outHeight: number;
  outWidth: number;
  outDepth: number;
  filterHeight: number;
  filterWidth: number;
  strideH: number;
  strideW: number;
  dilationH: number;
  dilationW: number;
  padH: number;
  padW: number;
}

/** TFLite ComputeOutSize (C integer division). */
export function computeOutSize(padding: Padding, image: number, filter: number, stride: number, dilation: number): number {
  const effective = (filter - 1) * dilation + 1;
  if (stride === 0) return 0;
  if (padding === Padding.SAME) return Math.trunc((image + stride - 1) / stride);
  if (padding === Padding.VALID) return Math.trunc((image + stride - effective) / stride);
  return 0;
}

/** TFLite ComputePaddingWithOffset's padding (half the total padding, rounded down). */
export function computePadding(stride: number, dilation: number, inSize: number, filter: number, outSize: number): number {
  const effective = (filter - 1) * dilation + 1;
  const total = Math.max(0, (outSize - 1) * stride + effective - inSize);
  return Math.trunc(total / 2);
}

/**
 * Validates a 4-D NHWC input/output pair against the window parameters and returns the geometry.
 * Throws `KernelError` (via `ensure`) when the output shape is not what TFLite computes.
 */
export function windowGeometry(op: string, node: Node, input: Tensor, output: Tensor, w: WindowParams, outDepth: number): WindowGeometry {
  ensure(input.dims.length === 4, op, node, `input must be 4-D NHWC, got rank ${input.dims.length}`);
  ensure(output.dims.length === 4, op, node, `output must be 4-D NHWC, got rank ${output.dims.length}`);
  ensure(w.padding === Padding.SAME || w.padding === Padding.VALID, op, node, `unknown padding ${w.padding}`);
  for (const [name, v] of [
    ['stride_h', w.strideH],
    ['stride_w', w.strideW],
    ['dilation_h', w.dilationH],
    ['dilation_w', w.dilationW],
  ] as const)
    ensure(Number.isInteger(v) && v >= 1, op, node, `${name} must be a positive integer, got ${v}`);
  const [batches, inHeight, inWidth, inDepth] = Array.from(input.dims) as [number, number, number, number];
  const outHeight = computeOutSize(w.padding, inHeight, w.filterH, w.strideH, w.dilationH);
  const outWidth = computeOutSize(w.padding, inWidth, w.filterW, w.strideW, w.dilationW);
  const expected = [batches, outHeight, outWidth, outDepth];
  ensure(
    expected.every((d, i) => output.dims[i] === d),
    op,
    node,
    `output shape [${Array.from(output.dims).join(',')}] differs from the computed [${expected.join(',')}]`,
  );
  return {
    batches,
    inHeight,
    inWidth,
    inDepth,
    outHeight,
    outWidth,
    outDepth,
    filterHeight: w.filterH,
    filterWidth: w.filterW,
    strideH: w.strideH,
    strideW: w.strideW,
    dilationH: w.dilationH,
    dilationW: w.dilationW,
    padH: computePadding(w.strideH, w.dilationH, inHeight, w.filterH, outHeight),
    padW: computePadding(w.strideW, w.dilationW, inWidth, w.filterW, outWidth),
  };
}

/** Cache-key fragment of a geometry. */
export function geometryKey(g: WindowGeometry): string {
  return [
    `in=${g.batches}x${g.inHeight}x${g.inWidth}x${g.inDepth}`,
    `out=${g.outHeight}x${g.outWidth}x${g.outDepth}`,
    `f=${g.filterHeight}x${g.filterWidth}`,
    `s=${g.strideH},${g.strideW}`,
    `d=${g.dilationH},${g.dilationW}`,
    `p=${g.padH},${g.padW}`,
  ].join('|');
}
