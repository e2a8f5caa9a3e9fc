/**
 * RESIZE_BILINEAR of int8, TFLite's int16 and uint8 in WebAssembly (assembly/int8/resize.ts), byte-equal
 * with ops-reference (TFLM / TFLite's reference kernels): int8 and int16 are
 * reference_ops::ResizeBilinearInteger (qs8_resize_bilinear, qs16_resize_bilinear: 10-bit fixed-point
 * weights, the blend rounded half away from zero by 2^20; int16's 37-bit sums in exact int32 pieces),
 * uint8 TFLite's float32 blend (qu8_resize_bilinear: float32 weights, `+ 0.5` and truncation). The
 * neighbours and weights of every output row and column are tables computed at prepare
 * (./resize-common.ts with kernel-support's TFLite coordinates); options align_corners and
 * half_pixel_centers (not both, as TFLite). The values pass unchanged in their quantization (TFLite does
 * not requantize). Declines other types and a size that is not a constant int32 pair.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { R, R_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { bilinearTableF32, bilinearTableInteger, declineResize, prepareResize, resizeOptions } from './resize-common.js';

const OP = 'RESIZE_BILINEAR';
const TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8, TensorType.INT16];

interface ResizeData {
  k: KernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
  type: TensorType;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const why = declineResize(context, node, TYPES);
  if (why) return why;
  const o = resizeOptions(node);
  if (o.alignCorners && o.halfPixelCenters) return 'align_corners with half_pixel_centers';
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as ResizeData;
  const o = resizeOptions(node);
  if (o.alignCorners && o.halfPixelCenters)
    throw new KernelError(OP, node.index, 'If half_pixel_centers is True, align_corners must be False.');
  const g = prepareResize(OP, context, node);
  const type = context.getTensor(node.inputs[0]!).type;
  const uint8 = type === TensorType.UINT8;
  const bytes = type === TensorType.INT16 ? 2 : 1;
  const region = context.allocatePersistentBuffer(R_BYTES);
  data.k = kernelsFor(OP, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  data.type = type;
  const ys = context.allocatePersistentBuffer(16 * g.outH);
  const xs = context.allocatePersistentBuffer(16 * g.outW);
  if (uint8) {
    bilinearTableF32(ys.i32, ys.f32, g.inH, g.outH, g.inW * g.depth, o);
    bilinearTableF32(xs.i32, xs.f32, g.inW, g.outW, g.depth, o);
  } else {
    bilinearTableInteger(ys.i32, g.inH, g.outH, g.inW * g.depth * bytes, o);
    bilinearTableInteger(xs.i32, g.inW, g.outW, g.depth * bytes, o);
  }
  const p = region.i32;
  p[R.Batches] = g.batches;
  p[R.OutH] = g.outH;
  p[R.OutW] = g.outW;
  p[R.C] = g.depth;
  p[R.InImage] = g.inH * g.inW * g.depth * bytes;
  p[R.Y] = ys.offset;
  p[R.X] = xs.offset;
  data.params = region.offset;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as ResizeData;
  const input = inputOffset(context, node, 0, data.input);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  if (data.type === TensorType.UINT8) data.k!.qu8_resize_bilinear(data.params, input, output);
  else if (data.type === TensorType.INT16) data.k!.qs16_resize_bilinear(data.params, input, output);
  else data.k!.qs8_resize_bilinear(data.params, input, output);
}

/** The int8 / int16 / uint8 RESIZE_BILINEAR registration. */
export function createResizeBilinear(): Registration<ResizeData> {
  return {
    builtinCode: BuiltinOperator.RESIZE_BILINEAR,
    version: 4,
    provider: PROVIDER,
    name: 'RESIZE_BILINEAR/wasm-q8',
    supports,
    init: (): ResizeData => ({ k: null, params: 0, input: -1, type: TensorType.INT8 }),
    prepare,
    invoke,
  };
}
