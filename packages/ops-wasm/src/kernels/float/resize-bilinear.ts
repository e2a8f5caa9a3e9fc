/**
 * RESIZE_BILINEAR, float32, in WebAssembly: f32_resize_bilinear (assembly/float/resize-bilinear.ts).
 * The neighbours and weights of every output row and column are computed at prepare with TFLite's
 * float32 arithmetic (kernel-support's interpolationValues: align_corners, half_pixel_centers) into
 * tables in the arena (../resize-common.ts); invoke blends four input pixels per output pixel, channels
 * along the lanes. Declines other types, a non-constant size and align_corners with half_pixel_centers.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { R, R_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { bilinearTableF32, declineResize, prepareResize, resizeOptions } from '../resize-common.js';
import { floatKernelsFor, type FloatKernelExports } from './float-common.js';
import { FLOAT32_ONLY } from '@micrort/kernel-support';

const OP = 'RESIZE_BILINEAR';

interface ResizeData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const why = declineResize(context, node, FLOAT32_ONLY);
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
  const region = context.allocatePersistentBuffer(R_BYTES);
  data.k = floatKernelsFor(OP, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  const ys = context.allocatePersistentBuffer(16 * g.outH);
  const xs = context.allocatePersistentBuffer(16 * g.outW);
  bilinearTableF32(ys.i32, ys.f32, g.inH, g.outH, g.inW * g.depth * 4, o);
  bilinearTableF32(xs.i32, xs.f32, g.inW, g.outW, g.depth * 4, o);
  const p = region.i32;
  p[R.Batches] = g.batches;
  p[R.OutH] = g.outH;
  p[R.OutW] = g.outW;
  p[R.C] = g.depth;
  p[R.InImage] = g.inH * g.inW * g.depth * 4;
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
