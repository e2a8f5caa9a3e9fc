/**
 * RESIZE_BILINEAR, float32, in WebAssembly: f32_resize_bilinear (assembly/float/resize-bilinear.ts).
 * The neighbours and weights of every output row and column are computed at prepare with TFLite's
 * float32 arithmetic (reference_ops::ComputeInterpolationValues: align_corners, half_pixel_centers) into
 * tables in the arena; invoke blends four input pixels per output pixel, channels along the lanes.
 * Declines other types, a non-constant size and align_corners with half_pixel_centers.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  type Node,
  type Registration,
  type ResizeBilinearOptions,
  type TfLiteContext,
} from '@micrort/core';
import { R, R_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, shapeText, type FloatKernelExports } from './float-common.js';
import { declineArity } from '@micrort/kernel-support';

const OP = 'RESIZE_BILINEAR';
const f32 = Math.fround;

interface ResizeData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const why = declineNonFloat([input, context.getTensor(node.outputs[0]!)]);
  if (why) return why;
  const size = context.getTensor(node.inputs[1]!);
  if (!size.isConstant || size.type !== TensorType.INT32 || size.elementCount !== 2) return 'size is not a constant int32 pair';
  const o = node.builtinData as ResizeBilinearOptions | null;
  if (o && o.alignCorners && o.halfPixelCenters) return 'align_corners with half_pixel_centers';
  return true;
}

/**
 * Writes one axis' table: per output coordinate the lower and upper neighbours' byte offsets (`stride`
 * bytes apart) and their weights, as TFLite computes them in float32.
 */
function axisTable(
  words: Int32Array,
  floats: Float32Array,
  inSize: number,
  outSize: number,
  stride: number,
  o: ResizeBilinearOptions,
): void {
  const scale = o.alignCorners && outSize > 1 ? f32((inSize - 1) / (outSize - 1)) : f32(inSize / outSize);
  for (let i = 0; i < outSize; i++) {
    const scaled = o.halfPixelCenters ? f32(f32(f32(i + 0.5) * scale) - 0.5) : f32(i * scale);
    const lower = Math.max(Math.floor(scaled), 0);
    const upper = Math.min(Math.ceil(scaled), inSize - 1);
    const frac = f32(scaled - lower);
    words[4 * i] = lower * stride;
    words[4 * i + 1] = upper * stride;
    floats[4 * i + 2] = f32(1 - frac);
    floats[4 * i + 3] = frac;
  }
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as ResizeData;
  if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(OP, node.index, 'expects 2 inputs and 1 output');
  const input = context.getTensor(node.inputs[0]!);
  const size = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  const o = (node.builtinData as ResizeBilinearOptions | null) ?? { alignCorners: false, halfPixelCenters: false };
  if (o.alignCorners && o.halfPixelCenters)
    throw new KernelError(OP, node.index, 'If half_pixel_centers is True, align_corners must be False.');
  if (input.dims.length !== 4) throw new KernelError(OP, node.index, `input must be 4-D (NHWC), got shape ${shapeText(input)}`);
  if (!size.isConstant || size.type !== TensorType.INT32 || size.elementCount !== 2)
    throw new KernelError(OP, node.index, `size (tensor ${size.index}) must be a constant int32 tensor of 2 values`);
  const [outH, outW] = size.data as Int32Array;
  const [batches, inH, inW, depth] = input.dims as unknown as number[];
  if (!(outH! > 0 && outW! > 0)) throw new KernelError(OP, node.index, `size [${outH}, ${outW}] must be positive`);
  const d = output.dims;
  if (d.length !== 4 || d[0] !== batches || d[1] !== outH || d[2] !== outW || d[3] !== depth)
    throw new KernelError(OP, node.index, `output ${shapeText(output)} must be [${batches}, ${outH}, ${outW}, ${depth}]`);
  const region = context.allocatePersistentBuffer(R_BYTES);
  data.k = floatKernelsFor(OP, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  const ys = context.allocatePersistentBuffer(16 * outH!);
  const xs = context.allocatePersistentBuffer(16 * outW!);
  axisTable(ys.i32, ys.f32, inH!, outH!, inW! * depth! * 4, o);
  axisTable(xs.i32, xs.f32, inW!, outW!, depth! * 4, o);
  const p = region.i32;
  p[R.Batches] = batches!;
  p[R.OutH] = outH!;
  p[R.OutW] = outW!;
  p[R.C] = depth!;
  p[R.InImage] = inH! * inW! * depth! * 4;
  p[R.Y] = ys.offset;
  p[R.X] = xs.offset;
  data.params = region.offset;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as ResizeData;
  data.k!.f32_resize_bilinear(
    data.params,
    inputOffset(context, node, 0, data.input),
    context.getEvalTensor(node.outputs[0]!).data.byteOffset,
  );
}

/** The float32 RESIZE_BILINEAR registration. */
export function createResizeBilinearF32(): Registration<ResizeData> {
  return {
    builtinCode: BuiltinOperator.RESIZE_BILINEAR,
    version: 4,
    provider: PROVIDER,
    name: 'RESIZE_BILINEAR/wasm-f32',
    supports,
    init: (): ResizeData => ({ k: null, params: 0, input: -1 }),
    prepare,
    invoke,
  };
}
