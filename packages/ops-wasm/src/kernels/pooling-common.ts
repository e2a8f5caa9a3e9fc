/**
 * Shared prepare of the int8 pooling kernels (TFLM kernels/pooling_common.cc): validation, TFLite
 * padding, the activation range, and the parameter block of assembly/int8/pool.ts.
 */
import { KernelError, Padding, TensorType, tensorTypeName, type Node, type Pool2DOptions, type TfLiteContext } from '@micrort/core';
import { Q, Q_BYTES } from '../generated/abi.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { computeOutSize, computePadding, constantInputCopies, quantizedActivationRange } from './kernel-common.js';

/** The parameter block Q (scripts/abi.mjs); TFLM's OpDataPooling is 32 bytes. */
export const POOL_PARAMS_BYTES = Q_BYTES;

/** Op data of a pooling node. */
export interface PoolData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** Why an int8 pooling node is not handled, or true. */
export function supportsPool(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length !== 1 || node.outputs.length !== 1) return 'arity';
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== TensorType.INT8 || output.type !== TensorType.INT8) return `${tensorTypeName(input.type)} input (handles int8)`;
  return true;
}

/** Validates the node and writes the parameter block; `op` names the op in errors. */
export function preparePool(op: string, context: TfLiteContext, node: Node): void {
  const data = node.userData as PoolData;
  const params = node.builtinData as Pool2DOptions | null;
  if (!params) throw new KernelError(op, node.index, 'missing Pool2DOptions');
  if (node.inputs.length !== 1 || node.outputs.length !== 1) throw new KernelError(op, node.index, 'expects 1 input and 1 output');
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const shape = (t: { dims: Int32Array }) => `[${Array.from(t.dims).join(', ')}]`;
  if (input.dims.length !== 4) throw new KernelError(op, node.index, `input must be 4-D (NHWC), got shape ${shape(input)}`);
  if (output.dims.length !== 4) throw new KernelError(op, node.index, `output must be 4-D (NHWC), got shape ${shape(output)}`);
  const { strideH: sH, strideW: sW, filterHeight: fH, filterWidth: fW } = params;
  if (!(sH >= 1 && sW >= 1)) throw new KernelError(op, node.index, `strides must be >= 1, got stride_h ${sH}, stride_w ${sW}`);
  if (!(fH >= 1 && fW >= 1)) throw new KernelError(op, node.index, `filter size must be >= 1, got ${fH}x${fW}`);
  if (params.padding !== Padding.SAME && params.padding !== Padding.VALID)
    throw new KernelError(op, node.index, `unsupported padding ${params.padding}`);
  const [batches, inH, inW, depth] = input.dims as unknown as number[];
  if (output.dims[0] !== batches || output.dims[3] !== depth)
    throw new KernelError(
      op,
      node.index,
      `output shape ${shape(output)} must keep the input's batch ${batches} and depth ${depth} (input ${shape(input)})`,
    );
  // As TFLM: the output size comes from the output tensor, the padding from the options.
  const padH = computePadding(sH, 1, inH!, fH, computeOutSize(params.padding, inH!, fH, sH, 1));
  const padW = computePadding(sW, 1, inW!, fW, computeOutSize(params.padding, inW!, fW, sW, 1));
  const outH = output.dims[1]!;
  const outW = output.dims[2]!;
  if (outH > 0 && outW > 0 && (fH - padH <= 0 || fW - padW <= 0 || (outH - 1) * sH - padH >= inH! || (outW - 1) * sW - padW >= inW!))
    throw new KernelError(
      op,
      node.index,
      `output ${outH}x${outW} with filter ${fH}x${fW}, stride ${sH}x${sW} and padding ${padH}x${padW} has a window entirely outside the ${inH}x${inW} input`,
    );
  if (!(Math.abs(input.params.scale - output.params.scale) <= 1.0e-6))
    throw new KernelError(op, node.index, `input scale ${input.params.scale} and output scale ${output.params.scale} must be equal`);
  if (input.params.zeroPoint !== output.params.zeroPoint)
    throw new KernelError(
      op,
      node.index,
      `input zero point ${input.params.zeroPoint} and output zero point ${output.params.zeroPoint} must be equal`,
    );
  const [actMin, actMax] = quantizedActivationRange(op, node, params.fusedActivationFunction, output);
  const region = context.allocatePersistentBuffer(POOL_PARAMS_BYTES);
  data.k = kernelsFor(op, node, region);
  const p = region.i32;
  p[Q.Batches] = batches!;
  p[Q.InH] = inH!;
  p[Q.InW] = inW!;
  p[Q.C] = depth!;
  p[Q.OutH] = outH;
  p[Q.OutW] = outW;
  p[Q.FH] = fH;
  p[Q.FW] = fW;
  p[Q.SH] = sH;
  p[Q.SW] = sW;
  p[Q.PadH] = padH;
  p[Q.PadW] = padW;
  p[Q.ActMin] = actMin;
  p[Q.ActMax] = actMax;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}
