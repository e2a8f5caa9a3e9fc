/**
 * RESIZE_BILINEAR (TFLM kernels/resize_bilinear.cc; reference_ops::ResizeBilinear for float32,
 * ResizeBilinearInteger for int8), options align_corners and half_pixel_centers (not both; op versions
 * 1..4). The source coordinates, neighbours and weights of every output row and column are computed in
 * prepare with TFLM's arithmetic — float32 for the float kernel (so the chosen neighbours are TFLM's to the
 * bit), 10-bit fixed point for int8 — and invoke runs one blend per element over them.
 *
 * float32 is bit-exact with TFLM: each neighbour times its row weight, times its column weight, and the four
 * products summed left to right, every step rounded to float32 as the C++ `float` expression is (see
 * `resizeFloat`). int8 is bit-exact: 20-bit fixed-point
 * blend, rounded half away from zero (TFLITE_SINGLE_ROUNDING is not set in the reference build). int16
 * (TFLite only: TFLM refuses it) runs TFLite's same ResizeBilinearInteger template, whose int64 sums stay
 * exact in double; TFLM keeps no op data. uint8 (TFLite only) blends in float32 with TFLite's rounding
 * offset (see `resizeUint8`).
 */
import { BuiltinOperator, KernelError, TensorType } from '@micrort/core';
import type { Node, Registration, ResizeBilinearOptions, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type ResizeGeometry, prepareResize } from './resize-common.js';
import {
  fillOpData,
  interpolationValues,
  interpolationValuesInteger,
  newOpData,
  opData,
  resizeScaleF32,
  resizeScaleInteger,
} from '@micrort/kernel-support';

const OP = 'RESIZE_BILINEAR';
const TYPES = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8, TensorType.INT16] as const;
const f32 = Math.fround;

/** Per output row (y) and column (x): the two neighbours and their weights. */
interface ResizeBilinearOpData extends ResizeGeometry {
  /** First element of the lower/upper neighbour row, relative to the batch start. */
  yLo: Int32Array;
  yHi: Int32Array;
  /** First element of the left/right neighbour pixel within a row. */
  xLo: Int32Array;
  xHi: Int32Array;
  /** float32: weights of the lower/upper and left/right neighbours; int8: 10-bit fixed-point weights. */
  wyLo: Float64Array;
  wyHi: Float64Array;
  wxLo: Float64Array;
  wxHi: Float64Array;
}

/** Fills one axis' tables (rows: stride = width * depth; columns: stride = depth). */
function axisTables(
  g: ResizeGeometry,
  inSize: number,
  outSize: number,
  stride: number,
  options: ResizeBilinearOptions,
  lo: Int32Array,
  hi: Int32Array,
  wLo: Float64Array,
  wHi: Float64Array,
): void {
  if (g.type === TensorType.FLOAT32 || g.type === TensorType.UINT8) {
    const scale = resizeScaleF32(inSize, outSize, options.alignCorners);
    for (let i = 0; i < outSize; i++) {
      const [l, u, frac] = interpolationValues(i, scale, options.halfPixelCenters, inSize);
      lo[i] = l * stride;
      hi[i] = u * stride;
      wHi[i] = frac;
      wLo[i] = f32(1 - frac);
    }
  } else {
    const scale10 = resizeScaleInteger(inSize, outSize, options.alignCorners);
    for (let i = 0; i < outSize; i++) {
      const [scaled, l, u] = interpolationValuesInteger(i, scale10, options.halfPixelCenters, inSize);
      lo[i] = l * stride;
      hi[i] = u * stride;
      wHi[i] = scaled - 1024 * l;
      wLo[i] = 1024 - (scaled - 1024 * l);
    }
  }
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareResize(OP, context, node, TYPES);
  const options = (node.builtinData as ResizeBilinearOptions | null) ?? { alignCorners: false, halfPixelCenters: false };
  if (options.alignCorners && options.halfPixelCenters)
    throw new KernelError(OP, node.index, 'If half_pixel_centers is True, align_corners must be False.');
  const d: ResizeBilinearOpData = {
    ...g,
    yLo: new Int32Array(g.outHeight),
    yHi: new Int32Array(g.outHeight),
    xLo: new Int32Array(g.outWidth),
    xHi: new Int32Array(g.outWidth),
    wyLo: new Float64Array(g.outHeight),
    wyHi: new Float64Array(g.outHeight),
    wxLo: new Float64Array(g.outWidth),
    wxHi: new Float64Array(g.outWidth),
  };
  axisTables(g, g.inHeight, g.outHeight, g.inWidth * g.depth, options, d.yLo, d.yHi, d.wyLo, d.wyHi);
  axisTables(g, g.inWidth, g.outWidth, g.depth, options, d.xLo, d.xHi, d.wxLo, d.wxHi);
  fillOpData(OP, node, d);
}

/**
 * float32 as reference_ops::ResizeBilinear evaluates it:
 * `(((x00 * wyLo) * wxLo + (x10 * wyHi) * wxLo) + (x01 * wyLo) * wxHi) + (x11 * wyHi) * wxHi + 0.0f`, each
 * product and sum rounded to float32 (a product or sum of two float32 values computed in double and then
 * rounded is the correctly rounded float32 result, so this is TFLM's arithmetic to the bit). The final
 * `+ 0` is the reference's `rounding_offset` for float, which turns a -0 sum into +0.
 */
function resizeFloat(d: ResizeBilinearOpData, input: Float32Array, output: Float32Array): void {
  const { batches, inHeight, inWidth, depth, outHeight, outWidth } = d;
  const batchStride = inHeight * inWidth * depth;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    const batchBase = b * batchStride;
    for (let y = 0; y < outHeight; y++) {
      const rowLo = batchBase + d.yLo[y]!;
      const rowHi = batchBase + d.yHi[y]!;
      const wyLo = d.wyLo[y]!;
      const wyHi = d.wyHi[y]!;
      for (let x = 0; x < outWidth; x++) {
        const wxLo = d.wxLo[x]!;
        const wxHi = d.wxHi[x]!;
        const p00 = rowLo + d.xLo[x]!,
          p10 = rowHi + d.xLo[x]!,
          p01 = rowLo + d.xHi[x]!,
          p11 = rowHi + d.xHi[x]!;
        for (let c = 0; c < depth; c++) {
          const t00 = f32(f32(input[p00 + c]! * wyLo) * wxLo);
          const t10 = f32(f32(input[p10 + c]! * wyHi) * wxLo);
          const t01 = f32(f32(input[p01 + c]! * wyLo) * wxHi);
          const t11 = f32(f32(input[p11 + c]! * wyHi) * wxHi);
          output[o++] = f32(f32(f32(t00 + t10) + t01) + t11) + 0;
        }
      }
    }
  }
}

const ROUND_20 = 1 << 19;
const ONE_20 = 1 << 20;

/** ResizeBilinearInteger for int8 and int16 (the 20-bit products stay below 2^37: exact in double). */
function resizeInteger(d: ResizeBilinearOpData, input: Int8Array | Int16Array, output: Int8Array | Int16Array): void {
  const { batches, inHeight, inWidth, depth, outHeight, outWidth } = d;
  const batchStride = inHeight * inWidth * depth;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    const batchBase = b * batchStride;
    for (let y = 0; y < outHeight; y++) {
      const rowLo = batchBase + d.yLo[y]!;
      const rowHi = batchBase + d.yHi[y]!;
      const wyLo = d.wyLo[y]!;
      const wyHi = d.wyHi[y]!;
      for (let x = 0; x < outWidth; x++) {
        const xLo = d.xLo[x]!;
        const xHi = d.xHi[x]!;
        const wxLo = d.wxLo[x]!;
        const wxHi = d.wxHi[x]!;
        const p00 = rowLo + xLo,
          p10 = rowHi + xLo,
          p01 = rowLo + xHi,
          p11 = rowHi + xHi;
        for (let c = 0; c < depth; c++) {
          // Every product is an exact integer below 2^35 in magnitude, so double arithmetic is exact (C: int64).
          const v =
            input[p00 + c]! * wyLo * wxLo + input[p10 + c]! * wyHi * wxLo + input[p01 + c]! * wyLo * wxHi + input[p11 + c]! * wyHi * wxHi;
          output[o++] = Math.trunc((v + (v > 0 ? ROUND_20 : -ROUND_20)) / ONE_20);
        }
      }
    }
  }
}

/**
 * uint8 as TFLite runs it (ResizeBilinearGenericSmallChannel<uint8>, which TFLite's reference template
 * also follows with its rounding offset): the four weights (1 - dy)(1 - dx), (1 - dy)dx, dy(1 - dx), dy dx
 * as float32 products, then x00 w0 + x01 w1 + x10 w2 + x11 w3 + 0.5 in float32, left to right, truncated.
 */
function resizeUint8(d: ResizeBilinearOpData, input: Uint8Array, output: Uint8Array): void {
  const { batches, inHeight, inWidth, depth, outHeight, outWidth } = d;
  const batchStride = inHeight * inWidth * depth;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    const batchBase = b * batchStride;
    for (let y = 0; y < outHeight; y++) {
      const rowLo = batchBase + d.yLo[y]!;
      const rowHi = batchBase + d.yHi[y]!;
      const wyLo = d.wyLo[y]!;
      const wyHi = d.wyHi[y]!;
      for (let x = 0; x < outWidth; x++) {
        const xLo = d.xLo[x]!;
        const xHi = d.xHi[x]!;
        const w0 = f32(wyLo * d.wxLo[x]!);
        const w1 = f32(wyLo * d.wxHi[x]!);
        const w2 = f32(wyHi * d.wxLo[x]!);
        const w3 = f32(wyHi * d.wxHi[x]!);
        const p00 = rowLo + xLo,
          p01 = rowLo + xHi,
          p10 = rowHi + xLo,
          p11 = rowHi + xHi;
        for (let c = 0; c < depth; c++) {
          let v = f32(f32(input[p00 + c]! * w0) + f32(input[p01 + c]! * w1));
          v = f32(v + f32(input[p10 + c]! * w2));
          v = f32(v + f32(input[p11 + c]! * w3));
          v = f32(v + 0.5);
          output[o++] = v <= 0 ? 0 : v >= 255 ? 255 : v | 0;
        }
      }
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ResizeBilinearOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  if (d.type === TensorType.FLOAT32) resizeFloat(d, input as Float32Array, output as Float32Array);
  else if (d.type === TensorType.UINT8) resizeUint8(d, input as Uint8Array, output as Uint8Array);
  else resizeInteger(d, input as Int8Array | Int16Array, output as Int8Array | Int16Array);
}

/** RESIZE_BILINEAR registration: float32, int8, uint8, int16 (op versions 1..4). */
export const RESIZE_BILINEAR: Registration = {
  builtinCode: BuiltinOperator.RESIZE_BILINEAR,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
