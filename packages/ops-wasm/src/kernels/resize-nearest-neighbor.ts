/**
 * RESIZE_NEAREST_NEIGHBOR in WebAssembly: resize_nearest_bytes (assembly/layout/resize-nearest.ts) copies
 * every output pixel from the input pixel TFLite's reference_ops::ResizeNearestNeighbor picks, so it is
 * exact for every element type ops-reference takes (float32, int8, int16 as TFLM; uint8, int32, float16,
 * uint16, uint32 and bool as TFLite). The source row of every output row and the source column of every
 * output column are tables computed at prepare with TFLite's float32 arithmetic (kernel-support's
 * nearestNeighbor: align_corners rounds, half_pixel_centers offsets by half a pixel). Declines other
 * types and a size that is not a constant int32 pair.
 */
import { BuiltinOperator, TensorType, elementSize, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { RN, RN_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { declineResize, nearestTable, prepareResize, resizeOptions } from './resize-common.js';

const OP = 'RESIZE_NEAREST_NEIGHBOR';
/** ops-reference's types: the kernel copies their bytes. */
const TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.UINT8,
  TensorType.INT32,
  TensorType.FLOAT16,
  TensorType.UINT16,
  TensorType.UINT32,
  TensorType.BOOL,
];

interface ResizeData {
  k: KernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  return declineResize(context, node, TYPES) ?? true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as ResizeData;
  const o = resizeOptions(node);
  const g = prepareResize(OP, context, node);
  const size = elementSize(context.getTensor(node.inputs[0]!).type)!;
  const pixel = g.depth * size;
  const region = context.allocatePersistentBuffer(RN_BYTES);
  data.k = kernelsFor(OP, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  const rows = context.allocatePersistentBuffer(4 * g.outH);
  const cols = context.allocatePersistentBuffer(4 * g.outW);
  nearestTable(rows.i32, g.inH, g.outH, g.inW * pixel, o);
  nearestTable(cols.i32, g.inW, g.outW, pixel, o);
  const p = region.i32;
  p[RN.Batches] = g.batches;
  p[RN.OutH] = g.outH;
  p[RN.OutW] = g.outW;
  p[RN.PixelBytes] = pixel;
  p[RN.InImage] = g.inH * g.inW * pixel;
  p[RN.Rows] = rows.offset;
  p[RN.Cols] = cols.offset;
  data.params = region.offset;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as ResizeData;
  data.k!.resize_nearest_bytes(
    data.params,
    inputOffset(context, node, 0, data.input),
    context.getEvalTensor(node.outputs[0]!).data.byteOffset,
  );
}

/** The RESIZE_NEAREST_NEIGHBOR registration (every fixed-size type ops-reference takes). */
export function createResizeNearestNeighbor(): Registration<ResizeData> {
  return {
    builtinCode: BuiltinOperator.RESIZE_NEAREST_NEIGHBOR,
    version: 4,
    provider: PROVIDER,
    name: 'RESIZE_NEAREST_NEIGHBOR/wasm-bytes',
    supports,
    init: (): ResizeData => ({ k: null, params: 0, input: -1 }),
    prepare,
    invoke,
  };
}
