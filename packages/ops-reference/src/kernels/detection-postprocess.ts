/**
 * TFLite_Detection_PostProcess (custom op; TFLM kernels/detection_postprocess.cc), float32: decodes
 * center-size box encodings against the anchors, then selects boxes by non-maximum suppression. As
 * TFLite's kernel (TF1 quantized SSD models), box_encodings, class_predictions and anchors may also be
 * uint8 or int8: each is dequantized, scale * (q - zero_point) in float32, before the float path runs —
 * class scores into TFLM's `scores` scratch buffer, boxes and anchors into one extra scratch buffer each.
 *
 * Inputs: box_encodings [1, boxes, >= 4] (y, x, h, w), class_predictions [1, boxes, classes (+1 when a
 * background class comes first)], anchors [boxes, 4] (y, x, h, w). Outputs: detection_boxes
 * [1, max_detections, 4] (ymin, xmin, ymax, xmax), detection_classes and detection_scores
 * [1, max_detections], num_detections [1], all float32.
 *
 * Options (a FlexBuffers map, read with core's `parseFlexMap`): max_detections, max_classes_per_detection,
 * detections_per_class (default 100), use_regular_nms (default false), nms_score_threshold,
 * nms_iou_threshold (in (0, 1]), num_classes, y_scale, x_scale, h_scale, w_scale.
 *
 * Numerics are TFLM's: decoding in double rounded to float32; IoU and thresholds in float32; the
 * stable merge sort of the candidates and the (value, index) partial sorts give TFLM's order. As in TFLM,
 * fast NMS fills only the first num_detections entries of the outputs (with max_classes_per_detection
 * > 1 its output index advances once per class, leaving TFLM's gaps), regular NMS zero-fills unused slots,
 * and a decoded box with ymin >= ymax or xmin >= xmax fails the invoke. Where TFLM leaves output
 * elements holding whatever the arena held (fast NMS's unused slots and gaps, outputs larger than
 * max_detections), this kernel writes 0, so no output depends on arena contents; and where TFLM's fast
 * NMS index runs past the outputs (max_classes_per_detection > 1 with many detections: TFLM writes out
 * of bounds), it skips the write (both found by micrort fuzz).
 *
 * Arena: TFLM's 112-byte OpData (persistent) and its eleven scratch buffers, requested in TFLM's order and
 * sizes; the regular-NMS buffers grow past TFLM's size only for configurations where TFLM's would
 * overflow (max_detections + boxes > max_detections * boxes).
 */
import { BuiltinOperator, FlexBufferError, KernelError, TensorType, checkArity, getInput, getOutput, parseFlexMap } from '@micrort/core';
import type { FlexMap, Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type OpDataBlock, allocateOpDataBlock, opDataBlock, shapeString } from './transpose-common.js';
import { expectType, fillOpData, opData } from '@micrort/kernel-support';

const OP = 'TFLite_Detection_PostProcess';
const f32 = Math.fround;

/**
 * sizeof(OpData) of TFLM's kernel on x86-64: int max_detections, max_classes_per_detection,
 * detections_per_class; float score and IoU thresholds; int num_classes; bool use_regular_nms (padded to
 * 4); CenterSizeEncoding scale_values (4 floats); 11 int scratch indices; 3 TfLiteQuantizationParams
 * {float scale; int32 zero_point}: 28 + 16 + 44 + 24 = 112.
 */
export const OP_DATA_DETECTION_POSTPROCESS_BYTES = 112;
/** TFLM's kNumDetectionsPerClass: detections_per_class when the option is absent. */
export const DEFAULT_DETECTIONS_PER_CLASS = 100;

/** The custom options, as TFLM's Init reads them. */
export interface DetectionPostProcessOptions {
  maxDetections: number;
  maxClassesPerDetection: number;
  detectionsPerClass: number;
  useRegularNms: boolean;
  scoreThreshold: number;
  iouThreshold: number;
  numClasses: number;
  yScale: number;
  xScale: number;
  hScale: number;
  wScale: number;
}

/** Scratch buffer indices, in TFLM's request order. */
interface Scratch {
  activeCandidate: number;
  decodedBoxes: number;
  scores: number;
  scoreBuffer: number;
  keepScores: number;
  scoresAfterRegularNms: number;
  sortedValues: number;
  keepIndices: number;
  sortedIndices: number;
  buffer: number;
  selected: number;
}

/** Op data computed in prepare. */
interface DetectionOpData extends OpDataBlock {
  options: DetectionPostProcessOptions;
  numBoxes: number;
  /** Elements per box in box_encodings (>= 4). */
  boxStride: number;
  /** Classes per box in class_predictions, background included. */
  classesWithBackground: number;
  labelOffset: number;
  scratch: Scratch;
  /** The output views of the current invoke (one holder, reused). */
  outputs: Outputs;
  /** Detections the outputs hold (the smallest of detection_boxes / 4, detection_classes, detection_scores). */
  slots: number;
  /** Element counts of the four outputs. */
  outputCounts: Int32Array;
  /** Quantized (uint8/int8) inputs: per input 0..2, the scale and zero point; a float32 input has scale NaN. */
  dequantScale: Float64Array;
  dequantZeroPoint: Int32Array;
  /** Scratch indices of the dequantized box encodings and anchors (4 floats per box), -1 for float32 inputs. */
  boxesStaging: number;
  anchorsStaging: number;
}

/** Input types TFLite's kernel takes (TFLM: float32 only). */
const INPUT_TYPES = [TensorType.FLOAT32, TensorType.UINT8, TensorType.INT8] as const;

/** Reads the options map; KernelError for a malformed map or a missing or mistyped key. */
export function readDetectionOptions(node: Node): DetectionPostProcessOptions {
  const data = node.customInitialData;
  if (!data || data.byteLength === 0) throw new KernelError(OP, node.index, 'custom options (a FlexBuffers map) are missing');
  try {
    const m: FlexMap = parseFlexMap(data);
    return {
      maxDetections: m.int32('max_detections'),
      maxClassesPerDetection: m.int32('max_classes_per_detection'),
      detectionsPerClass: m.isNull('detections_per_class') ? DEFAULT_DETECTIONS_PER_CLASS : m.int32('detections_per_class'),
      useRegularNms: m.isNull('use_regular_nms') ? false : m.bool('use_regular_nms'),
      scoreThreshold: m.float32('nms_score_threshold'),
      iouThreshold: m.float32('nms_iou_threshold'),
      numClasses: m.int32('num_classes'),
      yScale: m.float32('y_scale'),
      xScale: m.float32('x_scale'),
      hScale: m.float32('h_scale'),
      wScale: m.float32('w_scale'),
    };
  } catch (e) {
    if (e instanceof FlexBufferError) throw new KernelError(OP, node.index, `custom options: ${e.message}`);
    throw e;
  }
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 3, 4);
  const block = opDataBlock(OP, node);
  const o = readDetectionOptions(node);
  const boxes = getInput(context, node, 0, OP);
  const predictions = getInput(context, node, 1, OP);
  const anchors = getInput(context, node, 2, OP);
  for (const [t, what] of [
    [boxes, 'box_encodings'],
    [predictions, 'class_predictions'],
    [anchors, 'anchors'],
  ] as const) {
    expectType(OP, node, what, t, INPUT_TYPES);
    if (t.type !== TensorType.FLOAT32 && !(t.params.scale > 0 && Number.isFinite(t.params.scale)))
      throw new KernelError(
        OP,
        node.index,
        `${what} (tensor ${t.index}) is ${t.type === TensorType.UINT8 ? 'uint8' : 'int8'} without a positive scale`,
      );
  }
  if (boxes.dims.length !== 3 || boxes.dims[0] !== 1 || boxes.dims[2]! < 4)
    throw new KernelError(OP, node.index, `box_encodings must have shape [1, boxes, >= 4], got ${shapeString(boxes.dims)}`);
  const numBoxes = boxes.dims[1]!;
  if (predictions.dims.length !== 3 || predictions.dims[0] !== 1 || predictions.dims[1] !== numBoxes)
    throw new KernelError(
      OP,
      node.index,
      `class_predictions must have shape [1, ${numBoxes}, classes], got ${shapeString(predictions.dims)}`,
    );
  if (anchors.dims.length !== 2 || anchors.dims[0] !== numBoxes || anchors.dims[1] !== 4)
    throw new KernelError(OP, node.index, `anchors must have shape [${numBoxes}, 4], got ${shapeString(anchors.dims)}`);
  const classesWithBackground = predictions.dims[2]!;
  if (!(o.numClasses >= 1)) throw new KernelError(OP, node.index, `num_classes must be >= 1, got ${o.numClasses}`);
  const labelOffset = classesWithBackground - o.numClasses;
  if (labelOffset !== 0 && labelOffset !== 1)
    throw new KernelError(
      OP,
      node.index,
      `class_predictions has ${classesWithBackground} classes per box; num_classes ${o.numClasses} allows ${o.numClasses} or ${o.numClasses + 1} (background)`,
    );
  if (!(o.maxDetections >= 0)) throw new KernelError(OP, node.index, `max_detections must be >= 0, got ${o.maxDetections}`);
  if (!(o.iouThreshold > 0 && o.iouThreshold <= 1))
    throw new KernelError(OP, node.index, `nms_iou_threshold must be in (0, 1], got ${o.iouThreshold}`);
  if (o.useRegularNms && !(o.detectionsPerClass > 0))
    throw new KernelError(OP, node.index, `detections_per_class must be > 0, got ${o.detectionsPerClass}`);
  if (!o.useRegularNms && !(o.maxClassesPerDetection > 0))
    throw new KernelError(OP, node.index, `max_classes_per_detection must be > 0, got ${o.maxClassesPerDetection}`);
  const outNames = ['detection_boxes', 'detection_classes', 'detection_scores', 'num_detections'];
  const minCounts = [o.maxDetections * 4, o.maxDetections, o.maxDetections, 1];
  let slots = Number.POSITIVE_INFINITY;
  const outputCounts = new Int32Array(4);
  for (let i = 0; i < 4; i++) {
    const t = getOutput(context, node, i, OP);
    outputCounts[i] = t.elementCount;
    if (i < 3) slots = Math.min(slots, i === 0 ? Math.floor(t.elementCount / 4) : t.elementCount);
    expectType(OP, node, outNames[i]!, t, [TensorType.FLOAT32]);
    if (t.elementCount < minCounts[i]!)
      throw new KernelError(
        OP,
        node.index,
        `${outNames[i]} (shape ${shapeString(t.dims)}) must hold at least ${minCounts[i]} values for max_detections ${o.maxDetections}`,
      );
  }

  // Scratch buffers in TFLM's order and sizes.
  const md = o.maxDetections;
  const regularNeed = md + numBoxes;
  const request = (bytes: number) => context.requestScratchBufferInArena(bytes);
  const scratch: Scratch = {
    activeCandidate: request(numBoxes),
    decodedBoxes: request(numBoxes * 4 * 4),
    scores: request(predictions.dims[1]! * predictions.dims[2]! * 4),
    scoreBuffer: request(numBoxes * 4),
    keepScores: request(numBoxes * 4),
    scoresAfterRegularNms: request(Math.max(md * numBoxes, regularNeed) * 4),
    sortedValues: request(Math.max(md * numBoxes, regularNeed) * 4),
    keepIndices: request(numBoxes * 4),
    sortedIndices: request(Math.max(md * numBoxes, regularNeed, numBoxes) * 4),
    buffer: request(Math.max(Math.max(o.numClasses, md) * numBoxes, regularNeed, numBoxes * o.numClasses) * 4),
    selected: request(Math.max(Math.min(numBoxes, md) * numBoxes, numBoxes) * 4),
  };

  block.setInt32(0, o.maxDetections, true);
  block.setInt32(4, o.maxClassesPerDetection, true);
  block.setInt32(8, o.detectionsPerClass, true);
  block.setFloat32(12, o.scoreThreshold, true);
  block.setFloat32(16, o.iouThreshold, true);
  block.setInt32(20, o.numClasses, true);
  block.setUint8(24, o.useRegularNms ? 1 : 0);
  block.setFloat32(28, o.yScale, true);
  block.setFloat32(32, o.xScale, true);
  block.setFloat32(36, o.hScale, true);
  block.setFloat32(40, o.wScale, true);
  const indices = [
    scratch.activeCandidate,
    scratch.decodedBoxes,
    scratch.scores,
    scratch.scoreBuffer,
    scratch.keepScores,
    scratch.scoresAfterRegularNms,
    scratch.sortedValues,
    scratch.keepIndices,
    scratch.sortedIndices,
    scratch.buffer,
    scratch.selected,
  ];
  indices.forEach((v, i) => block.setInt32(44 + 4 * i, v, true));
  [boxes, predictions, anchors].forEach((t, i) => {
    block.setFloat32(88 + 8 * i, t.params.scale, true);
    block.setInt32(92 + 8 * i, t.params.zeroPoint, true);
  });
  const none = new Float32Array(0);
  const outputs: Outputs = { boxes: none, classes: none, scores: none, count: none };
  const dequantScale = new Float64Array(3);
  const dequantZeroPoint = new Int32Array(3);
  [boxes, predictions, anchors].forEach((t, i) => {
    dequantScale[i] = t.type === TensorType.FLOAT32 ? Number.NaN : f32(t.params.scale);
    dequantZeroPoint[i] = t.params.zeroPoint;
  });
  const data: DetectionOpData = {
    block,
    options: o,
    numBoxes,
    boxStride: boxes.dims[2]!,
    classesWithBackground,
    labelOffset,
    scratch,
    outputs,
    slots,
    outputCounts,
    dequantScale,
    dequantZeroPoint,
    boxesStaging: boxes.type === TensorType.FLOAT32 ? -1 : request(numBoxes * 16),
    anchorsStaging: anchors.type === TensorType.FLOAT32 ? -1 : request(numBoxes * 16),
  };
  fillOpData(OP, node, data);
}

/**
 * TFLite's Dequantizer, float(scale) * (q - zero_point) in float32, over `rows` rows of `take` of `stride`
 * values (box encodings and anchors: the 4 center-size values per box; scores: every value).
 */
function dequantizeRows(
  q: Uint8Array | Int8Array,
  rows: number,
  stride: number,
  take: number,
  scale: number,
  zeroPoint: number,
  out: Float32Array,
): void {
  let o = 0;
  for (let r = 0; r < rows; r++) {
    const base = r * stride;
    for (let k = 0; k < take; k++) out[o++] = f32(scale * (q[base + k]! - zeroPoint));
  }
}

/** Decodes every box (ymin, xmin, ymax, xmax) into `decoded`, as TFLM's DecodeCenterSizeBoxes. */
function decodeBoxes(
  d: DetectionOpData,
  encodings: Float32Array,
  encodingStride: number,
  anchors: Float32Array,
  decoded: Float32Array,
): void {
  const { yScale, xScale, hScale, wScale } = d.options;
  for (let i = 0; i < d.numBoxes; i++) {
    const e = i * encodingStride;
    const a = i * 4;
    const ay = anchors[a]!,
      ax = anchors[a + 1]!,
      ah = anchors[a + 2]!,
      aw = anchors[a + 3]!;
    const ycenter = f32((encodings[e]! / yScale) * ah + ay);
    const xcenter = f32((encodings[e + 1]! / xScale) * aw + ax);
    const halfH = f32(0.5 * Math.exp(encodings[e + 2]! / hScale) * ah);
    const halfW = f32(0.5 * Math.exp(encodings[e + 3]! / wScale) * aw);
    decoded[4 * i] = ycenter - halfH;
    decoded[4 * i + 1] = xcenter - halfW;
    decoded[4 * i + 2] = ycenter + halfH;
    decoded[4 * i + 3] = xcenter + halfW;
  }
}

/** TFLM's ComputeIntersectionOverUnion, in float32. */
export function intersectionOverUnion(boxes: Float32Array, i: number, j: number): number {
  const a = 4 * i,
    b = 4 * j;
  const areaI = f32(f32(boxes[a + 2]! - boxes[a]!) * f32(boxes[a + 3]! - boxes[a + 1]!));
  const areaJ = f32(f32(boxes[b + 2]! - boxes[b]!) * f32(boxes[b + 3]! - boxes[b + 1]!));
  if (areaI <= 0 || areaJ <= 0) return 0;
  const ymin = Math.max(boxes[a]!, boxes[b]!);
  const xmin = Math.max(boxes[a + 1]!, boxes[b + 1]!);
  const ymax = Math.min(boxes[a + 2]!, boxes[b + 2]!);
  const xmax = Math.min(boxes[a + 3]!, boxes[b + 3]!);
  const intersection = f32(Math.max(f32(ymax - ymin), 0) * Math.max(f32(xmax - xmin), 0));
  return f32(intersection / f32(f32(areaI + areaJ) - intersection));
}

/**
 * The first `k` of indices[at .. at + n) (filled with 0..n-1) in decreasing order of values[base + i],
 * ties by increasing index: the part of std::partial_sort TFLM's DecreasingPartialArgSort leaves sorted.
 */
function decreasingPartialArgSort(values: Float32Array, base: number, n: number, k: number, indices: Int32Array, at: number): void {
  for (let i = 0; i < n; i++) indices[at + i] = i;
  for (let i = 0; i < k; i++) {
    let best = i;
    for (let j = i + 1; j < n; j++) {
      const vj = values[base + indices[at + j]!]!;
      const vb = values[base + indices[at + best]!]!;
      if (vj > vb || (vj === vb && indices[at + j]! < indices[at + best]!)) best = j;
    }
    const t = indices[at + i]!;
    indices[at + i] = indices[at + best]!;
    indices[at + best] = t;
  }
}

/** Stable insertion sort of indices[from, to) by decreasing values (TFLM's InsertionSort). */
function insertionSort(indices: Int32Array, from: number, to: number, values: Float32Array): void {
  for (let i = from + 1; i < to; i++) {
    const key = indices[i]!;
    const v = values[key]!;
    let j = i - 1;
    while (j >= from && v > values[indices[j]!]!) {
      indices[j + 1] = indices[j]!;
      j--;
    }
    indices[j + 1] = key;
  }
}

/** TFLM's MergeSort (insertion sort below 20 elements, top-down stable merge above). */
function mergeSort(indices: Int32Array, from: number, n: number, scratch: Int32Array, values: Float32Array): void {
  if (n < 20) {
    insertionSort(indices, from, from + n, values);
    return;
  }
  const half = n >> 1;
  mergeSort(indices, from, half, scratch, values);
  mergeSort(indices, from + half, n - half, scratch, values);
  let left = from;
  let right = from + half;
  const leftEnd = from + half;
  const end = from + n;
  for (let i = 0; i < n; i++) {
    if (left >= leftEnd || (right < end && values[indices[right]!]! > values[indices[left]!]!)) scratch[i] = indices[right++]!;
    else scratch[i] = indices[left++]!;
  }
  for (let i = 0; i < n; i++) indices[from + i] = scratch[i]!;
}

function invalidBox(node: Node, i: number, boxes: Float32Array): never {
  throw new KernelError(
    OP,
    node.index,
    `decoded box ${i} is empty or inverted (ymin ${boxes[4 * i]}, xmin ${boxes[4 * i + 1]}, ymax ${boxes[4 * i + 2]}, xmax ${boxes[4 * i + 3]}); ` +
      'TFLM fails the invoke on such boxes (check the anchors and the box scales)',
  );
}

/**
 * TFLM's NonMaxSuppressionSingleClassHelper: the indices of the selected boxes for one score per box
 * (`scores[scoreBase + box * scoreStride]`), at most `maxDetections`, into `selected`; returns their count.
 */
function nmsSingleClass(
  node: Node,
  d: DetectionOpData,
  context: TfLiteContext,
  scores: Float32Array,
  selected: Int32Array,
  maxDetections: number,
): number {
  const numBoxes = d.numBoxes;
  const threshold = d.options.scoreThreshold;
  const iouThreshold = d.options.iouThreshold;
  const decoded = context.getScratchBuffer(d.scratch.decodedBoxes).f32;
  for (let i = 0; i < numBoxes; i++)
    if (decoded[4 * i]! >= decoded[4 * i + 2]! || decoded[4 * i + 1]! >= decoded[4 * i + 3]!) invalidBox(node, i, decoded);
  const keepIndices = context.getScratchBuffer(d.scratch.keepIndices).i32;
  const keepScores = context.getScratchBuffer(d.scratch.keepScores).f32;
  let kept = 0;
  for (let i = 0; i < numBoxes; i++) {
    if (scores[i]! >= threshold) {
      keepScores[kept] = scores[i]!;
      keepIndices[kept] = i;
      kept++;
    }
  }
  const sorted = context.getScratchBuffer(d.scratch.sortedIndices).i32;
  for (let i = 0; i < kept; i++) sorted[i] = i;
  // keep_indices serves as the merge scratch, then is rebuilt (as TFLM does).
  mergeSort(sorted, 0, kept, keepIndices, keepScores);
  kept = 0;
  for (let i = 0; i < numBoxes; i++) if (scores[i]! >= threshold) keepIndices[kept++] = i;

  const outputSize = Math.min(kept, maxDetections);
  let selectedSize = 0;
  let active = kept;
  const candidate = context.getScratchBuffer(d.scratch.activeCandidate).u8;
  for (let i = 0; i < kept; i++) candidate[i] = 1;
  for (let i = 0; i < kept; i++) {
    if (active === 0 || selectedSize >= outputSize) break;
    if (candidate[i] !== 1) continue;
    const boxI = keepIndices[sorted[i]!]!;
    selected[selectedSize++] = boxI;
    candidate[i] = 0;
    active--;
    for (let j = i + 1; j < kept; j++) {
      if (candidate[j] === 1 && intersectionOverUnion(decoded, boxI, keepIndices[sorted[j]!]!) > iouThreshold) {
        candidate[j] = 0;
        active--;
      }
    }
  }
  return selectedSize;
}

interface Outputs {
  boxes: Float32Array;
  classes: Float32Array;
  scores: Float32Array;
  count: Float32Array;
}

/** TFLM's NonMaxSuppressionMultiClassRegularHelper. */
function regularNms(node: Node, d: DetectionOpData, context: TfLiteContext, scores: Float32Array, out: Outputs): void {
  const { numBoxes, classesWithBackground: ncb, labelOffset } = d;
  const { numClasses, detectionsPerClass, maxDetections } = d.options;
  const classScores = context.getScratchBuffer(d.scratch.scoreBuffer).f32;
  const boxIndices = context.getScratchBuffer(d.scratch.buffer).i32;
  const scoresAfter = context.getScratchBuffer(d.scratch.scoresAfterRegularNms).f32;
  const sortedIndices = context.getScratchBuffer(d.scratch.sortedIndices).i32;
  const sortedValues = context.getScratchBuffer(d.scratch.sortedValues).f32;
  const selected = context.getScratchBuffer(d.scratch.selected).i32;
  let sizeSorted = 0;
  for (let col = 0; col < numClasses; col++) {
    for (let row = 0; row < numBoxes; row++) classScores[row] = scores[row * ncb + col + labelOffset]!;
    const selectedSize = nmsSingleClass(node, d, context, classScores, selected, detectionsPerClass);
    let outputIndex = sizeSorted;
    for (let i = 0; i < selectedSize; i++) {
      const s = selected[i]!;
      boxIndices[outputIndex] = s * ncb + col + labelOffset;
      scoresAfter[outputIndex] = classScores[s]!;
      outputIndex++;
    }
    const toSort = Math.min(outputIndex, maxDetections);
    decreasingPartialArgSort(scoresAfter, 0, outputIndex, toSort, sortedIndices, 0);
    for (let row = 0; row < toSort; row++) {
      const t = sortedIndices[row]!;
      sortedIndices[row] = boxIndices[t]!;
      sortedValues[row] = scoresAfter[t]!;
    }
    for (let row = 0; row < toSort; row++) {
      boxIndices[row] = sortedIndices[row]!;
      scoresAfter[row] = sortedValues[row]!;
    }
    sizeSorted = toSort;
  }
  const decoded = context.getScratchBuffer(d.scratch.decodedBoxes).f32;
  for (let k = 0; k < maxDetections; k++) {
    if (k < sizeSorted) {
      const anchor = Math.floor(boxIndices[k]! / ncb);
      out.boxes[4 * k] = decoded[4 * anchor]!;
      out.boxes[4 * k + 1] = decoded[4 * anchor + 1]!;
      out.boxes[4 * k + 2] = decoded[4 * anchor + 2]!;
      out.boxes[4 * k + 3] = decoded[4 * anchor + 3]!;
      out.classes[k] = boxIndices[k]! - anchor * ncb - labelOffset;
      out.scores[k] = scoresAfter[k]!;
    } else {
      out.boxes[4 * k] = 0;
      out.boxes[4 * k + 1] = 0;
      out.boxes[4 * k + 2] = 0;
      out.boxes[4 * k + 3] = 0;
      out.classes[k] = 0;
      out.scores[k] = 0;
    }
  }
  out.count[0] = sizeSorted;
}

/** TFLM's NonMaxSuppressionMultiClassFastHelper. */
function fastNms(node: Node, d: DetectionOpData, context: TfLiteContext, scores: Float32Array, out: Outputs): void {
  const { numBoxes, classesWithBackground: ncb, labelOffset } = d;
  const { numClasses, maxClassesPerDetection, maxDetections } = d.options;
  const perAnchor = Math.min(maxClassesPerDetection, numClasses);
  const maxScores = context.getScratchBuffer(d.scratch.scoreBuffer).f32;
  const classIndices = context.getScratchBuffer(d.scratch.buffer).i32;
  for (let row = 0; row < numBoxes; row++) {
    const base = row * ncb + labelOffset;
    decreasingPartialArgSort(scores, base, numClasses, perAnchor, classIndices, row * numClasses);
    maxScores[row] = scores[base + classIndices[row * numClasses]!]!;
  }
  const selected = context.getScratchBuffer(d.scratch.selected).i32;
  const selectedSize = nmsSingleClass(node, d, context, maxScores, selected, maxDetections);
  const decoded = context.getScratchBuffer(d.scratch.decodedBoxes).f32;
  let outIndex = 0;
  for (let i = 0; i < selectedSize; i++) {
    const s = selected[i]!;
    const base = s * ncb + labelOffset;
    for (let col = 0; col < perAnchor; col++) {
      // TFLM's index: the output index also advances inside this loop (gaps when perAnchor > 1). With
      // perAnchor > 1 it runs past max_detections, and TFLM (and TFLite) then write past the outputs;
      // here such a detection is skipped (counted in num_detections as TFLM counts it).
      const k = perAnchor * outIndex + col;
      outIndex++;
      if (k >= d.slots) continue;
      const cls = classIndices[s * numClasses + col]!;
      out.boxes[4 * k] = decoded[4 * s]!;
      out.boxes[4 * k + 1] = decoded[4 * s + 1]!;
      out.boxes[4 * k + 2] = decoded[4 * s + 2]!;
      out.boxes[4 * k + 3] = decoded[4 * s + 3]!;
      out.classes[k] = cls;
      out.scores[k] = scores[base + cls]!;
    }
  }
  out.count[0] = outIndex;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<DetectionOpData>(OP, node);
  const n = d.numBoxes;
  const s = d.dequantScale;
  const zp = d.dequantZeroPoint;
  let encodings = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  let stride = d.boxStride;
  if (d.boxesStaging >= 0) {
    const staged = context.getScratchBuffer(d.boxesStaging).f32;
    dequantizeRows(encodings as unknown as Uint8Array | Int8Array, n, stride, 4, s[0]!, zp[0]!, staged);
    encodings = staged;
    stride = 4;
  }
  let scores = context.getEvalTensor(node.inputs[1]!).data as Float32Array;
  if (!Number.isNaN(s[1]!)) {
    const staged = context.getScratchBuffer(d.scratch.scores).f32;
    dequantizeRows(scores as unknown as Uint8Array | Int8Array, 1, 0, n * d.classesWithBackground, s[1]!, zp[1]!, staged);
    scores = staged;
  }
  let anchors = context.getEvalTensor(node.inputs[2]!).data as Float32Array;
  if (d.anchorsStaging >= 0) {
    const staged = context.getScratchBuffer(d.anchorsStaging).f32;
    dequantizeRows(anchors as unknown as Uint8Array | Int8Array, n, 4, 4, s[2]!, zp[2]!, staged);
    anchors = staged;
  }
  decodeBoxes(d, encodings, stride, anchors, context.getScratchBuffer(d.scratch.decodedBoxes).f32);
  const out = d.outputs;
  out.boxes = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  out.classes = context.getEvalTensor(node.outputs[1]!).data as Float32Array;
  out.scores = context.getEvalTensor(node.outputs[2]!).data as Float32Array;
  out.count = context.getEvalTensor(node.outputs[3]!).data as Float32Array;
  // Slots an NMS does not fill (fast NMS's unused slots and gaps, any room past max_detections): 0
  // rather than the arena's old bytes, which TFLM leaves there.
  const counts = d.outputCounts;
  out.boxes.fill(0, 0, counts[0]);
  out.classes.fill(0, 0, counts[1]);
  out.scores.fill(0, 0, counts[2]);
  out.count.fill(0, 0, counts[3]);
  if (d.options.useRegularNms) regularNms(node, d, context, scores, out);
  else fastNms(node, d, context, scores, out);
}

/** TFLite_Detection_PostProcess registration (custom op): float32, and TFLite's uint8/int8 inputs. */
export const DETECTION_POSTPROCESS: Registration = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, INPUT_TYPES),
  init: (context) => allocateOpDataBlock(context, OP_DATA_DETECTION_POSTPROCESS_BYTES),
  prepare,
  invoke,
};
