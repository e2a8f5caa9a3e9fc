/**
 * What the reference convolution kernels (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV) share beyond
 * @micrort/kernel-support's padding and output-stage math: their geometry, the node checks of
 * CONV_2D / DEPTHWISE_CONV_2D, the filter-tap bounds of their loops, and readers of 64-bit data without
 * BigInt.
 */
import {
  ActivationFunctionType,
  KernelError,
  Padding,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  tensorTypeName,
  type ArenaRegion,
  type EvalTensor,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import {
  type ConvTensors,
  expectClampActivation,
  expectConvRanks,
  expectKnownPadding,
  expectWindowOutput,
  unpackInt4,
} from '@micrort/kernel-support';

const EMPTY_I32 = new Int32Array(0);
const EMPTY_F64 = new Float64Array(0);

/**
 * A cached Int32Array view (low word, high word per element) over the bytes of an INT64 tensor, so kernels
 * read 64-bit values as numbers (`int64At`) without BigInt. The view is re-made only when the tensor's data
 * binding changes, so `invoke()` allocates nothing after the first call.
 */
export class Int64Words {
  private bytes: Uint8Array | null = null;
  private words: Int32Array = EMPTY_I32;

  /** The int32 words of `t` (which must be an INT64 tensor). */
  of(t: EvalTensor): Int32Array {
    const b = t.bytes;
    if (b !== this.bytes) {
      this.bytes = b;
      this.words = new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
    }
    return this.words;
  }
}

/** Element `i` of an int64 array seen through `Int64Words` (exact for |value| < 2^53). */
export function int64At(words: Int32Array, i: number): number {
  return words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0);
}

/**
 * A cached Float64Array view over a scratch region (used for the exact 64-bit accumulators of the 16x8
 * kernels: integers below 2^53 are exact in doubles). Re-made only when the region changes.
 */
export class Float64Scratch {
  private region: ArenaRegion | null = null;
  private view: Float64Array = EMPTY_F64;

  /** The first `length` doubles of `region` (16-byte aligned, so the view is aligned). */
  of(region: ArenaRegion, length: number): Float64Array {
    if (region !== this.region || this.view.length !== length) {
      this.region = region;
      this.view = new Float64Array(region.buffer, region.offset, length);
    }
    return this.view;
  }
}

/** First filter tap index `k` in [0, size) with `origin + k * dilation >= 0` (TFLM's is_point_inside_image, low side). */
export function firstTap(origin: number, dilation: number): number {
  return origin >= 0 ? 0 : Math.floor((-origin + dilation - 1) / dilation);
}

/** One past the last filter tap index with `origin + k * dilation < extent`, clamped to `size`. */
export function endTap(origin: number, dilation: number, extent: number, size: number): number {
  const room = extent - origin;
  if (room <= 0) return 0;
  const n = Math.floor((room + dilation - 1) / dilation);
  return n < size ? n : size;
}

/**
 * Shapes, strides, dilations and padding of one convolution node, computed in prepare. All tensors are
 * NHWC. `filterDepth` is the innermost filter dimension: input channels per group for CONV_2D, output
 * channels for DEPTHWISE_CONV_2D, input channels for TRANSPOSE_CONV.
 */
export interface ConvGeometry {
  batches: number;
  inHeight: number;
  inWidth: number;
  inDepth: number;
  filterHeight: number;
  filterWidth: number;
  filterDepth: number;
  outHeight: number;
  outWidth: number;
  outDepth: number;
  strideHeight: number;
  strideWidth: number;
  dilationHeight: number;
  dilationWidth: number;
  padHeight: number;
  padWidth: number;
  /** DEPTHWISE_CONV_2D only (1 elsewhere). */
  depthMultiplier: number;
}

/** A zeroed geometry, filled in by prepare. */
export function emptyGeometry(): ConvGeometry {
  return {
    batches: 0,
    inHeight: 0,
    inWidth: 0,
    inDepth: 0,
    filterHeight: 0,
    filterWidth: 0,
    filterDepth: 0,
    outHeight: 0,
    outWidth: 0,
    outDepth: 0,
    strideHeight: 1,
    strideWidth: 1,
    dilationHeight: 1,
    dilationWidth: 1,
    padHeight: 0,
    padWidth: 0,
    depthMultiplier: 1,
  };
}

/**
 * The filter types a convolution takes beyond the same-type pairs: with a float32 input (TFLite's hybrid
 * kernels: CONV_2D int8, uint8 and int4, DEPTHWISE_CONV_2D and TRANSPOSE_CONV int8), and int4 with an
 * int8 input (CONV_2D, DEPTHWISE_CONV_2D).
 */
export interface ConvFilterTypes {
  hybrid: readonly TensorType[];
  int4: boolean;
}

/** The same-type pairs only. */
export const PLAIN_FILTERS: ConvFilterTypes = { hybrid: [], int4: false };

/**
 * Why the convolution kernels cannot serve these element types, or null when they can: the output must
 * have the input's type, and input/filter must be float32/float32, int8/int8, int16/int8 or uint8/uint8
 * (TFLite's legacy asymmetric uint8 quantization), or one of `extra`'s pairs.
 */
export function convTypeProblem(input: Tensor, filter: Tensor, output: Tensor, extra: ConvFilterTypes = PLAIN_FILTERS): string | null {
  if (input.type !== output.type) return `input type ${tensorTypeName(input.type)} differs from output type ${tensorTypeName(output.type)}`;
  const ok =
    (input.type === TensorType.FLOAT32 && (filter.type === TensorType.FLOAT32 || extra.hybrid.includes(filter.type))) ||
    (input.type === TensorType.INT8 && (filter.type === TensorType.INT8 || (extra.int4 && filter.type === TensorType.INT4))) ||
    (input.type === TensorType.INT16 && filter.type === TensorType.INT8) ||
    (input.type === TensorType.UINT8 && filter.type === TensorType.UINT8);
  if (!ok) {
    const more = [...extra.hybrid.map((t) => `float32/${tensorTypeName(t)}`), ...(extra.int4 ? ['int8/int4'] : [])];
    return `unsupported input/filter types ${tensorTypeName(input.type)}/${tensorTypeName(filter.type)} (supported: float32/float32, int8/int8, int16/int8, uint8/uint8${more.map((m) => `, ${m}`).join('')})`;
  }
  return null;
}

/**
 * `convTypeProblem` for a node laid out as CONV_2D and DEPTHWISE_CONV_2D are (inputs: input, filter,
 * optional bias; one output), after checking that layout. Serves both `supports()` and prepare.
 */
export function conv2dTypeProblem(context: TfLiteContext, node: Node, extra: ConvFilterTypes = PLAIN_FILTERS): string | null {
  if (node.inputs.length < 2 || node.outputs.length !== 1)
    return `expects 2 or 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`;
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0 || node.outputs[0]! < 0) return 'input, filter and output tensors are required';
  return convTypeProblem(
    context.getTensor(node.inputs[0]!),
    context.getTensor(node.inputs[1]!),
    context.getTensor(node.outputs[0]!),
    extra,
  );
}

/**
 * The tensors of a CONV_2D / DEPTHWISE_CONV_2D node (inputs: input, filter, optional bias), after checking
 * the arity, the element types (`conv2dTypeProblem`) and that input, filter and output are 4-D.
 */
export function conv2dTensors(op: string, context: TfLiteContext, node: Node, extra: ConvFilterTypes = PLAIN_FILTERS): ConvTensors {
  checkArity(op, node, [2, 3], 1);
  const why = conv2dTypeProblem(context, node, extra);
  if (why !== null) throw new KernelError(op, node.index, why);
  const input = getInput(context, node, 0, op);
  const filter = getInput(context, node, 1, op);
  const bias = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, op);
  expectConvRanks(op, node, { input, filter, output });
  return { input, filter, bias, output };
}

/** Throws unless the padding is SAME or VALID and the fused activation is a clamp (NONE, RELU, RELU6, RELU_N1_TO_1). */
export function checkPaddingAndActivation(op: string, node: Node, padding: Padding, activation: ActivationFunctionType): void {
  expectKnownPadding(op, node, padding);
  expectClampActivation(op, node, activation);
}

/**
 * Output size and padding of CONV_2D / DEPTHWISE_CONV_2D computed from the input (kernel-support's
 * `expectWindowOutput`: TFLite ComputePaddingHeightWidth, and the output tensor must have that spatial
 * size): fills `outHeight`, `outWidth`, `padHeight` and `padWidth` of `g` (whose input, filter, stride
 * and dilation fields are set).
 */
export function finishConvGeometry(op: string, node: Node, g: ConvGeometry, output: Tensor, padding: Padding): void {
  const pad = expectWindowOutput(op, node, g, padding, output);
  g.outHeight = pad.outHeight;
  g.outWidth = pad.outWidth;
  g.padHeight = pad.height;
  g.padWidth = pad.width;
}

/**
 * The int8 values of an int4 filter, unpacked once into a persistent arena buffer (TFLite unpacks on every
 * invoke), or null for other filters. int4 filters must be constant and symmetric (zero points 0).
 */
export function unpackedInt4Filter(op: string, context: TfLiteContext, node: Node, filter: Tensor): Int8Array | null {
  if (filter.type !== TensorType.INT4) return null;
  if (!filter.isConstant) throw new KernelError(op, node.index, `int4 filter (tensor ${filter.index}) must be a constant`);
  if (filter.quantization?.zeroPoint.some((z) => z !== 0))
    throw new KernelError(op, node.index, `int4 filter (tensor ${filter.index}) must be symmetric (zero points 0)`);
  const n = filter.elementCount;
  const out = context.allocatePersistentBuffer(n).i8.subarray(0, n);
  unpackInt4(filter.data as Int8Array, n, out);
  return out;
}
