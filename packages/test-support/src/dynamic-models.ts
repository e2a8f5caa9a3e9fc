/**
 * Converter-shaped models with shapes the file does not know, written with `ModelBuilder` the way the
 * TFLite converter writes them: dynamic dimensions stored as placeholder 1s under a `shape_signature`
 * -1, outputs left with an empty shape for TFLite's Prepare to size, and the small shape subgraphs
 * (SHAPE → STRIDED_SLICE → arithmetic → PACK) that compute paddings, crops and target shapes from an
 * input's shape at run time. Each takes the input shape to store, so a test can hand TFLite (which
 * cannot be resized through the oracle) the same model at the shape micrort was resized to.
 */
import { BuiltinOperator, ModelBuilder, Padding, TensorType } from '@micrort/core';
import { flexMap } from './flexbuffers.js';

const F = TensorType.FLOAT32;
const I = TensorType.INT32;
/** ShapeOptions { out_type: INT32 } (slot 0). */
const SHAPE_INT32 = [{ id: 0, type: 'int8' as const, value: TensorType.INT32 }];

/** Deterministic values in [-1, 1). */
function values(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 4294967296) * 2 - 1;
  }
  return out;
}

/** Helpers over one ModelBuilder. */
class Graph {
  readonly b = new ModelBuilder();
  /** An activation: `shape` stored, `signature` its shape_signature (-1: dynamic), if any. */
  act(name: string, shape: number[], signature?: number[], type = F): number {
    return this.b.addTensor({ name, type, shape, ...(signature ? { shapeSignature: signature } : {}) });
  }
  i32(name: string, data: number[], shape = [data.length]): number {
    return this.b.addTensor({ name, type: I, shape, data: Int32Array.from(data) });
  }
  f32(name: string, shape: number[], data: Float32Array): number {
    return this.b.addTensor({ name, type: F, shape, data });
  }
  /** SHAPE(x) as an int32 [rank] tensor. */
  shape(name: string, x: number, rank: number): number {
    const s = this.act(name, [rank], undefined, I);
    this.b.addOperator({ op: BuiltinOperator.SHAPE, inputs: [x], outputs: [s], rawOptions: SHAPE_INT32 });
    return s;
  }
  /** shape[begin:end] as int32 (STRIDED_SLICE with constant begin/end/strides). */
  slice(name: string, s: number, begin: number, end: number, shrink = false): number {
    const out = this.act(name, shrink ? [] : [end - begin], undefined, I);
    const bt = this.i32(`${name}/begin`, [begin]);
    const et = this.i32(`${name}/end`, [end]);
    const st = this.i32(`${name}/strides`, [1]);
    this.b.addOperator({
      op: BuiltinOperator.STRIDED_SLICE,
      inputs: [s, bt, et, st],
      outputs: [out],
      options: { shrinkAxisMask: shrink ? 1 : 0 },
    });
    return out;
  }
  binary(op: BuiltinOperator, name: string, a: number, c: number, shape: number[], type = I): number {
    const out = this.act(name, shape, undefined, type);
    this.b.addOperator({ op, inputs: [a, c], outputs: [out] });
    return out;
  }
  pack(name: string, items: number[], axis: number, shape: number[]): number {
    const out = this.act(name, shape, undefined, I);
    this.b.addOperator({ op: BuiltinOperator.PACK, inputs: items, outputs: [out], options: { valuesCount: items.length, axis } });
    return out;
  }
}

/**
 * A dilated 3×3 convolution (dilation 2, VALID) as the converter writes it when the input's height and
 * width are dynamic: SPACE_TO_BATCH_ND → CONV_2D → BATCH_TO_SPACE_ND, with the paddings and crops
 * computed from SHAPE(x) at run time — `pad_end = ceil(hw / 2) × 2 − hw` through int32 ADD, DIV, MUL,
 * SUB, then PACK with zeros into [[0, end_h], [0, end_w]]. Input x [batch, h, w, 2] (signature
 * [-1, -1, -1, 2]), output [batch, h − 4, w − 4, 3] stored with placeholder 1s. `variant: 'static'`
 * writes the same computation with constant paddings and crops and every shape stored: TFLite 2.9
 * crashes (SIGSEGV) on the dynamic form, so it is the oracle's model.
 */
export function dilatedConvModel(inShape: readonly number[] = [1, 9, 9, 2], variant: 'dynamic' | 'static' = 'dynamic'): Uint8Array {
  const g = new Graph();
  const C = inShape[3]!;
  const x = g.act('x', [...inShape], [-1, -1, -1, C]);
  let paddings: number;
  let crops: number;
  if (variant === 'dynamic') {
    const s = g.shape('dilated/shape', x, 4);
    const hw = g.slice('dilated/hw', s, 1, 3);
    const plus = g.binary(BuiltinOperator.ADD, 'dilated/hw_plus', hw, g.i32('dilated/rate_minus_1', [1, 1]), [2]);
    const blocks = g.binary(BuiltinOperator.DIV, 'dilated/blocks', plus, g.i32('dilated/rate', [2, 2]), [2]);
    const padded = g.binary(BuiltinOperator.MUL, 'dilated/padded', blocks, g.i32('dilated/rate2', [2, 2]), [2]);
    const end = g.binary(BuiltinOperator.SUB, 'dilated/pad_end', padded, hw, [2]);
    const zeros = g.i32('dilated/zeros', [0, 0]);
    paddings = g.pack('dilated/paddings', [zeros, end], 1, [2, 2]);
    crops = g.pack('dilated/crops', [zeros, end], 1, [2, 2]);
  } else {
    // The static twin: the same paddings and crops as constants, for an oracle that crashes on the dynamic form.
    const end = [1, 2].map((k) => Math.ceil(inShape[k]! / 2) * 2 - inShape[k]!);
    paddings = g.i32('dilated/paddings', [0, end[0]!, 0, end[1]!], [2, 2]);
    crops = g.i32('dilated/crops', [0, end[0]!, 0, end[1]!], [2, 2]);
  }
  const block = g.i32('dilated/block', [2, 2]);
  // The real shapes (static twin) or placeholder 1s under a -1 signature (as the converter stores them).
  const [n, h, w_] = [inShape[0]!, Math.ceil(inShape[1]! / 2), Math.ceil(inShape[2]! / 2)];
  const stored = (real: number[]): number[] => (variant === 'static' ? real : real.map((d, k) => (k === 3 ? d : 1)));
  const s2b = g.act('dilated/space_to_batch', stored([4 * n, h, w_, C]), [-1, -1, -1, C]);
  g.b.addOperator({ op: BuiltinOperator.SPACE_TO_BATCH_ND, inputs: [x, block, paddings], outputs: [s2b] });
  const w = g.f32('conv/w', [3, 3, 3, C], values(27 * C, 11));
  const bias = g.f32('conv/b', [3], Float32Array.from([0.1, -0.2, 0.3]));
  const conv = g.act('conv', stored([4 * n, h - 2, w_ - 2, 3]), [-1, -1, -1, 3]);
  g.b.addOperator({
    op: BuiltinOperator.CONV_2D,
    inputs: [s2b, w, bias],
    outputs: [conv],
    options: { padding: Padding.VALID, strideH: 1, strideW: 1 },
  });
  const y = g.act('y', stored([n, inShape[1]! - 4, inShape[2]! - 4, 3]), [-1, -1, -1, 3]);
  g.b.addOperator({ op: BuiltinOperator.BATCH_TO_SPACE_ND, inputs: [conv, block, crops], outputs: [y] });
  return g.b.setInputs([x]).setOutputs([y]).build();
}

/**
 * Dynamic batch handling: x [batch, 4] (signature [-1, 4]) → FULLY_CONNECTED (4 → 6) → RESHAPE to
 * [batch, 2, 3] where the target is PACK(SHAPE(x)[0], 2, 3) — the converter's way of keeping the batch
 * dimension through a reshape — then BROADCAST_TO a constant-derived [2, batch, 2, 3] built the same way
 * and an ADD whose output shape the file leaves empty. Every tensor past the input is stored with
 * placeholder or empty shapes; `storeShapes` stores the real ones instead (same graph), for TFLite's
 * oracle, whose output buffers keep the size they had before TFLite resized them at eval.
 */
export function dynamicBatchModel(batch = 1, storeShapes = false): Uint8Array {
  const g = new Graph();
  const shape = (real: number[], placeholder: number[]): number[] => (storeShapes ? real : placeholder);
  const x = g.act('x', [batch, 4], [-1, 4]);
  const w = g.f32('fc/w', [6, 4], values(24, 5));
  const bias = g.f32('fc/b', [6], values(6, 6));
  const fc = g.act('fc', shape([batch, 6], [1, 6]), [-1, 6]);
  g.b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [x, w, bias], outputs: [fc] });
  const s = g.shape('batch/shape', x, 2);
  const n = g.slice('batch/n', s, 0, 1, true);
  const two = g.i32('batch/two', [2], []);
  const three = g.i32('batch/three', [3], []);
  const target = g.pack('batch/target', [n, two, three], 0, [3]);
  const r = g.act('reshaped', shape([batch, 2, 3], [1, 2, 3]), [-1, 2, 3]);
  g.b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [fc, target], outputs: [r] });
  const bshape = g.pack('batch/broadcast_shape', [two, n, two, three], 0, [4]);
  const bt = g.act('broadcast', shape([2, batch, 2, 3], []), undefined);
  g.b.addOperator({ op: BuiltinOperator.BROADCAST_TO, version: 2, inputs: [r, bshape], outputs: [bt] });
  const c = g.f32('bias2', [3], Float32Array.from([1, 2, 3]));
  const out = g.act('out', shape([2, batch, 2, 3], []), undefined);
  g.b.addOperator({ op: BuiltinOperator.ADD, inputs: [bt, c], outputs: [out] });
  return g.b.setInputs([x]).setOutputs([out]).build();
}

/** x [2, 3] + c [3] → an output the file stores with an empty shape (TFLite sizes it in Prepare). */
export function emptyShapeAddModel(): Uint8Array {
  const g = new Graph();
  const x = g.act('x', [2, 3]);
  const c = g.f32('c', [3], Float32Array.from([0.5, -1, 2]));
  const y = g.act('y', []);
  g.b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, c], outputs: [y] });
  return g.b.setInputs([x]).setOutputs([y]).build();
}

/** max_detections of {@link ssdTailModel}. */
export const SSD_TAIL_MAX_DETECTIONS = 5;

/**
 * A classic SSD detector's tail as the converter writes it: a feature map x [1, 3, 3, 4] → two 1×1
 * CONV_2D box predictors (2 anchors per cell) → RESHAPE to box encodings [1, 18, 4] and class logits
 * [1, 18, 3] (background + 2 classes) → LOGISTIC → TFLite_Detection_PostProcess (fast NMS,
 * max_detections {@link SSD_TAIL_MAX_DETECTIONS}) over 18 constant anchors, whose four outputs the file
 * stores with an empty shape for TFLite's Prepare to size ([1, 5, 4], [1, 5], [1, 5], [1]).
 */
export function ssdTailModel(): Uint8Array {
  const g = new Graph();
  const x = g.act('feature_map', [1, 3, 3, 4]);
  const predictor = (name: string, channels: number, seed: number): number => {
    const w = g.f32(`${name}/w`, [channels, 1, 1, 4], values(channels * 4, seed));
    const b = g.f32(`${name}/b`, [channels], values(channels, seed + 1));
    const y = g.act(name, [1, 3, 3, channels]);
    g.b.addOperator({
      op: BuiltinOperator.CONV_2D,
      inputs: [x, w, b],
      outputs: [y],
      options: { padding: Padding.SAME, strideH: 1, strideW: 1 },
    });
    return y;
  };
  const reshape = (name: string, input: number, shape: number[]): number => {
    const out = g.act(name, shape);
    g.b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [input, g.i32(`${name}/shape`, shape)], outputs: [out] });
    return out;
  };
  const boxes = reshape('box_encodings', predictor('box_predictor', 8, 21), [1, 18, 4]);
  const logits = reshape('class_logits', predictor('class_predictor', 6, 31), [1, 18, 3]);
  const scores = g.act('class_predictions', [1, 18, 3]);
  g.b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [logits], outputs: [scores] });
  // Anchors (ycenter, xcenter, h, w): one small and one tall anchor per cell of the 3×3 grid.
  const anchors = new Float32Array(18 * 4);
  for (let cell = 0; cell < 9; cell++) {
    const cy = (Math.floor(cell / 3) + 0.5) / 3;
    const cx = ((cell % 3) + 0.5) / 3;
    anchors.set([cy, cx, 0.3, 0.3], 8 * cell);
    anchors.set([cy, cx, 0.5, 0.25], 8 * cell + 4);
  }
  const a = g.f32('anchors', [18, 4], anchors);
  const outputs = ['detection_boxes', 'detection_classes', 'detection_scores', 'num_detections'].map((name) => g.act(name, []));
  g.b.addOperator({
    op: { custom: 'TFLite_Detection_PostProcess' },
    inputs: [boxes, scores, a],
    outputs,
    customOptions: flexMap({
      max_detections: SSD_TAIL_MAX_DETECTIONS,
      max_classes_per_detection: 1,
      detections_per_class: 1,
      use_regular_nms: false,
      nms_score_threshold: { float: 0.3 },
      nms_iou_threshold: { float: 0.5 },
      num_classes: 2,
      y_scale: { float: 10 },
      x_scale: { float: 10 },
      h_scale: { float: 5 },
      w_scale: { float: 5 },
    }),
  });
  return g.b.setInputs([x]).setOutputs(outputs).build();
}
