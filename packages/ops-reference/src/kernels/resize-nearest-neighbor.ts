/**
 * RESIZE_NEAREST_NEIGHBOR (TFLM kernels/resize_nearest_neighbor.cc, reference_ops::ResizeNearestNeighbor),
 * options align_corners and half_pixel_centers. The source row and column of every output row and column
 * are computed in prepare with TFLM's float32 arithmetic (GetNearestNeighbor: floor, or round half away
 * from zero with align_corners); invoke copies pixels. Types: float32, int8, int16 as TFLM, and uint8,
 * int32, float16, uint16, uint32 and bool as TFLite. TFLM keeps no op data.
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import type { Node, Registration, ResizeNearestNeighborOptions, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type ResizeGeometry, prepareResize } from './resize-common.js';
import { type NumberArray } from './transpose-common.js';
import { fillOpData, nearestNeighbor, newOpData, opData } from '@micrort/kernel-support';

const OP = 'RESIZE_NEAREST_NEIGHBOR';
const TYPES = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.UINT8,
  TensorType.INT32,
  TensorType.FLOAT16,
  TensorType.UINT16,
  TensorType.UINT32,
  TensorType.BOOL,
] as const;

/** Op data computed in prepare. */
interface ResizeNearestOpData extends ResizeGeometry {
  /** Element offset of the source row of each output row (within a batch). */
  rows: Int32Array;
  /** Element offset of the source pixel of each output column (within a row). */
  cols: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareResize(OP, context, node, TYPES);
  const options = (node.builtinData as ResizeNearestNeighborOptions | null) ?? { alignCorners: false, halfPixelCenters: false };
  const rows = new Int32Array(g.outHeight);
  const cols = new Int32Array(g.outWidth);
  for (let y = 0; y < g.outHeight; y++)
    rows[y] = nearestNeighbor(y, g.inHeight, g.outHeight, options.alignCorners, options.halfPixelCenters) * g.inWidth * g.depth;
  for (let x = 0; x < g.outWidth; x++)
    cols[x] = nearestNeighbor(x, g.inWidth, g.outWidth, options.alignCorners, options.halfPixelCenters) * g.depth;
  const d: ResizeNearestOpData = { ...g, rows, cols };
  fillOpData(OP, node, d);
}

function resizeNearest(d: ResizeNearestOpData, input: NumberArray, output: NumberArray): void {
  const { batches, inHeight, inWidth, depth, outHeight, outWidth, rows, cols } = d;
  const batchStride = inHeight * inWidth * depth;
  let o = 0;
  for (let b = 0; b < batches; b++)
    for (let y = 0; y < outHeight; y++) {
      const row = b * batchStride + rows[y]!;
      for (let x = 0; x < outWidth; x++) {
        let p = row + cols[x]!;
        for (let c = 0; c < depth; c++) output[o++] = input[p++]!;
      }
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ResizeNearestOpData>(OP, node);
  resizeNearest(
    d,
    context.getEvalTensor(node.inputs[0]!).data as unknown as NumberArray,
    context.getEvalTensor(node.outputs[0]!).data as unknown as NumberArray,
  );
}

/** RESIZE_NEAREST_NEIGHBOR registration (op versions 1..4). */
export const RESIZE_NEAREST_NEIGHBOR: Registration = {
  builtinCode: BuiltinOperator.RESIZE_NEAREST_NEIGHBOR,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
