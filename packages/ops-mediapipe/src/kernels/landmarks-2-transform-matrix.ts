/**
 * Landmarks2TransformMatrix (MediaPipe mediapipe/util/tflite/operations/landmarks_to_transform_matrix.cc,
 * options parsed as tensorflow/lite/delegates/gpu/common/mediapipe/landmarks_to_transform_matrix.cc):
 * from landmarks, the 4×4 matrix of a rotated crop around a subset of them, float32 only.
 *
 * Version 2 (the one MediaPipe's CPU resolver registers): input [B, N, D] read as flat (x, y, z)
 * triples, output [1, 4, 4]. The rotation is `target_rotation_radians - atan2(right.y - left.y,
 * right.x - left.x)`; the crop is the bounding box of the subset landmarks in the rotated frame; the
 * matrix is shift(crop center) · rotate(-rotation) · scale(scale · crop size / output size) ·
 * shift(-output size / 2). Options (FlexBuffers): subset_idxs (int vector), left_rotation_idx,
 * right_rotation_idx, target_rotation_radians, output_height, output_width, scale_x, scale_y.
 *
 * Version 1: input [1, 1, 1, 3N], output [1, 4, 4]; the inverse transform of the rotated bounding box
 * of the subset scaled by bbox_size_multiplier, in `landmarks_range` coordinates, from an output of
 * `output_hw` to an input of `input_hw` pixels. Options (FlexBuffers): input_hw, output_hw (int [h, w]),
 * dimensions (3), landmarks_range, bbox_size_multiplier, left_rotation_idx, right_rotation_idx, subset.
 *
 * A subset is a flat index list read as pairs (an odd last index pairs with itself). Prepare checks what
 * MediaPipe checks in Eval, and also that every index names a landmark of the input (MediaPipe reads
 * past the tensor otherwise). Float math follows the C++ types: float32 storage and products, matrix
 * products as `float-matrix-common.ts`; cos/sin/atan in double, rounded where the C++ stores a float.
 */
import { BuiltinOperator, KernelError, type FlexMap, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { matMul, setIdentity4, setMat3 } from './float-matrix-common.js';
import { checkFloat32Node, checkShape, float32Supports, subsetPairs } from './mediapipe-common.js';
import { flexOption, readFlexOptions, shapeText } from '@micrort/kernel-support';
import { expectRank, opData } from '@micrort/kernel-support';

const OP = 'Landmarks2TransformMatrix';
const OUTPUT_SHAPE = [1, 4, 4];
const f = Math.fround;

interface Landmarks2TransformMatrixData {
  /** The subset as index pairs (persistent arena buffer). */
  subset: Int32Array;
  pairs: number;
  leftIdx: number;
  rightIdx: number;
  // version 2
  targetRotation: number;
  outputHeight: number;
  outputWidth: number;
  scaleX: number;
  scaleY: number;
  // version 1
  landmarksRange: number;
  bboxSizeMultiplier: number;
  inputH: number;
  inputW: number;
  outputH: number;
  outputW: number;
  /** Matrix work space (v1: 3×3 in the first 9 floats; v2: 4×4). */
  m0: Float32Array;
  m1: Float32Array;
  m2: Float32Array;
}

const supports = float32Supports(1, 1);

function init(): Landmarks2TransformMatrixData {
  return {
    subset: new Int32Array(0),
    pairs: 0,
    leftIdx: 0,
    rightIdx: 0,
    targetRotation: 0,
    outputHeight: 1,
    outputWidth: 1,
    scaleX: 1,
    scaleY: 1,
    landmarksRange: 1,
    bboxSizeMultiplier: 1,
    inputH: 1,
    inputW: 1,
    outputH: 1,
    outputW: 1,
    m0: new Float32Array(16),
    m1: new Float32Array(16),
    m2: new Float32Array(16),
  };
}

/** Reads an integer option, a KernelError when absent or not an integer. */
function int(node: Node, options: FlexMap, key: string): number {
  return flexOption(OP, node, () => options.int32(key));
}

/** Reads a float option (stored as float32 by MediaPipe's attribute structs). */
function float(node: Node, options: FlexMap, key: string): number {
  return flexOption(OP, node, () => options.float32(key));
}

/** Reads an int vector option of exactly `length` values. */
function pair(node: Node, options: FlexMap, key: string): [number, number] {
  const v = flexOption(OP, node, () => options.int32Vector(key));
  if (v.length !== 2) throw new KernelError(OP, node.index, `option ${key} has ${v.length} values, expected 2 ([height, width])`);
  return [v[0]!, v[1]!];
}

function fail(node: Node, detail: string): never {
  throw new KernelError(OP, node.index, detail);
}

/** Validates the landmark indices against the input and stores the subset pairs in the arena. */
function prepareIndices(
  context: TfLiteContext,
  node: Node,
  d: Landmarks2TransformMatrixData,
  subsetKey: string,
  flat: number[],
  landmarks: number,
  values: number,
): void {
  if (flat.length === 0) fail(node, `option ${subsetKey} is empty`);
  const check = (what: string, idx: number) => {
    if (idx < 0) fail(node, `option ${what} is ${idx}, must not be negative`);
    if (idx >= landmarks) fail(node, `option ${what} is ${idx} but the input holds ${landmarks} landmarks (${values} values)`);
  };
  check('left_rotation_idx', d.leftIdx);
  check('right_rotation_idx', d.rightIdx);
  flat.forEach((idx, i) => check(`${subsetKey}[${i}]`, idx));
  const pairs = subsetPairs(flat);
  d.pairs = pairs.length / 2;
  d.subset = context.allocatePersistentBuffer(pairs.length * 4).i32;
  d.subset.set(pairs);
}

function prepareV2(context: TfLiteContext, node: Node): void {
  const d = opData<Landmarks2TransformMatrixData>(OP, node);
  checkFloat32Node(OP, context, node, 1, 1);
  const input = context.getTensor(node.inputs[0]!);
  expectRank(OP, node, 'input', input, 3);
  checkShape(OP, node, 'output', context.getTensor(node.outputs[0]!), OUTPUT_SHAPE);
  const options = readFlexOptions(OP, node);
  const flat = flexOption(OP, node, () => options.int32Vector('subset_idxs'));
  d.leftIdx = int(node, options, 'left_rotation_idx');
  d.rightIdx = int(node, options, 'right_rotation_idx');
  d.targetRotation = float(node, options, 'target_rotation_radians');
  d.outputHeight = int(node, options, 'output_height');
  d.outputWidth = int(node, options, 'output_width');
  d.scaleX = float(node, options, 'scale_x');
  d.scaleY = float(node, options, 'scale_y');
  if (d.outputHeight <= 0) fail(node, `option output_height is ${d.outputHeight}, must be positive`);
  if (d.outputWidth <= 0) fail(node, `option output_width is ${d.outputWidth}, must be positive`);
  if (!(d.scaleX > 0)) fail(node, `option scale_x is ${d.scaleX}, must be positive`);
  if (!(d.scaleY > 0)) fail(node, `option scale_y is ${d.scaleY}, must be positive`);
  prepareIndices(context, node, d, 'subset_idxs', flat, Math.floor(input.elementCount / 3), input.elementCount);
}

function invokeV2(context: TfLiteContext, node: Node): void {
  const d = opData<Landmarks2TransformMatrixData>(OP, node);
  const lm = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { subset, m0, m1, m2 } = d;

  // EstimateRotationRadians
  const l = d.leftIdx * 3;
  const r = d.rightIdx * 3;
  const rotation = f(d.targetRotation - f(Math.atan2(f(lm[r + 1]! - lm[l + 1]!), f(lm[r]! - lm[l]!))));

  // EstimateCenterAndSize: the subset's (x, y, 1) times [[c, -s, 0], [s, c, 0], [0, 0, 1]] (Mat3's float
  // row sums, written out: a helper returning a double would box it), bounding box, center rotated back
  const c = f(Math.cos(rotation));
  const s = f(Math.sin(rotation));
  const p0 = subset[0]! * 3;
  let maxX = f(f(f(c * lm[p0]!) + f(-s * lm[p0 + 1]!)) + 0);
  let maxY = f(f(f(s * lm[p0]!) + f(c * lm[p0 + 1]!)) + 0);
  let minX = maxX;
  let minY = maxY;
  const n = d.pairs * 2;
  for (let i = 1; i < n; i++) {
    const p = subset[i]! * 3;
    const x = lm[p]!;
    const y = lm[p + 1]!;
    const rx = f(f(f(c * x) + f(-s * y)) + 0);
    const ry = f(f(f(s * x) + f(c * y)) + 0);
    if (maxX < rx) maxX = rx;
    if (maxY < ry) maxY = ry;
    if (minX > rx) minX = rx;
    if (minY > ry) minY = ry;
  }
  const cropWidth = f(maxX - minX);
  const cropHeight = f(maxY - minY);
  const centerX = f(f(minX + maxX) / 2);
  const centerY = f(f(minY + maxY) / 2);
  // back by [[cos(-r), -sin(-r), 0], [sin(-r), cos(-r), 0], [0, 0, 1]]; the center's z is 1
  const ci = f(Math.cos(-rotation));
  const si = f(Math.sin(-rotation));
  const cropX = f(f(f(ci * centerX) + f(-si * centerY)) + 0);
  const cropY = f(f(f(si * centerX) + f(ci * centerY)) + 0);

  // t = shift(crop) · rotate(-rotation) · scale · shift(-output / 2), each product in float32
  setIdentity4(m0);
  setIdentity4(m1);
  m1[3] = cropX;
  m1[7] = cropY;
  matMul(4, m0, m1, m2);
  const back = f(-rotation);
  setIdentity4(m1);
  m1[0] = f(Math.cos(back));
  m1[1] = -f(Math.sin(back));
  m1[4] = f(Math.sin(back));
  m1[5] = f(Math.cos(back));
  matMul(4, m2, m1, m0);
  setIdentity4(m1);
  m1[0] = f(f(d.scaleX * cropWidth) / d.outputWidth);
  m1[5] = f(f(d.scaleY * cropHeight) / d.outputHeight);
  matMul(4, m0, m1, m2);
  setIdentity4(m1);
  m1[3] = -1.0 * (d.outputWidth / 2.0);
  m1[7] = -1.0 * (d.outputHeight / 2.0);
  matMul(4, m2, m1, out);
}

function prepareV1(context: TfLiteContext, node: Node): void {
  const d = opData<Landmarks2TransformMatrixData>(OP, node);
  checkFloat32Node(OP, context, node, 1, 1);
  const input = context.getTensor(node.inputs[0]!);
  expectRank(OP, node, 'input', input, 4);
  if (input.dims[0] !== 1 || input.dims[1] !== 1 || input.dims[2] !== 1)
    fail(node, `input (tensor ${input.index}) must have shape [1, 1, 1, 3N], has ${shapeText(input.dims)}`);
  checkShape(OP, node, 'output', context.getTensor(node.outputs[0]!), OUTPUT_SHAPE);
  const options = readFlexOptions(OP, node);
  [d.inputH, d.inputW] = pair(node, options, 'input_hw');
  [d.outputH, d.outputW] = pair(node, options, 'output_hw');
  const dimensions = int(node, options, 'dimensions');
  d.landmarksRange = int(node, options, 'landmarks_range');
  d.bboxSizeMultiplier = float(node, options, 'bbox_size_multiplier');
  d.leftIdx = int(node, options, 'left_rotation_idx');
  d.rightIdx = int(node, options, 'right_rotation_idx');
  const flat = flexOption(OP, node, () => options.int32Vector('subset'));
  if (d.bboxSizeMultiplier === 0) fail(node, 'option bbox_size_multiplier is 0');
  if (dimensions !== 3) fail(node, `option dimensions is ${dimensions}, must be 3`);
  if (d.inputH <= 0 || d.inputW <= 0) fail(node, `option input_hw is [${d.inputH}, ${d.inputW}], both must be positive`);
  if (d.outputH <= 0 || d.outputW <= 0) fail(node, `option output_hw is [${d.outputH}, ${d.outputW}], both must be positive`);
  if (d.landmarksRange <= 0) fail(node, `option landmarks_range is ${d.landmarksRange}, must be positive`);
  prepareIndices(context, node, d, 'subset', flat, Math.floor(input.elementCount / 3), input.elementCount);
}

function invokeV1(context: TfLiteContext, node: Node): void {
  const d = opData<Landmarks2TransformMatrixData>(OP, node);
  const lm = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { subset, m0, m1, m2, landmarksRange: range } = d;

  const l = d.leftIdx * 3;
  const r = d.rightIdx * 3;
  const alpha = -f(Math.atan(f(f(lm[r + 1]! - lm[l + 1]!) / f(lm[r]! - lm[l]!))));
  const cosA = Math.cos(alpha);
  const sinA = Math.sin(alpha);
  let maxX = -100000;
  let maxY = -100000;
  let minX = 100000;
  let minY = 100000;
  const n = d.pairs * 2;
  for (let i = 0; i < n; i++) {
    const p = subset[i]! * 3;
    const x = lm[p]!;
    const y = lm[p + 1]!;
    const rx = f(x * cosA - y * sinA);
    const ry = f(x * sinA + y * cosA);
    // std::max(a, b) is `a < b ? b : a`, std::min(a, b) is `b < a ? b : a`
    if (maxX < rx) maxX = rx;
    if (maxY < ry) maxY = ry;
    if (rx < minX) minX = rx;
    if (ry < minY) minY = ry;
  }
  const bboxX = f(f(maxX - minX) * d.bboxSizeMultiplier);
  const bboxY = f(f(maxY - minY) * d.bboxSizeMultiplier);
  const middleX = f(f(maxX + minX) / 2.0);
  const middleY = f(f(maxY + minY) / 2.0);
  const cosB = Math.cos(-alpha);
  const sinB = Math.sin(-alpha);
  const rotatedMiddleX = f(middleX * cosB - middleY * sinB);
  const rotatedMiddleY = f(middleX * sinB + middleY * cosB);

  // itm = to_absolute · rotation · scale · to_relative, left to right
  const inW = (d.inputW - 1.0) / 2.0;
  const inH = (d.inputH - 1.0) / 2.0;
  setMat3(m0, inW, 0, inW, 0, inH, inH, 0, 0, 1);
  setMat3(m1, cosB, -sinB, f(rotatedMiddleX / range) * 2.0 - 1.0, sinB, cosB, f(rotatedMiddleY / range) * 2.0 - 1.0, 0, 0, 1);
  matMul(3, m0, m1, m2);
  setMat3(m1, f(bboxX / range), 0, 0, 0, f(bboxY / range), 0, 0, 0, 1);
  matMul(3, m2, m1, m0);
  setMat3(m1, 2.0 / (d.outputW - 1.0), 0, -1, 0, 2.0 / (d.outputH - 1.0), -1, 0, 0, 1);
  matMul(3, m0, m1, m2);

  out[0] = m2[0]!;
  out[1] = m2[1]!;
  out[2] = 0;
  out[3] = m2[2]!;
  out[4] = m2[3]!;
  out[5] = m2[4]!;
  out[6] = 0;
  out[7] = m2[5]!;
  out[8] = m2[6]!;
  out[9] = m2[7]!;
  out[10] = m2[8]!;
  out[11] = 0;
  out[12] = 0;
  out[13] = 0;
  out[14] = 0;
  out[15] = 1;
}

/** Landmarks2TransformMatrix version 1 (register for op version 1 only). */
export const LANDMARKS_2_TRANSFORM_MATRIX_V1: Registration<Landmarks2TransformMatrixData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: `${OP}/v1`,
  supports,
  init,
  prepare: prepareV1,
  invoke: invokeV1,
};

/** Landmarks2TransformMatrix version 2 (register for op version 2 only). */
export const LANDMARKS_2_TRANSFORM_MATRIX_V2: Registration<Landmarks2TransformMatrixData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 2,
  provider: PROVIDER,
  name: `${OP}/v2`,
  supports,
  init,
  prepare: prepareV2,
  invoke: invokeV2,
};
