/**
 * Geometry shared by the windowed ops (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D): the NHWC
 * shape constants the GPU kernels decompose their flat thread index with, from kernel-support's padding
 * (TFLite's kernels/padding.h).
 */
import type { Node, Padding, Tensor } from '@micrort/core';
import { expectPositive, expectRank, expectWindowOutput } from '@micrort/kernel-support';
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

/**
 * Validates a 4-D NHWC input/output pair against the window parameters and returns the geometry:
 * kernel-support's checks and `expectWindowOutput` (TFLite's ComputePaddingHeightWidth; the output's
 * height and width must be the ones the options give), plus the output's batch and depth. Throws a
 * `KernelError` naming what differs; the delegate then leaves the node on the CPU.
 */
export function windowGeometry(op: string, node: Node, input: Tensor, output: Tensor, w: WindowParams, outDepth: number): WindowGeometry {
  expectRank(op, node, 'input', input, 4);
  expectRank(op, node, 'output', output, 4);
  expectPositive(op, node, 'stride_h', w.strideH);
  expectPositive(op, node, 'stride_w', w.strideW);
  expectPositive(op, node, 'dilation_h_factor', w.dilationH);
  expectPositive(op, node, 'dilation_w_factor', w.dilationW);
  const [batches, inHeight, inWidth, inDepth] = Array.from(input.dims) as [number, number, number, number];
  const pad = expectWindowOutput(
    op,
    node,
    {
      inHeight,
      inWidth,
      filterHeight: w.filterH,
      filterWidth: w.filterW,
      strideHeight: w.strideH,
      strideWidth: w.strideW,
      dilationHeight: w.dilationH,
      dilationWidth: w.dilationW,
    },
    w.padding,
    output,
  );
  const expected = [batches, pad.outHeight, pad.outWidth, outDepth];
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
    outHeight: pad.outHeight,
    outWidth: pad.outWidth,
    outDepth,
    filterHeight: w.filterH,
    filterWidth: w.filterW,
    strideH: w.strideH,
    strideW: w.strideW,
    dilationH: w.dilationH,
    dilationW: w.dilationW,
    padH: pad.height,
    padW: pad.width,
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
