/**
 * Shared prepare of AVERAGE_POOL_2D and MAX_POOL_2D (TFLM's PoolingPrepare): int8 input and output (no
 * rescaling, as TFLM: the converter gives both the same quantization), rank 4, window geometry and the
 * fused-activation range.
 */
import { KernelError, TensorType, checkArity, getInput, getOutput, type Node, type Pool2DOptions, type TfLiteContext } from '@micrort/core';
import type { PoolParams } from '../cmsis/types-pool.js';
import { arityReason, int8Reason } from './supports-common.js';
import { expectPositive, expectQuantized, expectRank, expectType, quantizedActivationRange, windowGeometry } from './conv-common.js';

/** Whether a pooling node is int8 in and out (what the ops-simd pooling kernels serve). */
export function poolingSupported(context: TfLiteContext, node: Node): true | string {
  return arityReason(node, 1, 1) ?? int8Reason(context, node, [0]) ?? true;
}

/** Validates the node and fills `p`. */
export function preparePooling(op: string, context: TfLiteContext, node: Node, p: PoolParams): void {
  const params = node.builtinData as Pool2DOptions | null;
  if (!params) throw new KernelError(op, node.index, 'missing Pool2DOptions');
  checkArity(op, node, 1, 1);
  const input = getInput(context, node, 0, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, TensorType.INT8);
  expectType(op, node, 'output', output, TensorType.INT8);
  expectRank(op, node, 'input', input, 4);
  expectRank(op, node, 'output', output, 4);
  expectQuantized(op, node, 'input', input);
  expectQuantized(op, node, 'output', output);
  expectPositive(op, node, 'stride_h', params.strideH);
  expectPositive(op, node, 'stride_w', params.strideW);
  expectPositive(op, node, 'filter_height', params.filterHeight);
  expectPositive(op, node, 'filter_width', params.filterWidth);
  p.batches = input.dims[0]!;
  p.inH = input.dims[1]!;
  p.inW = input.dims[2]!;
  p.ch = input.dims[3]!;
  if (output.dims[0] !== p.batches || output.dims[3] !== p.ch) {
    throw new KernelError(
      op,
      node.index,
      `output shape [${Array.from(output.dims).join(', ')}] does not match input [${Array.from(input.dims).join(', ')}]`,
    );
  }
  p.kH = params.filterHeight;
  p.kW = params.filterWidth;
  p.strideH = params.strideH;
  p.strideW = params.strideW;
  const g = windowGeometry(op, node, params.padding, p.inH, p.inW, p.kH, p.kW, p.strideH, p.strideW, 1, 1, output);
  p.outH = g.outH;
  p.outW = g.outW;
  p.padH = g.padH;
  p.padW = g.padW;
  [p.actMin, p.actMax] = quantizedActivationRange(op, node, params.fusedActivationFunction, output);
}
