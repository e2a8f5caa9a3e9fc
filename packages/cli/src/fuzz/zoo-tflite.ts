/**
 * Seeds for what TFLite runs and TFLM does not, and for custom ops: uint8 (TF1-style asymmetric
 * quantization), float16 weights behind DEQUANTIZE (constant: folded in prepare; graph input: converted
 * in invoke), sparse weights behind DENSIFY (CSR and block-sparse), RFFT2D + COMPLEX_ABS, TFLite_Detection_PostProcess (fast and regular NMS, FlexBuffers
 * options) and MediaPipe's custom ops (@micrort/ops-mediapipe, which the CLI's runtimes register).
 */
import { ActivationFunctionType, BuiltinOperator as Op, Padding, TensorType, type SparsityDef } from '@micrort/core';
import { poolOptions, transposeConvBiasOptions } from '@micrort/ops-mediapipe';
import { encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { Zoo, lcg } from './zoo-common.js';

/** A TF1-style quantized uint8 network and the other uint8 ops TFLite's reference kernels take. */
export function uint8Net(): Uint8Array {
  const z = new Zoo('uint8 (TF1-style quantization)');
  const x = z.u8('x', [1, 6, 6, 3], 0.0078125, 128);
  const w = z.u8('conv/w', [4, 3, 3, 3], 0.02, 121, lcg(108, 21, 0, 255));
  const bias = z.t({
    name: 'conv/b',
    type: TensorType.INT32,
    shape: [4],
    data: Int32Array.from([100, -200, 50, 0]),
    quantization: { scale: 0.0078125 * 0.02, zeroPoint: 0 },
  });
  const c = z.u8('conv', [1, 3, 3, 4], 0.0235294, 0);
  z.op(Op.CONV_2D, [x, w, bias], [c], {
    padding: Padding.SAME,
    strideW: 2,
    strideH: 2,
    fusedActivationFunction: ActivationFunctionType.RELU6,
  });
  const dw = z.u8('dw/w', [1, 3, 3, 4], 0.05, 130, lcg(36, 22, 0, 255));
  const db = z.t({
    name: 'dw/b',
    type: TensorType.INT32,
    shape: [4],
    data: Int32Array.from([7, -7, 70, 0]),
    quantization: { scale: 0.0235294 * 0.05, zeroPoint: 0 },
  });
  const d = z.u8('dw', [1, 3, 3, 4], 0.0235294, 0);
  z.op(Op.DEPTHWISE_CONV_2D, [c, dw, db], [d], {
    padding: Padding.SAME,
    strideW: 1,
    strideH: 1,
    depthMultiplier: 1,
    fusedActivationFunction: ActivationFunctionType.RELU6,
  });
  const ap = z.u8('avgpool', [1, 1, 1, 4], 0.0235294, 0);
  z.op(Op.AVERAGE_POOL_2D, [d], [ap], { padding: Padding.VALID, strideW: 3, strideH: 3, filterWidth: 3, filterHeight: 3 });
  const mp = z.u8('maxpool', [1, 2, 2, 4], 0.0235294, 0);
  z.op(Op.MAX_POOL_2D, [d], [mp], { padding: Padding.SAME, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2 });
  const flat = z.u8('flat', [1, 4], 0.0235294, 0);
  z.op(Op.RESHAPE, [ap, z.i32('reshape/shape', [1, 4])], [flat], { newShape: Int32Array.of(1, 4) });
  const fw = z.u8('fc/w', [5, 4], 0.015, 119, lcg(20, 23, 0, 255));
  const fb = z.t({
    name: 'fc/b',
    type: TensorType.INT32,
    shape: [5],
    data: Int32Array.from([10, 20, -30, 0, 5]),
    quantization: { scale: 0.0235294 * 0.015, zeroPoint: 0 },
  });
  const logits = z.u8('logits', [1, 5], 0.1, 128);
  z.op(Op.FULLY_CONNECTED, [flat, fw, fb], [logits]);
  const probs = z.u8('softmax', [1, 5], 1 / 256, 0);
  z.op(Op.SOFTMAX, [logits], [probs], { beta: 1 });
  // elementwise and data ops
  const add = z.u8('add', [1, 3, 3, 4], 0.05, 10);
  z.op(Op.ADD, [c, d], [add]);
  const mul = z.u8('mul', [1, 3, 3, 4], 0.002, 0);
  z.op(Op.MUL, [c, d], [mul]);
  const lg = z.u8('logistic', [1, 3, 3, 4], 1 / 256, 0);
  z.op(Op.LOGISTIC, [add], [lg]);
  const th = z.u8('tanh', [1, 3, 3, 4], 1 / 128, 128);
  z.op(Op.TANH, [add], [th]);
  const cat = z.u8('concat', [1, 3, 3, 8], 0.01, 128);
  z.op(Op.CONCATENATION, [lg, th], [cat], { axis: 3 });
  const pad = z.u8('pad', [1, 5, 5, 8], 0.01, 128);
  z.op(Op.PAD, [cat, z.i32('pad/paddings', [0, 0, 1, 1, 1, 1, 0, 0], [4, 2])], [pad]);
  const mean = z.u8('mean', [1, 1, 1, 8], 0.01, 128);
  z.op(Op.MEAN, [pad, z.i32('mean/axes', [1, 2])], [mean], { keepDims: true });
  const rn = z.u8('resize_nearest', [1, 6, 6, 4], 0.0235294, 0);
  z.op(Op.RESIZE_NEAREST_NEIGHBOR, [c, z.i32('rn/size', [6, 6])], [rn], { alignCorners: false, halfPixelCenters: false });
  const rb = z.u8('resize_bilinear', [1, 5, 5, 4], 0.0235294, 0);
  z.op(Op.RESIZE_BILINEAR, [c, z.i32('rb/size', [5, 5])], [rb], { alignCorners: false, halfPixelCenters: true }, 3);
  const dq = z.f32('dequantize', [1, 1, 1, 8]);
  z.op(Op.DEQUANTIZE, [mean], [dq]);
  const rq = z.i8('requantize_int8', [1, 5], 1 / 256, -128);
  z.op(Op.QUANTIZE, [probs], [rq]);
  return z.build([x], [probs, rq, dq, mul, rn, rb]);
}

/** IEEE half-precision bits of `v` (rounding half up; the constants here are exact in half precision). */
function toHalf(v: number): number {
  const f = new Float32Array([v]);
  const u = new Uint32Array(f.buffer)[0]!;
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  let mant = u & 0x7fffff;
  if (exp <= 0) return sign; // tiny values flush to zero (the seeds hold none)
  if (exp >= 31) return sign | 0x7c00;
  mant += 0x1000; // round
  if (mant & 0x800000) return exp + 1 >= 31 ? sign | 0x7c00 : sign | ((exp + 1) << 10);
  return sign | (exp << 10) | (mant >>> 13);
}

/** float16 weights: constant → DEQUANTIZE → CONV_2D / FULLY_CONNECTED (folded), and a float16 graph input → DEQUANTIZE (at invoke). */
export function float16Net(): Uint8Array {
  const z = new Zoo('float16 weights and DEQUANTIZE');
  const half = (name: string, shape: number[], values: number[]) =>
    z.t({ name, type: TensorType.FLOAT16, shape, data: Uint16Array.from(values.map(toHalf)) });
  const x = z.f32('x', [1, 5, 5, 2]);
  const w16 = half(
    'conv/w16',
    [3, 3, 3, 2],
    lcg(54, 24, -16, 16).map((v) => v / 32),
  );
  const w = z.f32('conv/w', [3, 3, 3, 2]);
  z.op(Op.DEQUANTIZE, [w16], [w], undefined, 3);
  const b16 = half('conv/b16', [3], [0.5, -0.25, 0.125]);
  const b = z.f32('conv/b', [3]);
  z.op(Op.DEQUANTIZE, [b16], [b], undefined, 3);
  const c = z.f32('conv', [1, 5, 5, 3]);
  z.op(Op.CONV_2D, [x, w, b], [c], { padding: Padding.SAME, strideW: 1, strideH: 1, fusedActivationFunction: ActivationFunctionType.RELU });
  const fw16 = half(
    'fc/w16',
    [4, 75],
    lcg(300, 25, -16, 16).map((v) => v / 64),
  );
  const fw = z.f32('fc/w', [4, 75]);
  z.op(Op.DEQUANTIZE, [fw16], [fw], undefined, 3);
  const flat = z.f32('flat', [1, 75]);
  z.op(Op.RESHAPE, [c, z.i32('reshape/shape', [1, 75])], [flat], { newShape: Int32Array.of(1, 75) });
  const y = z.f32('fc', [1, 4]);
  z.op(Op.FULLY_CONNECTED, [flat, fw, -1], [y]);
  const h = z.t({ name: 'h16', type: TensorType.FLOAT16, shape: [2, 4] });
  const hf = z.f32('h', [2, 4]);
  z.op(Op.DEQUANTIZE, [h], [hf], undefined, 3);
  return z.build([x, h], [y, hf]);
}

/**
 * CSR sparsity of a 2-D [rows, cols] constant, rows dense and columns sparse: `keep(r, c)` says which
 * entries are stored (the converter stores the non-zero ones); returns the metadata and the stored values.
 */
function csr(
  rows: number,
  cols: number,
  dense: number[],
  keep: (r: number, c: number) => boolean,
): { sparsity: SparsityDef; values: number[] } {
  const segments = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!keep(r, c)) continue;
      indices.push(c);
      values.push(dense[r * cols + c]!);
    }
    segments.push(indices.length);
  }
  return {
    values,
    sparsity: {
      traversalOrder: Int32Array.of(0, 1),
      blockMap: new Int32Array(0),
      dimMetadata: [
        { format: 'dense', denseSize: rows, arraySegments: null, arrayIndices: null },
        {
          format: 'sparseCsr',
          denseSize: 0,
          arraySegments: { type: 'int32', values: Int32Array.from(segments) },
          arrayIndices: { type: 'int32', values: Int32Array.from(indices) },
        },
      ],
    },
  };
}

/** Sparse constants densified once in prepare: float32 CSR FULLY_CONNECTED weights, int8 1x4-block weights, float16 CSR behind DEQUANTIZE. */
export function sparseNet(): Uint8Array {
  const z = new Zoo('sparse weights and DENSIFY');
  const x = z.f32('x', [1, 8]);
  const dense = lcg(32, 27, -8, 8).map((v) => v / 8);
  const w = csr(4, 8, dense, (r, c) => (r + c) % 3 !== 0);
  const ws = z.t({ name: 'fc/w_sparse', type: TensorType.FLOAT32, shape: [4, 8], data: Float32Array.from(w.values), sparsity: w.sparsity });
  const wd = z.f32('fc/w', [4, 8]);
  z.op(Op.DENSIFY, [ws], [wd]);
  const y = z.f32('fc', [1, 4]);
  z.op(Op.FULLY_CONNECTED, [x, wd, -1], [y]);
  // int8 weights in 1x4 blocks (TFLite's sparse FULLY_CONNECTED layout): rows dense, column blocks sparse, block dense
  const x8 = z.i8('x8', [1, 8], 0.05, 0);
  const blocks = [[0, 1], [1], [], [0]]; // kept column blocks per row
  const v8: number[] = [];
  const seg = [0];
  const idx: number[] = [];
  blocks.forEach((bs, r) => {
    for (const b of bs) {
      idx.push(b);
      for (let k = 0; k < 4; k++) v8.push((((r * 8 + b * 4 + k) * 37) % 255) - 127);
    }
    seg.push(idx.length);
  });
  const sparsity8: SparsityDef = {
    traversalOrder: Int32Array.of(0, 1, 2),
    blockMap: Int32Array.of(1),
    dimMetadata: [
      { format: 'dense', denseSize: 4, arraySegments: null, arrayIndices: null },
      {
        format: 'sparseCsr',
        denseSize: 0,
        arraySegments: { type: 'int32', values: Int32Array.from(seg) },
        arrayIndices: { type: 'int32', values: Int32Array.from(idx) },
      },
      { format: 'dense', denseSize: 4, arraySegments: null, arrayIndices: null },
    ],
  };
  const w8s = z.t({
    name: 'fc8/w_sparse',
    type: TensorType.INT8,
    shape: [4, 8],
    data: Int8Array.from(v8),
    sparsity: sparsity8,
    quantization: { scale: 0.02, zeroPoint: 0 },
  });
  const w8 = z.i8('fc8/w', [4, 8], 0.02, 0);
  z.op(Op.DENSIFY, [w8s], [w8]);
  const y8 = z.i8('fc8', [1, 4], 0.1, 0);
  z.op(Op.FULLY_CONNECTED, [x8, w8, -1], [y8]);
  // float16 CSR → DENSIFY → DEQUANTIZE → ADD
  const h = csr(2, 4, [1, 0, -2, 0.5, 0, 0.25, 0, -1], (r, c) => [1, 0, -2, 0.5, 0, 0.25, 0, -1][r * 4 + c] !== 0);
  const hs = z.t({
    name: 'h16_sparse',
    type: TensorType.FLOAT16,
    shape: [2, 4],
    data: Uint16Array.from(h.values.map(toHalf)),
    sparsity: h.sparsity,
  });
  const hd = z.t({ name: 'h16', type: TensorType.FLOAT16, shape: [2, 4] });
  z.op(Op.DENSIFY, [hs], [hd]);
  const hf = z.f32('h', [2, 4]);
  z.op(Op.DEQUANTIZE, [hd], [hf], undefined, 3);
  const a = z.f32('a', [2, 4]);
  const sum = z.f32('sum', [2, 4]);
  z.op(Op.ADD, [a, hf], [sum]);
  return z.build([x, x8, a], [y, y8, sum]);
}

/** float32 [4,8] → RFFT2D (fft_length [4,8]) → complex64 [4,5] → COMPLEX_ABS; and a padded/cropped fft_length. */
export function complexNet(): Uint8Array {
  const z = new Zoo('RFFT2D and COMPLEX_ABS');
  const x = z.f32('x', [2, 4, 8]);
  const spec = z.t({ name: 'spectrum', type: TensorType.COMPLEX64, shape: [2, 4, 5] });
  z.op(Op.RFFT2D, [x, z.i32('fft_length', [4, 8])], [spec]);
  const mag = z.f32('magnitude', [2, 4, 5]);
  z.op(Op.COMPLEX_ABS, [spec], [mag]);
  const spec2 = z.t({ name: 'spectrum_padded', type: TensorType.COMPLEX64, shape: [2, 2, 9] });
  z.op(Op.RFFT2D, [x, z.i32('fft_length2', [2, 16])], [spec2]);
  const mag2 = z.f32('magnitude_padded', [2, 2, 9]);
  z.op(Op.COMPLEX_ABS, [spec2], [mag2]);
  return z.build([x], [mag, mag2]);
}

/** TFLite_Detection_PostProcess with fast NMS and with regular NMS on the same boxes, scores and anchors. */
export function detectionNet(): Uint8Array {
  const z = new Zoo('TFLite_Detection_PostProcess');
  const boxes = z.f32('boxes', [1, 12, 4]);
  const scores = z.f32('scores', [1, 12, 3]);
  const anchors = z.f32(
    'anchors',
    [12, 4],
    Array.from({ length: 12 }, (_, i) => [0.1 + 0.07 * i, 0.9 - 0.06 * i, 0.2 + (i % 3) * 0.1, 0.3 + (i % 4) * 0.05]).flat(),
  );
  const base = {
    max_detections: 4,
    max_classes_per_detection: 1,
    detections_per_class: 2,
    nms_score_threshold: 0.25,
    nms_iou_threshold: 0.5,
    num_classes: 2,
    y_scale: 10,
    x_scale: 10,
    h_scale: 5,
    w_scale: 5,
  };
  const outs: number[] = [];
  for (const regular of [false, true]) {
    const tag = regular ? 'regular' : 'fast';
    const o = [
      z.f32(`${tag}/boxes`, [1, 4, 4]),
      z.f32(`${tag}/classes`, [1, 4]),
      z.f32(`${tag}/scores`, [1, 4]),
      z.f32(`${tag}/count`, [1]),
    ];
    z.custom('TFLite_Detection_PostProcess', [boxes, scores, anchors], o, flexEncode({ ...base, use_regular_nms: regular }));
    outs.push(...o);
  }
  return z.build([boxes, scores], outs);
}

/** MediaPipe's segmentation-decoder ops: MaxPoolingWithArgmax2D → MaxUnpooling2D, Convolution2DTransposeBias. */
export function mediapipeNet(): Uint8Array {
  const z = new Zoo('MediaPipe custom ops');
  const image = z.f32('image', [1, 8, 8, 2]);
  const pooled = z.f32('pooled', [1, 4, 4, 2]);
  const argmax = z.f32('argmax', [1, 4, 4, 2]);
  const unpooled = z.f32('unpooled', [1, 8, 8, 2]);
  const pool = poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 });
  z.custom('MaxPoolingWithArgmax2D', [image], [pooled, argmax], pool);
  z.custom('MaxUnpooling2D', [pooled, argmax], [unpooled], pool);
  const w = z.f32(
    'weights',
    [3, 2, 2, 2],
    lcg(24, 26, -8, 8).map((v) => v / 16),
  );
  const bias = z.f32('bias', [3], [0.25, -0.5, 1]);
  const up = z.f32('up', [1, 8, 8, 3]);
  z.custom('Convolution2DTransposeBias', [pooled, w, bias], [up], transposeConvBiasOptions('SAME', 2, 2));
  return z.build([image], [unpooled, up]);
}
