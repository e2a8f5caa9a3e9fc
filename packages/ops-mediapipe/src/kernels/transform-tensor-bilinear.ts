/**
 * TransformTensorBilinear (MediaPipe mediapipe/util/tflite/operations/transform_tensor_bilinear.cc,
 * options parsed as tensorflow/lite/delegates/gpu/common/mediapipe/transform_tensor_bilinear.cc): samples
 * an image through an affine matrix with bilinear interpolation, float32 only.
 *
 * Inputs: 0 image [1, H, W, C], 1 matrix (16 values, e.g. [1, 4, 4]). Output: [1, OH, OW, C]. For each
 * output pixel (x, y), the source point is (m0·x + m1·y + m2·0 + m3, m4·x + m5·y + m6·0 + m7) (float32
 * dot products); a point outside [0, W - 1] × [0, H - 1] gives 0, otherwise the four neighbours are
 * blended (a neighbour past the edge reads 0).
 *
 * Version 2 (custom name `TransformTensorBilinear`, the one MediaPipe's CPU resolver registers) first
 * moves the matrix to pixel centers (align-corners correction: m3 += 0.5·m0 + 0.5·m1 - 0.5, likewise m7).
 * Options (FlexBuffers, optional): output_height, output_width — checked against the output shape.
 *
 * Version 1 (custom name `TransformTensor`): no correction. Options (FlexBuffers, optional): mode (must be
 * "bilinear"), output_size ([height, width], checked against the output shape).
 *
 * MediaPipe ignores the batch dimension (it reads batch 0 only), so prepare requires batch 1.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dot4 } from './float-matrix-common.js';
import { checkBatchOne, checkElementCount, checkFloat32Node, float32Supports } from './mediapipe-common.js';
import { flexOption, readFlexOptions, shapeText } from '@micrort/kernel-support';
import { expectRank, opData } from '@micrort/kernel-support';

const OP = 'TransformTensorBilinear';
const OP_V1 = 'TransformTensor';
const IMAGE = 0;
const MATRIX = 1;
const f = Math.fround;

interface TransformTensorData {
  alignCorners: boolean;
  inHeight: number;
  inWidth: number;
  channels: number;
  outHeight: number;
  outWidth: number;
}

const supports = float32Supports(2, 1);

function init(): TransformTensorData {
  return { alignCorners: false, inHeight: 0, inWidth: 0, channels: 0, outHeight: 0, outWidth: 0 };
}

/** Checks shared by both versions; returns nothing, fills the shapes. */
function prepareCommon(op: string, context: TfLiteContext, node: Node, d: TransformTensorData): void {
  checkFloat32Node(op, context, node, 2, 1);
  const image = context.getTensor(node.inputs[IMAGE]!);
  const output = context.getTensor(node.outputs[0]!);
  expectRank(op, node, 'input', image, 4);
  expectRank(op, node, 'output', output, 4);
  checkBatchOne(op, node, 'input', image);
  if (output.dims[0] !== 1 || output.dims[3] !== image.dims[3])
    throw new KernelError(
      op,
      node.index,
      `output (tensor ${output.index}) has shape ${shapeText(output.dims)}, expected [1, height, width, ${image.dims[3]}] (batch 1, the input's channels)`,
    );
  checkElementCount(op, node, 'matrix', context.getTensor(node.inputs[MATRIX]!), 16);
  d.inHeight = image.dims[1]!;
  d.inWidth = image.dims[2]!;
  d.channels = image.dims[3]!;
  d.outHeight = output.dims[1]!;
  d.outWidth = output.dims[2]!;
}

/** Throws unless an output size given by the options matches the output tensor. */
function checkOutputSize(op: string, node: Node, d: TransformTensorData, what: string, height: number, width: number): void {
  if (height !== d.outHeight || width !== d.outWidth)
    throw new KernelError(op, node.index, `option ${what} is ${height}x${width} but the output is ${d.outHeight}x${d.outWidth}`);
}

function prepareV2(context: TfLiteContext, node: Node): void {
  const d = opData<TransformTensorData>(OP, node);
  prepareCommon(OP, context, node, d);
  d.alignCorners = true;
  const bytes = node.customInitialData;
  if (!bytes || bytes.byteLength === 0) return;
  const options = readFlexOptions(OP, node);
  const height = options.has('output_height') ? flexOption(OP, node, () => options.int32('output_height')) : d.outHeight;
  const width = options.has('output_width') ? flexOption(OP, node, () => options.int32('output_width')) : d.outWidth;
  checkOutputSize(OP, node, d, 'output_height x output_width', height, width);
}

function prepareV1(context: TfLiteContext, node: Node): void {
  const d = opData<TransformTensorData>(OP, node);
  prepareCommon(OP_V1, context, node, d);
  d.alignCorners = false;
  const bytes = node.customInitialData;
  if (!bytes || bytes.byteLength === 0) return;
  const options = readFlexOptions(OP_V1, node);
  if (options.has('mode')) {
    const mode = flexOption(OP_V1, node, () => options.string('mode'));
    if (mode !== 'bilinear')
      throw new KernelError(OP_V1, node.index, `option mode is "${mode}"; only "bilinear" interpolation is supported`);
  }
  if (options.has('output_size')) {
    const size = flexOption(OP_V1, node, () => options.int32Vector('output_size'));
    if (size.length !== 2)
      throw new KernelError(OP_V1, node.index, `option output_size has ${size.length} values, expected 2 ([height, width])`);
    checkOutputSize(OP_V1, node, d, 'output_size', size[0]!, size[1]!);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<TransformTensorData>(OP, node);
  const image = context.getEvalTensor(node.inputs[IMAGE]!).data as Float32Array;
  const m = context.getEvalTensor(node.inputs[MATRIX]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { inHeight, inWidth, channels, outHeight, outWidth } = d;
  const m0 = m[0]!;
  const m1 = m[1]!;
  const m2 = m[2]!;
  let m3 = m[3]!;
  const m4 = m[4]!;
  const m5 = m[5]!;
  const m6 = m[6]!;
  let m7 = m[7]!;
  if (d.alignCorners) {
    // float += double expression: the sum is formed in double, then stored as float
    m3 = f(m3 + (m0 * 0.5 + m1 * 0.5 - 0.5));
    m7 = f(m7 + (m4 * 0.5 + m5 * 0.5 - 0.5));
  }
  const maxX = inWidth - 1;
  const maxY = inHeight - 1;
  let o = 0;
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      const tx = dot4(m0, m1, m2, m3, x, y, 0, 1);
      const ty = dot4(m4, m5, m6, m7, x, y, 0, 1);
      if (tx < 0 || tx > maxX || ty < 0 || ty > maxY) {
        for (let c = 0; c < channels; c++) out[o++] = 0;
        continue;
      }
      const x0 = Math.floor(tx);
      const y0 = Math.floor(ty);
      const right = f(tx - x0);
      const lower = f(ty - y0);
      // the four neighbours; one past the right or bottom edge reads 0
      const hasRight = x0 + 1 <= maxX;
      const hasLower = y0 + 1 <= maxY;
      const p11 = (y0 * inWidth + x0) * channels;
      const p21 = p11 + channels;
      const p12 = p11 + inWidth * channels;
      const p22 = p12 + channels;
      for (let c = 0; c < channels; c++) {
        const q11 = image[p11 + c]!;
        const q21 = hasRight ? image[p21 + c]! : 0;
        const q12 = hasLower ? image[p12 + c]! : 0;
        const q22 = hasRight && hasLower ? image[p22 + c]! : 0;
        // (1.0 - right) is a double in the C++, so each blend is formed in double and stored as float
        const upper = f((1.0 - right) * q11 + f(right * q21));
        const low = f((1.0 - right) * q12 + f(right * q22));
        out[o++] = f(lower * low) + (1.0 - lower) * upper;
      }
    }
  }
}

/** TransformTensorBilinear version 2 (custom name `TransformTensorBilinear`, op version 2). */
export const TRANSFORM_TENSOR_BILINEAR_V2: Registration<TransformTensorData> = {
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

/** TransformTensorBilinear version 1 (custom name `TransformTensor`, op version 1). */
export const TRANSFORM_TENSOR_BILINEAR_V1: Registration<TransformTensorData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP_V1,
  version: 1,
  provider: PROVIDER,
  name: `${OP_V1}/v1`,
  supports,
  init,
  prepare: prepareV1,
  invoke,
};
