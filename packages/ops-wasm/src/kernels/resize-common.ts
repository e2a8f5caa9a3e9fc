/**
 * What ops-wasm's RESIZE_BILINEAR (float32, int8, uint8) and RESIZE_NEAREST_NEIGHBOR kernels share: the
 * `supports()` checks, the prepare checks and output shape (as ops-reference's resize-common: a 4-D NHWC
 * input, a constant int32 `size` [new_height, new_width], an output [batch, new_height, new_width, depth]
 * of the input's type), and the per-axis tables their kernels read, computed with kernel-support's
 * TFLite coordinates (`interpolationValues`, `interpolationValuesInteger`, `nearestNeighbor`).
 */
import { KernelError, TensorType, tensorTypeName, type Node, type TfLiteContext } from '@micrort/core';
import {
  declineArity,
  declineType,
  interpolationValues,
  interpolationValuesInteger,
  nearestNeighbor,
  resizeScaleF32,
  resizeScaleInteger,
  setOutputShape,
} from '@micrort/kernel-support';

/** The options both resize ops have (ResizeBilinearOptions, ResizeNearestNeighborOptions). */
export interface ResizeOptions {
  alignCorners: boolean;
  halfPixelCenters: boolean;
}

/** The geometry of a resize node. */
export interface ResizeGeometry {
  batches: number;
  inH: number;
  inW: number;
  depth: number;
  outH: number;
  outW: number;
}

/** The node's options (both false when absent). */
export function resizeOptions(node: Node): ResizeOptions {
  const o = node.builtinData as Partial<ResizeOptions> | null;
  return { alignCorners: o?.alignCorners === true, halfPixelCenters: o?.halfPixelCenters === true };
}

/** Why a resize node is not handled for input types `types`, or null: arity, types, a constant int32 size pair, a 4-D input. */
export function declineResize(context: TfLiteContext, node: Node, types: readonly TensorType[]): string | null {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const why = declineType('input', input, types) ?? declineType('output', context.getTensor(node.outputs[0]!), [input.type]);
  if (why) return why;
  const size = context.getTensor(node.inputs[1]!);
  if (!size.isConstant || size.type !== TensorType.INT32 || size.elementCount !== 2) return 'size is not a constant int32 pair';
  if (input.dims.length !== 4) return `rank ${input.dims.length} input (handles 4-D)`;
  return null;
}

/** The prepare checks (KernelErrors naming what is wrong) and the output shape; returns the geometry. */
export function prepareResize(op: string, context: TfLiteContext, node: Node): ResizeGeometry {
  if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(op, node.index, 'expects 2 inputs and 1 output');
  const input = context.getTensor(node.inputs[0]!);
  const size = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.dims.length !== 4) throw new KernelError(op, node.index, `input must be 4-D (NHWC), got shape [${input.dims.join(', ')}]`);
  if (output.type !== input.type)
    throw new KernelError(
      op,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  if (!size.isConstant || size.type !== TensorType.INT32 || size.elementCount !== 2)
    throw new KernelError(op, node.index, `size (tensor ${size.index}) must be a constant int32 tensor of 2 values`);
  const [outH, outW] = size.data as Int32Array as unknown as [number, number];
  if (!(outH > 0 && outW > 0)) throw new KernelError(op, node.index, `size [${outH}, ${outW}] must be positive`);
  const [batches, inH, inW, depth] = input.dims as unknown as [number, number, number, number];
  setOutputShape(op, context, node, 0, [batches, outH, outW, depth]);
  return { batches, inH, inW, depth, outH, outW };
}

/**
 * One axis' bilinear table for the float32 and uint8 kernels, 16 bytes per output coordinate: the lower
 * and upper neighbours' byte offsets (`stride` bytes per input coordinate) and their float32 weights
 * `1 - fraction` and `fraction`, as TFLite computes them.
 */
export function bilinearTableF32(
  i32: Int32Array,
  f32: Float32Array,
  inSize: number,
  outSize: number,
  stride: number,
  o: ResizeOptions,
): void {
  const scale = resizeScaleF32(inSize, outSize, o.alignCorners);
  for (let i = 0; i < outSize; i++) {
    const [lower, upper, frac] = interpolationValues(i, scale, o.halfPixelCenters, inSize);
    i32[4 * i] = lower * stride;
    i32[4 * i + 1] = upper * stride;
    f32[4 * i + 2] = Math.fround(1 - frac);
    f32[4 * i + 3] = frac;
  }
}

/**
 * One axis' bilinear table for the int8 kernel (ResizeBilinearInteger), 16 bytes per output coordinate:
 * the neighbours' byte offsets and their 10-bit fixed-point weights `1024 - d` and `d`, d = scaled - 1024 * lower.
 */
export function bilinearTableInteger(i32: Int32Array, inSize: number, outSize: number, stride: number, o: ResizeOptions): void {
  const scale10 = resizeScaleInteger(inSize, outSize, o.alignCorners);
  for (let i = 0; i < outSize; i++) {
    const [scaled, lower, upper] = interpolationValuesInteger(i, scale10, o.halfPixelCenters, inSize);
    const d = scaled - 1024 * lower;
    i32[4 * i] = lower * stride;
    i32[4 * i + 1] = upper * stride;
    i32[4 * i + 2] = 1024 - d;
    i32[4 * i + 3] = d;
  }
}

/** The nearest-neighbour table of one axis: per output coordinate the source's byte offset (`stride` bytes per input coordinate). */
export function nearestTable(out: Int32Array, inSize: number, outSize: number, stride: number, o: ResizeOptions): void {
  for (let i = 0; i < outSize; i++) out[i] = nearestNeighbor(i, inSize, outSize, o.alignCorners, o.halfPixelCenters) * stride;
}
