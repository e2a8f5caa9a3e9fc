/**
 * The geometry of a transposed convolution, computed once for every kernel package: TFLite's builtin
 * TRANSPOSE_CONV (shapes from the tensors, padding from the *output* size as TFLM's transpose_conv.cc,
 * the output_shape input checked against the output) and MediaPipe's `Convolution2DTransposeBias`
 * custom op (mediapipe/util/tflite/operations/transpose_conv_bias.cc: a `TfLiteTransposeConvParams`
 * struct as custom options, the output size computed from the input's).
 */
import {
  KernelError,
  Padding,
  TensorType,
  getInput,
  getOptionalInput,
  getOutput,
  numElements,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { expectConvRanks } from './conv.js';
import { setOutputShape } from './output-shape.js';
import { expectPositive, expectRank, shapeText } from './checks.js';
import { computeOutSize, computePaddingHeightWidth } from './padding.js';

/** Shapes, strides and leading padding of a transposed convolution (dilation is always 1). */
export interface TransposeConvShape {
  batches: number;
  inHeight: number;
  inWidth: number;
  inDepth: number;
  outHeight: number;
  outWidth: number;
  outDepth: number;
  filterHeight: number;
  filterWidth: number;
  strideHeight: number;
  strideWidth: number;
  /** Output rows before the first input row's window (the window of input row `i` starts at `i * stride - pad`). */
  padHeight: number;
  padWidth: number;
}

/** The options of TRANSPOSE_CONV the geometry needs. */
export interface TransposeConvStrides {
  padding: Padding;
  strideH: number;
  strideW: number;
}

/**
 * TRANSPOSE_CONV's geometry (input [N, H, W, Cin], filter [Cout, KH, KW, Cin], output [N, OH, OW, Cout]):
 * throws a KernelError when the batch, depths or spatial sizes disagree (a convolution of the output with
 * the same filter, stride and padding must give the input size back) or a stride is not positive.
 */
export function transposeConvShape(
  op: string,
  node: Node,
  o: TransposeConvStrides,
  input: Tensor,
  filter: Tensor,
  output: Tensor,
): TransposeConvShape {
  const fail = (detail: string): never => {
    throw new KernelError(op, node.index, detail);
  };
  expectPositive(op, node, 'stride_h', o.strideH);
  expectPositive(op, node, 'stride_w', o.strideW);
  const [batches, inHeight, inWidth, inDepth] = input.dims as unknown as number[];
  const [outDepth, filterHeight, filterWidth, filterDepth] = filter.dims as unknown as number[];
  const outHeight = output.dims[1]!;
  const outWidth = output.dims[2]!;
  if (output.dims[0] !== batches) fail(`output batch ${output.dims[0]} differs from input batch ${batches}`);
  if (filterDepth !== inDepth) fail(`filter (tensor ${filter.index}) input depth ${filterDepth} differs from input depth ${inDepth}`);
  if (output.dims[3] !== outDepth)
    fail(`output has ${output.dims[3]} channels but filter (tensor ${filter.index}) has ${outDepth} output channels`);
  const pad = computePaddingHeightWidth(o.strideH, o.strideW, 1, 1, outHeight, outWidth, filterHeight!, filterWidth!, o.padding);
  const wantH = computeOutSize(o.padding, outHeight, filterHeight!, o.strideH);
  const wantW = computeOutSize(o.padding, outWidth, filterWidth!, o.strideW);
  if (wantH !== inHeight || wantW !== inWidth) {
    fail(
      `input spatial size ${inHeight}x${inWidth} does not match output ${outHeight}x${outWidth} for filter ` +
        `${filterHeight}x${filterWidth}, stride ${o.strideH}x${o.strideW}, padding ${Padding[o.padding]} (expected ${wantH}x${wantW})`,
    );
  }
  return {
    batches: batches!,
    inHeight: inHeight!,
    inWidth: inWidth!,
    inDepth: inDepth!,
    outHeight,
    outWidth,
    outDepth: outDepth!,
    filterHeight: filterHeight!,
    filterWidth: filterWidth!,
    strideHeight: o.strideH,
    strideWidth: o.strideW,
    padHeight: pad.height,
    padWidth: pad.width,
  };
}

/**
 * Checks TRANSPOSE_CONV's output_shape input: int32 [4] (or empty, as TFLM's tests pass it); a constant
 * one must equal the output's shape.
 */
export function expectTransposeConvOutputShape(op: string, node: Node, shape: Tensor, output: Tensor): void {
  if (shape.type !== TensorType.INT32)
    throw new KernelError(op, node.index, `output_shape (tensor ${shape.index}) must be int32, got ${tensorTypeName(shape.type)}`);
  const n = numElements(shape.dims);
  if (n !== 0 && (shape.dims.length !== 1 || n !== 4))
    throw new KernelError(op, node.index, `output_shape (tensor ${shape.index}) must have shape [4], got ${shapeText(shape.dims)}`);
  if (n !== 4 || !shape.isConstant) return;
  const v = shape.data as Int32Array;
  for (let i = 0; i < 4; i++) {
    if (v[i] !== output.dims[i])
      throw new KernelError(
        op,
        node.index,
        `output_shape (tensor ${shape.index}) is ${shapeText(v)} but the output tensor is ${shapeText(output.dims)}`,
      );
  }
}

/** `TfLitePadding` as the C option structs store it. */
export enum StructPadding {
  /** kTfLitePaddingUnknown: MediaPipe's kernels compute no padding for it, as for VALID. */
  Unknown = 0,
  Same = 1,
  Valid = 2,
}

/** The tensors of a TRANSPOSE_CONV node. */
export interface TransposeConvTensors {
  outputShape: Tensor;
  filter: Tensor;
  input: Tensor;
  bias: Tensor | null;
  output: Tensor;
}

/**
 * TRANSPOSE_CONV's tensors in prepare (inputs: output_shape, weights, input, optional bias): the output
 * resized to a constant output_shape (its values, folded or from the file, as TFLite; a shape computed at
 * invoke leaves the output tensor's own shape, as TFLM), then input, filter and output checked to be 4-D
 * and the output against output_shape (`expectTransposeConvOutputShape`).
 */
export function transposeConvTensors(op: string, context: TfLiteContext, node: Node): TransposeConvTensors {
  const outputShape = getInput(context, node, 0, op);
  const filter = getInput(context, node, 1, op);
  const input = getInput(context, node, 2, op);
  const bias = getOptionalInput(context, node, 3);
  if (outputShape.isConstant && outputShape.type === TensorType.INT32 && outputShape.dims.length === 1 && outputShape.dims[0] === 4)
    setOutputShape(op, context, node, 0, outputShape.data as Int32Array);
  const output = getOutput(context, node, 0, op);
  expectConvRanks(op, node, { input, filter, output });
  expectTransposeConvOutputShape(op, node, outputShape, output);
  return { outputShape, filter, input, bias, output };
}

/** Name of a `TfLitePadding` value for messages. */
export function paddingName(padding: number): string {
  return padding === StructPadding.Same
    ? 'SAME'
    : padding === StructPadding.Valid
      ? 'VALID'
      : padding === StructPadding.Unknown
        ? 'UNKNOWN'
        : `${padding}`;
}

/**
 * The leading int32 fields of a C options struct stored as the node's custom options (little-endian, as
 * on every platform MediaPipe ships). `fields` names them for the message when the bytes are too few.
 */
export function readStructFields(op: string, node: Node, struct: string, fields: readonly string[]): Int32Array {
  const bytes = node.customInitialData;
  const need = fields.length * 4;
  if (!bytes || bytes.byteLength < need) {
    throw new KernelError(
      op,
      node.index,
      `custom options have ${bytes ? bytes.byteLength : 0} bytes; a ${struct} needs at least ${need} (${fields.join(', ')})`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, need);
  const out = new Int32Array(fields.length);
  for (let i = 0; i < fields.length; i++) out[i] = view.getInt32(4 * i, true);
  return out;
}

/**
 * The geometry of MediaPipe's `Convolution2DTransposeBias` (inputs: input [N, H, W, Cin], weights
 * [Cout, KH, KW, Cin], bias [Cout]; options: the leading padding, stride_width, stride_height of a
 * `TfLiteTransposeConvParams`): OH = stride_h * (H - 1) + KH - pad_total_h (likewise OW), where SAME
 * gives pad_total = max(0, K - (H - 1) % stride - 1) and VALID (or unknown) 0, and the padding before
 * the first output is pad_total / 2 (floor). Throws a KernelError naming what disagrees.
 */
export function transposeConvBiasShape(
  op: string,
  node: Node,
  input: Tensor,
  weights: Tensor,
  bias: Tensor,
  output: Tensor,
): TransposeConvShape {
  expectRank(op, node, 'input', input, 4);
  expectRank(op, node, 'weights', weights, 4);
  expectRank(op, node, 'bias', bias, 1);
  expectRank(op, node, 'output', output, 4);
  const fail = (detail: string): never => {
    throw new KernelError(op, node.index, detail);
  };
  if (weights.dims[0] !== bias.dims[0])
    fail(
      `weights (tensor ${weights.index}) have ${weights.dims[0]} output channels but bias (tensor ${bias.index}) has ${bias.dims[0]} values`,
    );
  if (input.dims[3] !== weights.dims[3])
    fail(
      `input (tensor ${input.index}) has ${input.dims[3]} channels but weights (tensor ${weights.index}) ${shapeText(weights.dims)} expect ${weights.dims[3]}`,
    );
  const [padding, strideWidth, strideHeight] = readStructFields(op, node, 'TfLiteTransposeConvParams', [
    'padding',
    'stride_width',
    'stride_height',
  ]);
  if (padding !== StructPadding.Same && padding !== StructPadding.Valid && padding !== StructPadding.Unknown)
    fail(`option padding is ${padding}, must be 1 (SAME) or 2 (VALID)`);
  if (!(strideWidth! >= 1)) fail(`option stride_width is ${strideWidth}, must be at least 1`);
  if (!(strideHeight! >= 1)) fail(`option stride_height is ${strideHeight}, must be at least 1`);
  const [batches, inHeight, inWidth, inDepth] = input.dims as unknown as number[];
  const [outDepth, filterHeight, filterWidth] = weights.dims as unknown as number[];
  if (inHeight! < 1 || inWidth! < 1) fail(`input (tensor ${input.index}) has an empty spatial shape ${shapeText(input.dims)}`);
  const same = padding === StructPadding.Same;
  const padTotalHeight = same ? Math.max(0, filterHeight! - ((inHeight! - 1) % strideHeight!) - 1) : 0;
  const padTotalWidth = same ? Math.max(0, filterWidth! - ((inWidth! - 1) % strideWidth!) - 1) : 0;
  const g: TransposeConvShape = {
    batches: batches!,
    inHeight: inHeight!,
    inWidth: inWidth!,
    inDepth: inDepth!,
    outHeight: strideHeight! * (inHeight! - 1) + filterHeight! - padTotalHeight,
    outWidth: strideWidth! * (inWidth! - 1) + filterWidth! - padTotalWidth,
    outDepth: outDepth!,
    filterHeight: filterHeight!,
    filterWidth: filterWidth!,
    strideHeight: strideHeight!,
    strideWidth: strideWidth!,
    padHeight: padTotalHeight >> 1,
    padWidth: padTotalWidth >> 1,
  };
  const expected = [g.batches, g.outHeight, g.outWidth, g.outDepth];
  if (expected.some((d, i) => output.dims[i] !== d))
    fail(
      `output (tensor ${output.index}) has shape ${shapeText(output.dims)}, expected ${shapeText(expected)} (input ${shapeText(input.dims)}, ` +
        `${g.filterHeight}x${g.filterWidth} filter, stride ${strideHeight}x${strideWidth}, ${paddingName(padding!)} padding)`,
    );
  return g;
}
