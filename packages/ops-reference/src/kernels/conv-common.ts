/**
 * Shared math of the convolution family (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV), following TFLM:
 * padding (tensorflow/lite/kernels/padding.h), per-channel requantization parameters
 * (PopulateConvolutionQuantizationParams in tensorflow/lite/kernels/kernel_util.cc) and the helpers the
 * kernels need to read 64-bit data without BigInt.
 */
import {
  ActivationFunctionType,
  KernelError,
  Padding,
  TensorType,
  calculateActivationRangeFloat,
  calculateActivationRangeQuantized,
  checkArity,
  checkedQuantizeMultiplier,
  getInput,
  getOptionalInput,
  getOutput,
  numElements,
  quantizeMultiplier,
  tensorTypeName,
  type ArenaRegion,
  type QuantizedMultiplier,
  type EvalTensor,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';

/** Padding of a windowed op (TfLitePaddingValues). Kernels use `width`/`height`; the offsets are kept for parity. */
export interface PaddingValues {
  width: number;
  height: number;
  widthOffset: number;
  heightOffset: number;
}

/** `computePaddingHeightWidth`'s result: the padding plus the output size the padding implies. */
export interface PaddingAndOutputSize extends PaddingValues {
  outHeight: number;
  outWidth: number;
}

/** C integer division of int32 values (truncates toward zero, never -0). */
function cdiv(a: number, b: number): number {
  return (a / b) | 0;
}

/**
 * TFLite ComputeOutSize: the spatial output size of a windowed op. SAME: ceil(image / stride);
 * VALID: (image + stride - effectiveFilter) / stride with C truncation. Returns 0 for stride 0 as TFLite does.
 */
export function computeOutSize(padding: Padding, imageSize: number, filterSize: number, stride: number, dilation = 1): number {
  const effectiveFilterSize = (filterSize - 1) * dilation + 1;
  if (stride === 0) return 0;
  switch (padding) {
    case Padding.SAME:
      return cdiv(imageSize + stride - 1, stride);
    case Padding.VALID:
      return cdiv(imageSize + stride - effectiveFilterSize, stride);
    default:
      return 0;
  }
}

/**
 * TFLite ComputePaddingWithOffset: half of the total padding (rounded down) and the odd remainder, for one
 * spatial dimension.
 */
export function computePaddingWithOffset(
  stride: number,
  dilation: number,
  inSize: number,
  filterSize: number,
  outSize: number,
): { padding: number; offset: number } {
  const effectiveFilterSize = (filterSize - 1) * dilation + 1;
  let total = (outSize - 1) * stride + effectiveFilterSize - inSize;
  total = total > 0 ? total : 0;
  return { padding: cdiv(total, 2), offset: total % 2 };
}

/** TFLite ComputePaddingHeightWidth: output size and padding of a 2-D windowed op. */
export function computePaddingHeightWidth(
  strideHeight: number,
  strideWidth: number,
  dilationHeight: number,
  dilationWidth: number,
  inHeight: number,
  inWidth: number,
  filterHeight: number,
  filterWidth: number,
  padding: Padding,
): PaddingAndOutputSize {
  const outWidth = computeOutSize(padding, inWidth, filterWidth, strideWidth, dilationWidth);
  const outHeight = computeOutSize(padding, inHeight, filterHeight, strideHeight, dilationHeight);
  const h = computePaddingWithOffset(strideHeight, dilationHeight, inHeight, filterHeight, outHeight);
  const w = computePaddingWithOffset(strideWidth, dilationWidth, inWidth, filterWidth, outWidth);
  return { height: h.padding, heightOffset: h.offset, width: w.padding, widthOffset: w.offset, outHeight, outWidth };
}

/** Fused activations the convolution kernels accept (TANH and SIGN_BIT are not conv activations). */
export function checkConvActivation(op: string, node: Node, activation: ActivationFunctionType): void {
  if (
    activation !== ActivationFunctionType.NONE &&
    activation !== ActivationFunctionType.RELU &&
    activation !== ActivationFunctionType.RELU6 &&
    activation !== ActivationFunctionType.RELU_N1_TO_1
  ) {
    throw new KernelError(op, node.index, `unsupported fused activation ${ActivationFunctionType[activation] ?? activation}`);
  }
}

/** Throws unless `value` is an integer >= 1 (strides, dilations, depth multipliers). */
export function checkPositive(op: string, node: Node, name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new KernelError(op, node.index, `${name} must be an integer >= 1, got ${value}`);
}

/** Throws unless `t` has rank `rank`. */
export function checkRank(op: string, node: Node, what: string, t: Tensor, rank: number): void {
  if (t.dims.length !== rank) {
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) must have rank ${rank}, got shape [${Array.from(t.dims).join(', ')}]`,
    );
  }
}

/** Largest finite float32 (std::numeric_limits<float>::max()). */
const FLT_MAX = 3.4028234663852886e38;

/**
 * TFLM CalculateActivationRange<float>: the open ends are float's lowest()/max(), not infinities, so an
 * overflowed +/-inf result is clamped to +/-FLT_MAX as in C++.
 */
export function floatActivationRange(activation: ActivationFunctionType): [number, number] {
  const [lo, hi] = calculateActivationRangeFloat(activation);
  return [Math.max(lo, -FLT_MAX), Math.min(hi, FLT_MAX)];
}

/**
 * The two persistent int32 arrays TFLM allocates per conv node (per-channel multipliers and shifts), each
 * from its own `allocatePersistentBuffer` call as in ConvPrepare / DepthwiseConvPrepare / TransposeConvPrepare.
 */
export interface PerChannelBuffers {
  multiplier: Int32Array;
  shift: Int32Array;
}

/** Allocates the per-channel multiplier and shift arrays (`numChannels` int32 each) in the arena tail. */
export function allocatePerChannelBuffers(context: TfLiteContext, numChannels: number): PerChannelBuffers {
  const bytes = numChannels * 4;
  const m: ArenaRegion = context.allocatePersistentBuffer(bytes);
  const s: ArenaRegion = context.allocatePersistentBuffer(bytes);
  return { multiplier: m.i32.subarray(0, numChannels), shift: s.i32.subarray(0, numChannels) };
}

/** Describes a tensor's per-tensor/per-channel scale for messages. */
function describeQuant(t: Tensor): string {
  const q = t.quantization;
  return q ? `${q.scale.length} scale(s), quantized_dimension ${q.quantizedDimension}` : 'no quantization';
}

/**
 * TFLite PopulateConvolutionQuantizationParams (per-axis and per-tensor): validates the quantization of
 * input, filter and output, fills `multiplier`/`shift` with QuantizeMultiplier(input_scale * filter_scale[c] /
 * output_scale) for each output channel (a single filter scale is broadcast), and returns the quantized
 * activation range of the output.
 *
 * Also enforces what the kernels assume: scales > 0, filter zero points 0, a per-channel filter quantized
 * along `quantizedDimension` with exactly `numChannels` scales.
 */
export function populateConvolutionQuantizationParams(
  op: string,
  node: Node,
  input: Tensor,
  filter: Tensor,
  output: Tensor,
  activation: ActivationFunctionType,
  numChannels: number,
  quantizedDimension: number,
  buffers: PerChannelBuffers,
): [number, number] {
  const fail = (detail: string): never => {
    throw new KernelError(op, node.index, detail);
  };
  for (const [what, t] of [
    ['input', input],
    ['output', output],
  ] as const) {
    if (!t.quantization || t.quantization.scale.length === 0)
      fail(`${what} (tensor ${t.index}, ${tensorTypeName(t.type)}) has no quantization parameters`);
    if (!(t.params.scale > 0) || !Number.isFinite(t.params.scale))
      fail(`${what} (tensor ${t.index}) scale must be finite and > 0, got ${t.params.scale}`);
  }
  const fq = filter.quantization;
  if (!fq || fq.scale.length === 0) return fail(`filter (tensor ${filter.index}) has no quantization parameters`);
  const nScales = fq.scale.length;
  const perChannel = nScales > 1;
  if (perChannel) {
    if (nScales !== numChannels)
      fail(`filter (tensor ${filter.index}) has ${nScales} scales, expected 1 or ${numChannels} (one per output channel)`);
    if (fq.quantizedDimension !== quantizedDimension) {
      fail(
        `filter (tensor ${filter.index}) is quantized along dimension ${fq.quantizedDimension}, expected ${quantizedDimension} (${describeQuant(filter)})`,
      );
    }
    if (filter.dims[quantizedDimension] !== numChannels) {
      fail(
        `filter (tensor ${filter.index}) dimension ${quantizedDimension} is ${filter.dims[quantizedDimension]}, expected ${numChannels}`,
      );
    }
  }
  if (fq.zeroPoint.length !== 0 && fq.zeroPoint.length !== 1 && fq.zeroPoint.length !== nScales) {
    fail(`filter (tensor ${filter.index}) has ${fq.zeroPoint.length} zero points for ${nScales} scales`);
  }
  for (let i = 0; i < fq.zeroPoint.length; i++) {
    if (fq.zeroPoint[i] !== 0) fail(`filter (tensor ${filter.index}) zero point ${i} is ${fq.zeroPoint[i]}, must be 0 (symmetric weights)`);
  }
  const inputScale = input.params.scale;
  const outputScale = output.params.scale;
  for (let c = 0; c < numChannels; c++) {
    const filterScale = perChannel ? fq.scale[c]! : fq.scale[0]!;
    if (!(filterScale > 0) || !Number.isFinite(filterScale))
      fail(`filter (tensor ${filter.index}) scale ${c} must be finite and > 0, got ${filterScale}`);
    // (double)input_scale * (double)filter_scale / (double)output_scale, as TFLite computes it
    const q = quantizeMultiplier((inputScale * filterScale) / outputScale);
    buffers.multiplier[c] = q.multiplier;
    buffers.shift[c] = q.shift;
  }
  return calculateActivationRangeQuantized(activation, output);
}

/**
 * The scalar requantization of TFLite's legacy uint8 convolutions (PopulateConvolutionQuantizationParams'
 * uint8 branch with GetQuantizedConvolutionMultipler): input, filter and output per-tensor quantized with
 * finite positive scales; a bias must have scale input_scale * filter_scale (within 1e-6 of the smaller,
 * as TFLite checks); the multiplier is QuantizeMultiplier((double)(float)(input_scale * filter_scale) /
 * output_scale) — the scale product is rounded to float first, as TFLite's C++ computes it. Any zero points
 * (the weights are asymmetric). The same multiplier serves every output channel.
 */
export function populateUint8ConvolutionParams(
  op: string,
  node: Node,
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
): QuantizedMultiplier {
  const fail = (detail: string): never => {
    throw new KernelError(op, node.index, detail);
  };
  for (const [what, t] of [
    ['input', input],
    ['filter', filter],
    ['output', output],
  ] as const) {
    if (!t.quantization || t.quantization.scale.length === 0)
      fail(`${what} (tensor ${t.index}, ${tensorTypeName(t.type)}) has no quantization parameters`);
    if (t.quantization!.scale.length !== 1)
      fail(
        `${what} (tensor ${t.index}) is ${tensorTypeName(t.type)} with ${t.quantization!.scale.length} scales; uint8 kernels take per-tensor quantization only`,
      );
    if (!(t.params.scale > 0) || !Number.isFinite(t.params.scale))
      fail(`${what} (tensor ${t.index}) scale must be finite and > 0, got ${t.params.scale}`);
  }
  const productScale = Math.fround(input.params.scale * filter.params.scale); // TFLite: float * float
  if (bias) {
    const biasScale = bias.params.scale;
    if (!(Math.abs(productScale - biasScale) <= 1e-6 * Math.min(productScale, biasScale))) {
      fail(`bias (tensor ${bias.index}) scale ${biasScale} must equal input scale * filter scale = ${productScale} (uint8 quantization)`);
    }
  }
  return checkedQuantizeMultiplier(op, node, productScale / output.params.scale, 'output multiplier');
}

/**
 * Checks an optional bias: its type must be one of `allowed` and it must hold one value per output channel.
 * Returns the bias type, or null when the node has no bias.
 */
export function checkBias(
  op: string,
  node: Node,
  bias: Tensor | null,
  allowed: readonly TensorType[],
  outChannels: number,
  inputType: TensorType,
): TensorType | null {
  if (!bias) return null;
  if (!allowed.includes(bias.type)) {
    throw new KernelError(
      op,
      node.index,
      `bias (tensor ${bias.index}) type ${tensorTypeName(bias.type)} is not supported with ${tensorTypeName(inputType)} input; expected ${allowed.map(tensorTypeName).join(' or ')}`,
    );
  }
  const n = numElements(bias.dims);
  if (n !== outChannels)
    throw new KernelError(
      op,
      node.index,
      `bias (tensor ${bias.index}) has ${n} elements, expected ${outChannels} (one per output channel)`,
    );
  return bias.type;
}

/** Throws unless a 16x8 tensor (int16 activations) has zero point 0, as the TFLite quantization spec requires. */
export function checkSymmetricInt16(op: string, node: Node, what: string, t: Tensor): void {
  if (t.params.zeroPoint !== 0)
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) is int16 with zero point ${t.params.zeroPoint}; int16 activations must have zero point 0`,
    );
}

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
 * Output stage parameters (TFLM's OpDataConv / ConvParams quantized fields). For float kernels only
 * `actMin`/`actMax` are used (float32 activation bounds).
 */
export interface ConvOutputParams {
  /** Per-channel multipliers (persistent arena region). */
  multiplier: Int32Array;
  /** Per-channel shifts, TFLM convention (positive = left). */
  shift: Int32Array;
  /** -input_zero_point (int8 and uint8). */
  inputOffset: number;
  /** -filter_zero_point (uint8 only: asymmetric uint8 weights; 0 otherwise). */
  filterOffset: number;
  /** output_zero_point (int8 and uint8). */
  outputOffset: number;
  actMin: number;
  actMax: number;
}

/**
 * Why the convolution kernels cannot serve these element types, or null when they can: the output must
 * have the input's type, and input/filter must be float32/float32, int8/int8, int16/int8 or uint8/uint8
 * (TFLite's legacy asymmetric uint8 quantization).
 */
export function convTypeProblem(input: Tensor, filter: Tensor, output: Tensor): string | null {
  if (input.type !== output.type) return `input type ${tensorTypeName(input.type)} differs from output type ${tensorTypeName(output.type)}`;
  const ok =
    (input.type === TensorType.FLOAT32 && filter.type === TensorType.FLOAT32) ||
    (input.type === TensorType.INT8 && filter.type === TensorType.INT8) ||
    (input.type === TensorType.INT16 && filter.type === TensorType.INT8) ||
    (input.type === TensorType.UINT8 && filter.type === TensorType.UINT8);
  if (!ok)
    return `unsupported input/filter types ${tensorTypeName(input.type)}/${tensorTypeName(filter.type)} (supported: float32/float32, int8/int8, int16/int8, uint8/uint8)`;
  return null;
}

/**
 * `convTypeProblem` for a node laid out as CONV_2D and DEPTHWISE_CONV_2D are (inputs: input, filter,
 * optional bias; one output), after checking that layout. Serves both `supports()` and prepare.
 */
export function conv2dTypeProblem(context: TfLiteContext, node: Node): string | null {
  if (node.inputs.length < 2 || node.outputs.length !== 1)
    return `expects 2 or 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`;
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0 || node.outputs[0]! < 0) return 'input, filter and output tensors are required';
  return convTypeProblem(context.getTensor(node.inputs[0]!), context.getTensor(node.inputs[1]!), context.getTensor(node.outputs[0]!));
}

/** The tensors of a convolution node. */
export interface ConvTensors {
  input: Tensor;
  filter: Tensor;
  bias: Tensor | null;
  output: Tensor;
}

/**
 * The tensors of a CONV_2D / DEPTHWISE_CONV_2D node (inputs: input, filter, optional bias), after checking
 * the arity, the element types (`conv2dTypeProblem`) and that input, filter and output are 4-D.
 */
export function conv2dTensors(op: string, context: TfLiteContext, node: Node): ConvTensors {
  checkArity(op, node, [2, 3], 1);
  const why = conv2dTypeProblem(context, node);
  if (why !== null) throw new KernelError(op, node.index, why);
  const input = getInput(context, node, 0, op);
  const filter = getInput(context, node, 1, op);
  const bias = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, op);
  checkConvRanks(op, node, input, filter, output);
  return { input, filter, bias, output };
}

/** Throws unless input, filter and output all have rank 4. */
export function checkConvRanks(op: string, node: Node, input: Tensor, filter: Tensor, output: Tensor): void {
  checkRank(op, node, 'input', input, 4);
  checkRank(op, node, 'filter', filter, 4);
  checkRank(op, node, 'output', output, 4);
}

/** Throws unless the strides and dilation factors of CONV_2D / DEPTHWISE_CONV_2D options are integers >= 1. */
export function checkStridesAndDilations(
  op: string,
  node: Node,
  o: { strideH: number; strideW: number; dilationHFactor: number; dilationWFactor: number },
): void {
  checkPositive(op, node, 'stride_h', o.strideH);
  checkPositive(op, node, 'stride_w', o.strideW);
  checkPositive(op, node, 'dilation_h_factor', o.dilationHFactor);
  checkPositive(op, node, 'dilation_w_factor', o.dilationWFactor);
}

/** Throws unless the padding is SAME or VALID and the fused activation is one `checkConvActivation` accepts. */
export function checkPaddingAndActivation(op: string, node: Node, padding: Padding, activation: ActivationFunctionType): void {
  if (padding !== Padding.SAME && padding !== Padding.VALID) throw new KernelError(op, node.index, `unsupported padding ${padding}`);
  checkConvActivation(op, node, activation);
}

/**
 * Output size and padding of CONV_2D / DEPTHWISE_CONV_2D computed from the input (TFLite
 * ComputePaddingHeightWidth over the input size): throws unless the output tensor has that spatial size,
 * else fills `outHeight`, `outWidth`, `padHeight` and `padWidth` of `g` (whose input, filter, stride and
 * dilation fields are set).
 */
export function finishConvGeometry(op: string, node: Node, g: ConvGeometry, output: Tensor, padding: Padding): void {
  const pad = computePaddingHeightWidth(
    g.strideHeight,
    g.strideWidth,
    g.dilationHeight,
    g.dilationWidth,
    g.inHeight,
    g.inWidth,
    g.filterHeight,
    g.filterWidth,
    padding,
  );
  if (pad.outHeight !== output.dims[1] || pad.outWidth !== output.dims[2]) {
    throw new KernelError(
      op,
      node.index,
      `output spatial size ${output.dims[1]}x${output.dims[2]} does not match ${pad.outHeight}x${pad.outWidth} computed from input ` +
        `${g.inHeight}x${g.inWidth}, filter ${g.filterHeight}x${g.filterWidth}, stride ${g.strideHeight}x${g.strideWidth}, ` +
        `dilation ${g.dilationHeight}x${g.dilationWidth}, padding ${Padding[padding]}`,
    );
  }
  g.outHeight = pad.outHeight;
  g.outWidth = pad.outWidth;
  g.padHeight = pad.height;
  g.padWidth = pad.width;
}

/** Output-stage parameters before prepare: empty per-channel arrays, zero offsets and bounds. */
export function emptyOutputParams(): ConvOutputParams {
  return { multiplier: EMPTY_I32, shift: EMPTY_I32, inputOffset: 0, filterOffset: 0, outputOffset: 0, actMin: 0, actMax: 0 };
}

/** What differs between the convolution kernels in `prepareConvOutputStage`. */
export interface ConvOutputStageSpec {
  /** Filter dimension along which per-channel scales run (CONV_2D and TRANSPOSE_CONV 0, DEPTHWISE_CONV_2D 3). */
  quantizedDimension: number;
  /** Bias types accepted with int16 activations (float32 takes float32 bias, int8 takes int32). */
  int16BiasTypes: readonly TensorType[];
  /** Fused activation applied to float32 outputs. */
  floatActivation: ActivationFunctionType;
  /** Activation whose range clamps quantized outputs (TRANSPOSE_CONV: NONE, as TFLM). */
  quantizedActivation: ActivationFunctionType;
}

const FLOAT32_BIAS: readonly TensorType[] = [TensorType.FLOAT32];
const INT32_BIAS: readonly TensorType[] = [TensorType.INT32];

/**
 * The output stage every convolution kernel prepares the same way (TFLM's ConvPrepare /
 * DepthwiseConvPrepare / TransposeConvPrepare): allocates the per-channel multiplier and shift arrays
 * (for every type, float included, as TFLM), checks the bias type and size for the input type, and sets
 * `out`: the float activation range for float32; for int8 and int16 (zero points 0 required) the
 * per-channel requantization (PopulateConvolutionQuantizationParams), the quantized activation range and
 * the input/output offsets. Returns the bias type, or null when the node has no bias.
 */
export function prepareConvOutputStage(
  op: string,
  context: TfLiteContext,
  node: Node,
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  numChannels: number,
  out: ConvOutputParams,
  spec: ConvOutputStageSpec,
): TensorType | null {
  const buffers = allocatePerChannelBuffers(context, numChannels);
  out.multiplier = buffers.multiplier;
  out.shift = buffers.shift;
  switch (input.type) {
    case TensorType.FLOAT32: {
      const biasType = checkBias(op, node, bias, FLOAT32_BIAS, numChannels, input.type);
      [out.actMin, out.actMax] = floatActivationRange(spec.floatActivation);
      return biasType;
    }
    case TensorType.INT8: {
      const biasType = checkBias(op, node, bias, INT32_BIAS, numChannels, input.type);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        op,
        node,
        input,
        filter,
        output,
        spec.quantizedActivation,
        numChannels,
        spec.quantizedDimension,
        buffers,
      );
      out.inputOffset = -input.params.zeroPoint;
      out.outputOffset = output.params.zeroPoint;
      return biasType;
    }
    case TensorType.UINT8: {
      const biasType = checkBias(op, node, bias, INT32_BIAS, numChannels, input.type);
      const q = populateUint8ConvolutionParams(op, node, input, filter, bias, output);
      buffers.multiplier.fill(q.multiplier);
      buffers.shift.fill(q.shift);
      [out.actMin, out.actMax] = calculateActivationRangeQuantized(spec.quantizedActivation, output);
      out.inputOffset = -input.params.zeroPoint;
      out.filterOffset = -filter.params.zeroPoint;
      out.outputOffset = output.params.zeroPoint;
      return biasType;
    }
    default: {
      // INT16 activations, INT8 weights
      const biasType = checkBias(op, node, bias, spec.int16BiasTypes, numChannels, input.type);
      checkSymmetricInt16(op, node, 'input', input);
      checkSymmetricInt16(op, node, 'output', output);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        op,
        node,
        input,
        filter,
        output,
        spec.quantizedActivation,
        numChannels,
        spec.quantizedDimension,
        buffers,
      );
      out.inputOffset = 0;
      out.outputOffset = 0;
      return biasType;
    }
  }
}
