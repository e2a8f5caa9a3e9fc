/**
 * TransformLandmarks (MediaPipe mediapipe/util/tflite/operations/transform_landmarks.cc, options parsed
 * as tensorflow/lite/delegates/gpu/common/mediapipe/transform_landmarks.cc): applies the first two rows
 * of a 4×4 matrix to 2-D or 3-D landmarks, float32 only. x' = m0·x + m1·y + m2·0 + m3, y' = m4·x + m5·y
 * + m6·0 + m7 (each a float32 dot product); z, when present, is copied.
 *
 * Version 2 (the one MediaPipe's CPU resolver registers): inputs 0 landmarks [1, N, D] with D = 2 or 3,
 * 1 matrix (16 values, e.g. [1, 4, 4]); output [1, N, D]. No options.
 *
 * Version 1: inputs 0 landmarks [1, H, W, C] (C a multiple of `dimensions`), 1 matrix; output the same
 * shape. Options (FlexBuffers, both optional): dimensions (2 or 3, default 3), scale (non-zero, default
 * 1; multiplies the translation m3 and m7).
 *
 * MediaPipe ignores the batch dimension (it processes batch 0 only), so prepare requires it to be 1.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dot4 } from './float-matrix-common.js';
import { checkBatchOne, checkElementCount, checkFloat32Node, checkShape, float32Supports } from './mediapipe-common.js';
import { flexOption, readFlexOptions, shapeText } from '@micrort/kernel-support';
import { expectRank, opData } from '@micrort/kernel-support';

const OP = 'TransformLandmarks';
const LANDMARKS = 0;
const MATRIX = 1;
const f = Math.fround;

interface TransformLandmarksData {
  /** 2 or 3. */
  dimensions: number;
  /** Multiplies the translation (version 1), 1 in version 2. */
  scale: number;
  /** Landmarks to transform. */
  count: number;
  /** Values from one landmark to the next (version 1: `dimensions`; version 2: D). */
  stride: number;
}

const supports = float32Supports(2, 1);

function init(): TransformLandmarksData {
  return { dimensions: 3, scale: 1, count: 0, stride: 3 };
}

/** Checks shared by both versions: types, rank, batch 1, output shape, a 16-value matrix. */
function prepareCommon(context: TfLiteContext, node: Node, rank: number): number[] {
  checkFloat32Node(OP, context, node, 2, 1);
  const landmarks = context.getTensor(node.inputs[LANDMARKS]!);
  expectRank(OP, node, 'landmarks', landmarks, rank);
  checkBatchOne(OP, node, 'landmarks', landmarks);
  checkShape(OP, node, 'output', context.getTensor(node.outputs[0]!), landmarks.dims);
  checkElementCount(OP, node, 'matrix', context.getTensor(node.inputs[MATRIX]!), 16);
  return Array.from(landmarks.dims);
}

function prepareV2(context: TfLiteContext, node: Node): void {
  const d = opData<TransformLandmarksData>(OP, node);
  const dims = prepareCommon(context, node, 3);
  const depth = dims[2]!;
  if (depth !== 2 && depth !== 3)
    throw new KernelError(OP, node.index, `landmarks have ${depth} values each (shape ${shapeText(dims)}), must be 2 or 3`);
  d.dimensions = depth;
  d.stride = depth;
  d.count = dims[1]!;
  d.scale = 1;
}

function prepareV1(context: TfLiteContext, node: Node): void {
  const d = opData<TransformLandmarksData>(OP, node);
  const dims = prepareCommon(context, node, 4);
  d.dimensions = 3;
  d.scale = 1;
  const bytes = node.customInitialData;
  if (bytes && bytes.byteLength > 0) {
    const options = readFlexOptions(OP, node);
    if (options.has('dimensions')) d.dimensions = flexOption(OP, node, () => options.int32('dimensions'));
    if (options.has('scale')) d.scale = flexOption(OP, node, () => options.float32('scale'));
  }
  if (d.dimensions !== 2 && d.dimensions !== 3)
    throw new KernelError(OP, node.index, `option dimensions is ${d.dimensions}, must be 2 or 3`);
  if (d.scale === 0) throw new KernelError(OP, node.index, 'option scale is 0');
  const channels = dims[3]!;
  if (channels % d.dimensions !== 0)
    throw new KernelError(OP, node.index, `landmarks have ${channels} channels, not a multiple of dimensions ${d.dimensions}`);
  d.stride = d.dimensions;
  d.count = (dims[1]! * dims[2]! * channels) / d.dimensions;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<TransformLandmarksData>(OP, node);
  const lm = context.getEvalTensor(node.inputs[LANDMARKS]!).data as Float32Array;
  const m = context.getEvalTensor(node.inputs[MATRIX]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { count, stride, dimensions } = d;
  const m0 = m[0]!;
  const m1 = m[1]!;
  const m2 = m[2]!;
  const m3 = f(m[3]! * d.scale);
  const m4 = m[4]!;
  const m5 = m[5]!;
  const m6 = m[6]!;
  const m7 = f(m[7]! * d.scale);
  for (let i = 0, p = 0; i < count; i++, p += stride) {
    const x = lm[p]!;
    const y = lm[p + 1]!;
    const tx = dot4(m0, m1, m2, m3, x, y, 0, 1);
    const ty = dot4(m4, m5, m6, m7, x, y, 0, 1);
    out[p] = tx;
    out[p + 1] = ty;
    if (dimensions === 3) out[p + 2] = lm[p + 2]!;
  }
}

/** TransformLandmarks version 1 (register for op version 1 only). */
export const TRANSFORM_LANDMARKS_V1: Registration<TransformLandmarksData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: `${OP}/v1`,
  supports,
  init,
  prepare: prepareV1,
  invoke,
};

/** TransformLandmarks version 2 (register for op version 2 only). */
export const TRANSFORM_LANDMARKS_V2: Registration<TransformLandmarksData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 2,
  provider: PROVIDER,
  name: `${OP}/v2`,
  supports,
  init,
  prepare: prepareV2,
  invoke,
};
