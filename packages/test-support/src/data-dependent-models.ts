/**
 * Models with data-dependent output sizes (issue 20, item 1), written with `ModelBuilder` as the TFLite
 * converter writes such graphs: a boolean mask (GREATER → WHERE → SQUEEZE → CAST → GATHER, plus SHAPE and
 * an elementwise op on the gathered values), UNIQUE with SHAPE and CAST of its values, TOPK_V2 with a
 * runtime k, and the tail of a detector (NON_MAX_SUPPRESSION_V4/V5 → SLICE by the valid count → GATHER of
 * the boxes, with a constant or a runtime max_output_size). Every data-dependent tensor is stored at its
 * upper bound, with a `shape_signature` -1 in the dimension that varies: TFLite 2.9 (the oracle) resizes
 * it at invoke, and tfjs-tflite-node's output buffers are sized from the stored shape.
 */
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';

const F = TensorType.FLOAT32;
const I32 = TensorType.INT32;
const I64 = TensorType.INT64;
const B = TensorType.BOOL;

/**
 * The boolean mask of `n` floats: `positives = x[where(x > 0)]`, output 0 `unary`(positives) [k] float32
 * (NEG unless given; its options `unaryOptions`), output 1 SHAPE(positives) int32 [1], output 2 the
 * int32 coordinates [k] (k the count of positives).
 */
export function booleanMaskModel(n = 8, unary: BuiltinOperator = BuiltinOperator.NEG, unaryOptions?: Record<string, unknown>): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F, shape: [n] });
  const zero = b.addTensor({ name: 'zero', type: F, shape: [], data: new Float32Array([0]) });
  const mask = b.addTensor({ name: 'mask', type: B, shape: [n] });
  const coords = b.addTensor({ name: 'coords', type: I64, shape: [n, 1], shapeSignature: [-1, 1] });
  const flat = b.addTensor({ name: 'coords/flat', type: I64, shape: [n], shapeSignature: [-1] });
  const idx = b.addTensor({ name: 'coords/int32', type: I32, shape: [n], shapeSignature: [-1] });
  const positives = b.addTensor({ name: 'positives', type: F, shape: [n], shapeSignature: [-1] });
  const negated = b.addTensor({ name: 'negated', type: F, shape: [n], shapeSignature: [-1] });
  const shape = b.addTensor({ name: 'positives/shape', type: I32, shape: [1] });
  b.addOperator({ op: BuiltinOperator.GREATER, inputs: [x, zero], outputs: [mask] });
  b.addOperator({ op: BuiltinOperator.WHERE, inputs: [mask], outputs: [coords] });
  b.addOperator({ op: BuiltinOperator.SQUEEZE, inputs: [coords], outputs: [flat], options: { squeezeDims: Int32Array.from([1]) } });
  b.addOperator({ op: BuiltinOperator.CAST, inputs: [flat], outputs: [idx] });
  b.addOperator({ op: BuiltinOperator.GATHER, inputs: [x, idx], outputs: [positives], options: { axis: 0 } });
  b.addOperator({ op: unary, inputs: [positives], outputs: [negated], ...(unaryOptions ? { options: unaryOptions } : {}) });
  b.addOperator({ op: BuiltinOperator.SHAPE, inputs: [positives], outputs: [shape], rawOptions: [{ id: 0, type: 'int8', value: I32 }] });
  return b.setInputs([x]).setOutputs([negated, shape, idx]).build();
}

/**
 * UNIQUE of `n` int32 values: output 0 the distinct values as float32 (CAST) [u], output 1 their count
 * (SHAPE) int32 [1], output 2 the int32 index of each input value [n].
 */
export function uniqueCountModel(n = 10): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: I32, shape: [n] });
  const values = b.addTensor({ name: 'unique', type: I32, shape: [n], shapeSignature: [-1] });
  const index = b.addTensor({ name: 'unique/idx', type: I32, shape: [n] });
  const asFloat = b.addTensor({ name: 'unique/float', type: F, shape: [n], shapeSignature: [-1] });
  const count = b.addTensor({ name: 'unique/shape', type: I32, shape: [1] });
  b.addOperator({ op: BuiltinOperator.UNIQUE, inputs: [x], outputs: [values, index], rawOptions: [{ id: 0, type: 'int8', value: I32 }] });
  b.addOperator({ op: BuiltinOperator.CAST, inputs: [values], outputs: [asFloat] });
  b.addOperator({ op: BuiltinOperator.SHAPE, inputs: [values], outputs: [count], rawOptions: [{ id: 0, type: 'int8', value: I32 }] });
  return b.setInputs([x]).setOutputs([asFloat, count, index]).build();
}

/** TOPK_V2 of x [rows, n] float32 with k an int32 scalar input: values and indices [rows, k], then RELU of the values. */
export function runtimeTopKModel(rows = 2, n = 6): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F, shape: [rows, n] });
  const k = b.addTensor({ name: 'k', type: I32, shape: [] });
  const values = b.addTensor({ name: 'topk/values', type: F, shape: [rows, n], shapeSignature: [rows, -1] });
  const indices = b.addTensor({ name: 'topk/indices', type: I32, shape: [rows, n], shapeSignature: [rows, -1] });
  const relu = b.addTensor({ name: 'topk/relu', type: F, shape: [rows, n], shapeSignature: [rows, -1] });
  b.addOperator({ op: BuiltinOperator.TOPK_V2, inputs: [x, k], outputs: [values, indices] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [values], outputs: [relu] });
  return b.setInputs([x, k]).setOutputs([relu, indices]).build();
}

/** Options of {@link nmsTailModel}. */
export interface NmsTailOptions {
  /** Number of candidate boxes. */
  boxes?: number;
  /** NON_MAX_SUPPRESSION_V5 (soft NMS, sigma 0.5, with the selected scores) instead of V4. */
  v5?: boolean;
  /** max_output_size as a constant (a number) or as an int32 scalar graph input (`'input'`). */
  maxOutput?: number | 'input';
  /**
   * With a runtime max_output_size: the length stored for the NMS outputs and the tail (default the
   * number of boxes); more leaves room for TFLite's zero padding of a max_output_size above the boxes.
   */
  stored?: number;
}

/**
 * A detector's tail as the converter writes `tf.image.non_max_suppression` without padding: boxes
 * [n, 4] and scores [n] (graph inputs) → NON_MAX_SUPPRESSION_V4/V5 (iou 0.5, score threshold 0.1) →
 * SLICE(selected_indices, [0], RESHAPE(valid_outputs, [1])) → GATHER(boxes, ·), and the detections
 * CONCATENATION(kept boxes, EXPAND_DIMS(GATHER(scores, ·), 1)) along axis 1, and two STRIDED_SLICEs of
 * the kept boxes. Outputs: the selected boxes [k, 4], the selected indices [k], the NMS's own
 * selected_indices ([max_output_size]), for V5 the selected scores, the detections [k, 5], the boxes'
 * (y2, x2) corners (`boxes[:, 2:]`, [k, 2]) and their x1 (`boxes[:, 1]`, shrunk, [k]); k is the valid count.
 */
export function nmsTailModel(o: NmsTailOptions = {}): Uint8Array {
  const n = o.boxes ?? 8;
  const maxOutput = o.maxOutput ?? 5;
  const runtimeMax = maxOutput === 'input';
  const bound = runtimeMax ? (o.stored ?? n) : maxOutput;
  const b = new ModelBuilder();
  const boxes = b.addTensor({ name: 'boxes', type: F, shape: [n, 4] });
  const scores = b.addTensor({ name: 'scores', type: F, shape: [n] });
  const max = runtimeMax
    ? b.addTensor({ name: 'max_output_size', type: I32, shape: [] })
    : b.addTensor({ name: 'max_output_size', type: I32, shape: [], data: new Int32Array([maxOutput]) });
  const iou = b.addTensor({ name: 'iou_threshold', type: F, shape: [], data: new Float32Array([0.5]) });
  const threshold = b.addTensor({ name: 'score_threshold', type: F, shape: [], data: new Float32Array([0.1]) });
  const sigma = b.addTensor({ name: 'soft_nms_sigma', type: F, shape: [], data: new Float32Array([0.5]) });
  const signature = runtimeMax ? { shapeSignature: [-1] } : {};
  const selected = b.addTensor({ name: 'nms/selected_indices', type: I32, shape: [bound], ...signature });
  const selectedScores = b.addTensor({ name: 'nms/selected_scores', type: F, shape: [bound], ...signature });
  const valid = b.addTensor({ name: 'nms/valid_outputs', type: I32, shape: [] });
  const one = b.addTensor({ name: 'shape_1', type: I32, shape: [1], data: new Int32Array([1]) });
  const size = b.addTensor({ name: 'nms/valid_outputs/1d', type: I32, shape: [1] });
  const begin = b.addTensor({ name: 'begin_0', type: I32, shape: [1], data: new Int32Array([0]) });
  const kept = b.addTensor({ name: 'kept_indices', type: I32, shape: [bound], shapeSignature: [-1] });
  const keptBoxes = b.addTensor({ name: 'kept_boxes', type: F, shape: [bound, 4], shapeSignature: [-1, 4] });
  const keptScores = b.addTensor({ name: 'kept_scores', type: F, shape: [bound], shapeSignature: [-1] });
  const axis1 = b.addTensor({ name: 'axis_1', type: I32, shape: [], data: new Int32Array([1]) });
  const keptScores2d = b.addTensor({ name: 'kept_scores/2d', type: F, shape: [bound, 1], shapeSignature: [-1, 1] });
  const detections = b.addTensor({ name: 'detections', type: F, shape: [bound, 5], shapeSignature: [-1, 5] });
  b.addOperator(
    o.v5
      ? {
          op: BuiltinOperator.NON_MAX_SUPPRESSION_V5,
          inputs: [boxes, scores, max, iou, threshold, sigma],
          outputs: [selected, selectedScores, valid],
        }
      : { op: BuiltinOperator.NON_MAX_SUPPRESSION_V4, inputs: [boxes, scores, max, iou, threshold], outputs: [selected, valid] },
  );
  b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [valid, one], outputs: [size] });
  b.addOperator({ op: BuiltinOperator.SLICE, inputs: [selected, begin, size], outputs: [kept] });
  b.addOperator({ op: BuiltinOperator.GATHER, inputs: [boxes, kept], outputs: [keptBoxes], options: { axis: 0 } });
  b.addOperator({ op: BuiltinOperator.GATHER, inputs: [scores, kept], outputs: [keptScores], options: { axis: 0 } });
  b.addOperator({ op: BuiltinOperator.EXPAND_DIMS, inputs: [keptScores, axis1], outputs: [keptScores2d] });
  b.addOperator({
    op: BuiltinOperator.CONCATENATION,
    inputs: [keptBoxes, keptScores2d],
    outputs: [detections],
    options: { axis: 1, fusedActivationFunction: 0 },
  });
  const ints = (name: string, v: number[]) => b.addTensor({ name, type: I32, shape: [v.length], data: Int32Array.from(v) });
  const corners = b.addTensor({ name: 'kept_boxes/corners', type: F, shape: [bound, 2], shapeSignature: [-1, 2] });
  const x1 = b.addTensor({ name: 'kept_boxes/x1', type: F, shape: [bound], shapeSignature: [-1] });
  b.addOperator({
    op: BuiltinOperator.STRIDED_SLICE,
    inputs: [keptBoxes, ints('corners/begin', [0, 2]), ints('corners/end', [0, 4]), ints('corners/strides', [1, 1])],
    outputs: [corners],
    options: { beginMask: 1, endMask: 1 },
  });
  b.addOperator({
    op: BuiltinOperator.STRIDED_SLICE,
    inputs: [keptBoxes, ints('x1/begin', [0, 1]), ints('x1/end', [0, 2]), ints('x1/strides', [1, 1])],
    outputs: [x1],
    options: { beginMask: 1, endMask: 1, shrinkAxisMask: 2 },
  });
  const inputs = runtimeMax ? [boxes, scores, max] : [boxes, scores];
  const tail = [detections, corners, x1];
  const outputs = o.v5 ? [keptBoxes, kept, selected, selectedScores, ...tail] : [keptBoxes, kept, selected, ...tail];
  return b.setInputs(inputs).setOutputs(outputs).build();
}

/** Deterministic boxes [n, 4] (y1, x1, y2, x2, some overlapping) and scores [n] in [0, 1) from `seed`. */
export function nmsInputs(n: number, seed: number): { boxes: Float32Array; scores: Float32Array } {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const boxes = new Float32Array(n * 4);
  const scores = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const y = next() * 0.6;
    const x = next() * 0.6;
    boxes.set([y, x, y + 0.2 + next() * 0.3, x + 0.2 + next() * 0.3], i * 4);
    scores[i] = next();
  }
  return { boxes, scores };
}

/** What {@link maskedModel} hands its tail: the builder and the data-dependent tensor to consume. */
export interface MaskedSource {
  b: ModelBuilder;
  /** `x[where(x > 0)]`: type `type`, stored [n] with shape_signature [-1]. */
  positives: number;
  /** The graph input x [n]. */
  x: number;
  n: number;
  type: TensorType;
  /** x's quantization (int8/uint8/int16), the positives' too. */
  quantization?: { scale: number; zeroPoint: number };
}

/** Options of {@link maskedModel}. */
export interface MaskedOptions {
  /** Length of x (default 8). */
  n?: number;
  /** x's type (default float32): float32, int32, int64 or a quantized int8/uint8/int16. */
  type?: TensorType;
  /** Quantization of a quantized x (default scale 0.05, zero point 0). */
  quantization?: { scale: number; zeroPoint: number };
}

/**
 * The boolean mask `positives = x[where(x > 0)]` (GREATER → WHERE → SQUEEZE → CAST → GATHER, as
 * {@link booleanMaskModel}) over x [n] of `o.type`, then whatever `tail` builds on the positives; the
 * tail returns the graph outputs (tensors whose size depends on the count of positives carry a -1 in
 * their shape_signature, so TFLite resizes them).
 */
export function maskedModel(tail: (s: MaskedSource) => number[], o: MaskedOptions = {}): Uint8Array {
  const n = o.n ?? 8;
  const type = o.type ?? F;
  const quantized = type === TensorType.INT8 || type === TensorType.UINT8 || type === TensorType.INT16;
  const quantization = quantized ? (o.quantization ?? { scale: 0.05, zeroPoint: 0 }) : undefined;
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type, shape: [n], ...(quantization ? { quantization } : {}) });
  // TFLite 2.9's GREATER has no int16: an int16 x is compared after DEQUANTIZE
  const compared = type === TensorType.INT16 ? b.addTensor({ name: 'x/float', type: F, shape: [n] }) : x;
  if (compared !== x) b.addOperator({ op: BuiltinOperator.DEQUANTIZE, inputs: [x], outputs: [compared] });
  const zeroType = compared === x ? type : F;
  const zeroQuantization = compared === x ? quantization : undefined;
  const zero = b.addTensor({
    name: 'zero',
    type: zeroType,
    shape: [],
    data: scalarOf(zeroType, zeroQuantization ? zeroQuantization.zeroPoint : 0),
    ...(zeroQuantization ? { quantization: zeroQuantization } : {}),
  });
  const mask = b.addTensor({ name: 'mask', type: B, shape: [n] });
  const coords = b.addTensor({ name: 'coords', type: I64, shape: [n, 1], shapeSignature: [-1, 1] });
  const flat = b.addTensor({ name: 'coords/flat', type: I64, shape: [n], shapeSignature: [-1] });
  const idx = b.addTensor({ name: 'coords/int32', type: I32, shape: [n], shapeSignature: [-1] });
  const positives = b.addTensor({ name: 'positives', type, shape: [n], shapeSignature: [-1], ...(quantization ? { quantization } : {}) });
  b.addOperator({ op: BuiltinOperator.GREATER, inputs: [compared, zero], outputs: [mask] });
  b.addOperator({ op: BuiltinOperator.WHERE, inputs: [mask], outputs: [coords] });
  b.addOperator({ op: BuiltinOperator.SQUEEZE, inputs: [coords], outputs: [flat], options: { squeezeDims: Int32Array.from([1]) } });
  b.addOperator({ op: BuiltinOperator.CAST, inputs: [flat], outputs: [idx] });
  b.addOperator({ op: BuiltinOperator.GATHER, inputs: [x, idx], outputs: [positives], options: { axis: 0 } });
  const outputs = tail({ b, positives, x, n, type, ...(quantization ? { quantization } : {}) });
  return b.setInputs([x]).setOutputs(outputs).build();
}

/** One element of `type` holding `v`, as the bytes a constant tensor takes. */
export function scalarOf(type: TensorType, v: number): ArrayBufferView {
  return valuesOf(type, [v]);
}

/** `values` as a typed array of `type` (int64 as BigInt64Array, bool as 0/1 bytes). */
export function valuesOf(type: TensorType, values: readonly number[]): ArrayBufferView {
  switch (type) {
    case TensorType.FLOAT32:
      return Float32Array.from(values);
    case TensorType.INT32:
      return Int32Array.from(values);
    case TensorType.INT64:
      return BigInt64Array.from(values, (v) => BigInt(v));
    case TensorType.INT16:
      return Int16Array.from(values);
    case TensorType.INT8:
      return Int8Array.from(values);
    case TensorType.UINT8:
    case TensorType.BOOL:
      return Uint8Array.from(values);
    default:
      throw new Error(`valuesOf: unsupported type ${type}`);
  }
}

/** x's quantization per quantized type (uint8 centred so that half its range is positive). */
export const MASKED_QUANTIZATION: Partial<Record<TensorType, { scale: number; zeroPoint: number }>> = {
  [TensorType.INT8]: { scale: 0.05, zeroPoint: 0 },
  [TensorType.UINT8]: { scale: 0.05, zeroPoint: 128 },
  [TensorType.INT16]: { scale: 0.001, zeroPoint: 0 },
};
/** Quantization of a quantized op's output (another scale and zero point than x's). */
const OUT_QUANT: Partial<Record<TensorType, { scale: number; zeroPoint: number }>> = {
  [TensorType.INT8]: { scale: 0.1, zeroPoint: -3 },
  [TensorType.UINT8]: { scale: 0.1, zeroPoint: 120 },
  [TensorType.INT16]: { scale: 0.002, zeroPoint: 0 },
};

/** A constant of x's type and quantization holding the real `values`. */
function constant(s: MaskedSource, name: string, shape: number[], values: number[]): number {
  const q = s.quantization;
  const stored = q ? values.map((v) => Math.round(v / q.scale) + q.zeroPoint) : values;
  return s.b.addTensor({ name, type: s.type, shape, data: valuesOf(s.type, stored), ...(q ? { quantization: q } : {}) });
}

function outputTensor(s: MaskedSource, name: string, type: TensorType, shape: number[], signature: number[]): number {
  const q = type === s.type ? OUT_QUANT[type] : undefined;
  return s.b.addTensor({ name, type, shape, shapeSignature: signature, ...(q ? { quantization: q } : {}) });
}

/** How {@link maskedBinaryModel} feeds the positives to its op. */
export type MaskedBinaryForm = 'self' | 'scalar' | 'grid';

/** Options of {@link maskedBinaryModel}. */
export interface MaskedBinaryOptions {
  /** x's type (default float32); quantized types take {@link MASKED_QUANTIZATION}. */
  type?: TensorType;
  /** The output's type (default x's; bool for comparisons). */
  outType?: TensorType;
  /** The op's builtin options. */
  options?: Record<string, unknown>;
}

/**
 * `maskedModel` with a binary elementwise `op` on the positives [k]: positives `op` positives (`self`),
 * positives `op` a constant scalar (`scalar`: 2, or 1.5 for a float POW), or a constant [1, 3]
 * (2, -1, 3; POW: 2, 0, 3) `op` EXPAND_DIMS(positives, 1) [k, 1] (`grid`, broadcast both ways, output
 * [k, 3]). A quantized output has its own scale and zero point.
 */
export function maskedBinaryModel(op: BuiltinOperator, form: MaskedBinaryForm, o: MaskedBinaryOptions = {}): Uint8Array {
  const { outType, options } = o;
  const type = o.type ?? F;
  const quantization = MASKED_QUANTIZATION[type];
  const tail = (s: MaskedSource): number[] => {
    const { b, positives, n } = s;
    const out0 = outType ?? s.type;
    const ints = s.type !== TensorType.FLOAT32;
    if (form === 'self') {
      const out = outputTensor(s, 'out', out0, [n], [-1]);
      b.addOperator({ op, inputs: [positives, positives], outputs: [out], ...(options ? { options } : {}) });
      return [out];
    }
    if (form === 'scalar') {
      const c = constant(s, 'c', [], [op === BuiltinOperator.POW && !ints ? 1.5 : 2]);
      const out = outputTensor(s, 'out', out0, [n], [-1]);
      b.addOperator({ op, inputs: [positives, c], outputs: [out], ...(options ? { options } : {}) });
      return [out];
    }
    const axis = b.addTensor({ name: 'axis', type: TensorType.INT32, shape: [], data: Int32Array.from([1]) });
    const q = s.quantization;
    const column = b.addTensor({ name: 'column', type: s.type, shape: [n, 1], shapeSignature: [-1, 1], ...(q ? { quantization: q } : {}) });
    b.addOperator({ op: BuiltinOperator.EXPAND_DIMS, inputs: [positives, axis], outputs: [column] });
    const row = constant(s, 'row', [1, 3], op === BuiltinOperator.POW ? [2, 0, 3] : [2, -1, 3]);
    const out = outputTensor(s, 'out', out0, [n, 3], [-1, 3]);
    b.addOperator({ op, inputs: [row, column], outputs: [out], ...(options ? { options } : {}) });
    return [out];
  };
  return maskedModel(tail, { type, ...(quantization ? { quantization } : {}) });
}

/**
 * Many consumers of one data-dependent tensor in one float32 model, for the allocation test and
 * `micrort check`: `maskedModel`'s positives [k] (of x [n]) as a column [k, 1] next to positives·(−1.5),
 * the grid [k, 2]; outputs SUM(grid, 1) [k], MEAN(grid, 0, keep) [1, 2], REDUCE_MAX(grid, 0) [2],
 * SOFTMAX(grid) [k, 2], TRANSPOSE(grid) [2, k], TILE(grid, [2, 1]) [2k, 2], PACK(positives, positives,
 * axis 1) [k, 2], UNPACK(grid, axis 1) 2 × [k], SELECT_V2(positives > 1, positives, 0) [k],
 * ADD(grid, [1, 2]) [k, 2], LOG_SOFTMAX(positives) [k], REDUCE_PROD(grid, 1) [k], ARG_MAX(grid, 1) [k],
 * SPLIT(grid, axis 1) 2 × [k, 1]. (TFLite 2.9 refuses
 * UNPACK of an empty input and crashes on a float SOFTMAX/LOG_SOFTMAX of an empty row: compare with it
 * on inputs with positives only.)
 */
export function dataDependentConsumersModel(n = 8): Uint8Array {
  return maskedModel(
    (s) => {
      const { b, positives } = s;
      const t = (name: string, shape: number[], signature: number[], type: TensorType = F) =>
        b.addTensor({ name, type, shape, shapeSignature: signature });
      const c = (name: string, type: TensorType, shape: number[], values: number[]) =>
        b.addTensor({ name, type, shape, data: valuesOf(type, values) });
      const column = t('column', [n, 1], [-1, 1]);
      b.addOperator({ op: BuiltinOperator.EXPAND_DIMS, inputs: [positives, c('one', I32, [], [1])], outputs: [column] });
      const scaled = t('scaled', [n, 1], [-1, 1]);
      b.addOperator({ op: BuiltinOperator.MUL, inputs: [column, c('k', F, [], [-1.5])], outputs: [scaled] });
      const grid = t('grid', [n, 2], [-1, 2]);
      b.addOperator({ op: BuiltinOperator.CONCATENATION, inputs: [column, scaled], outputs: [grid], options: { axis: 1 } });
      const outs: number[] = [];
      const op = (code: BuiltinOperator, inputs: number[], out: number | number[], options?: Record<string, unknown>) => {
        const list = Array.isArray(out) ? out : [out];
        b.addOperator({ op: code, inputs, outputs: list, ...(options ? { options } : {}) });
        outs.push(...list);
      };
      op(BuiltinOperator.SUM, [grid, c('axis1', I32, [1], [1])], t('sum', [n], [-1]), { keepDims: false });
      op(BuiltinOperator.MEAN, [grid, c('axis0', I32, [1], [0])], t('mean', [1, 2], [1, 2]), { keepDims: true });
      op(BuiltinOperator.REDUCE_MAX, [grid, c('axis0b', I32, [1], [0])], t('max', [2], [2]), { keepDims: false });
      op(BuiltinOperator.SOFTMAX, [grid], t('softmax', [n, 2], [-1, 2]), { beta: 1 });
      op(BuiltinOperator.TRANSPOSE, [grid, c('perm', I32, [2], [1, 0])], t('transposed', [2, n], [2, -1]));
      op(BuiltinOperator.TILE, [grid, c('multiples', I32, [2], [2, 1])], t('tiled', [2 * n, 2], [-1, 2]));
      op(BuiltinOperator.PACK, [positives, positives], t('packed', [n, 2], [-1, 2]), { axis: 1, valuesCount: 2 });
      op(BuiltinOperator.UNPACK, [grid], [t('unpacked0', [n], [-1]), t('unpacked1', [n], [-1])], { num: 2, axis: 1 });
      const above = t('above', [n], [-1], B);
      b.addOperator({ op: BuiltinOperator.GREATER, inputs: [positives, c('one_f', F, [], [1])], outputs: [above] });
      op(BuiltinOperator.SELECT_V2, [above, positives, c('zero_f', F, [], [0])], t('selected', [n], [-1]));
      op(BuiltinOperator.ADD, [grid, c('row', F, [1, 2], [1, 2])], t('shifted', [n, 2], [-1, 2]), { fusedActivationFunction: 0 });
      op(BuiltinOperator.LOG_SOFTMAX, [positives], t('log_softmax', [n], [-1]));
      op(BuiltinOperator.REDUCE_PROD, [grid, c('axis1b', I32, [1], [1])], t('prod', [n], [-1]), { keepDims: false });
      op(BuiltinOperator.ARG_MAX, [grid, c('axis1c', I32, [1], [1])], t('argmax', [n], [-1], I32), { outputType: I32 });
      op(BuiltinOperator.SPLIT, [c('axis1d', I32, [], [1]), grid], [t('split0', [n, 1], [-1, 1]), t('split1', [n, 1], [-1, 1])], {
        numSplits: 2,
      });
      return outs;
    },
    { n },
  );
}

/**
 * The WHERE → GATHER_ND → arithmetic chain the converter writes for `x[x > 0] * 3` on a matrix: x [2, 4]
 * of `type` (float32 or int32), its positive entries [k] (GATHER_ND by WHERE's int64 coordinates)
 * times 3 (output 0), their SUM (output 1) and the row of each (GATHER_ND of a constant, output 2).
 */
export function whereGatherNdModel(type: TensorType = F): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type, shape: [2, 4] });
  const zero = b.addTensor({ name: 'zero', type, shape: [], data: valuesOf(type, [0]) });
  const mask = b.addTensor({ name: 'mask', type: B, shape: [2, 4] });
  const coords = b.addTensor({ name: 'coords', type: I64, shape: [8, 2], shapeSignature: [-1, 2] });
  const picked = b.addTensor({ name: 'picked', type, shape: [8], shapeSignature: [-1] });
  const three = b.addTensor({ name: 'three', type, shape: [], data: valuesOf(type, [3]) });
  const scaled = b.addTensor({ name: 'scaled', type, shape: [8], shapeSignature: [-1] });
  const axis = b.addTensor({ name: 'axis', type: I32, shape: [1], data: Int32Array.from([0]) });
  const total = b.addTensor({ name: 'total', type, shape: [] });
  const rows = b.addTensor({ name: 'rows', type: I32, shape: [8], shapeSignature: [-1] });
  const rowIndex = b.addTensor({ name: 'row_index', type: I32, shape: [2, 4], data: Int32Array.from([0, 0, 0, 0, 1, 1, 1, 1]) });
  b.addOperator({ op: BuiltinOperator.GREATER, inputs: [x, zero], outputs: [mask] });
  b.addOperator({ op: BuiltinOperator.WHERE, inputs: [mask], outputs: [coords] });
  b.addOperator({ op: BuiltinOperator.GATHER_ND, inputs: [x, coords], outputs: [picked] });
  b.addOperator({ op: BuiltinOperator.MUL, inputs: [picked, three], outputs: [scaled] });
  b.addOperator({ op: BuiltinOperator.SUM, inputs: [scaled, axis], outputs: [total], options: { keepDims: false } });
  b.addOperator({ op: BuiltinOperator.GATHER_ND, inputs: [rowIndex, coords], outputs: [rows] });
  return b.setInputs([x]).setOutputs([scaled, total, rows]).build();
}
