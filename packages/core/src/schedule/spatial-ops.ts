/**
 * What the patch schedule knows of an operator: how its output pixels depend on its input pixels. Only
 * operators whose output pixel (y, x) reads a fixed window of input pixels, with no other data than
 * constants, can run tile by tile:
 *
 * - `window`: CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D, AVERAGE_POOL_2D (kernel, stride, dilation and the
 *   padding TFLite computes for the whole tensor). Image padding is replaced by tile buffers filled with
 *   the value that contributes exactly what TFLM's padding contributes: the input zero point (int8,
 *   uint8) or 0 (int16, float32) for convolutions (TFLM adds `filter * (input - zero_point)`, and a
 *   padded tap is skipped), the type's lowest value for MAX_POOL_2D (the kernel starts from it). An
 *   AVERAGE_POOL_2D with padding divides by the number of in-image taps, which no filling reproduces, so
 *   it is not patchable.
 * - `pad`: PAD / PADV2 of the two spatial axes only. In a tile it moves nothing: its output window is
 *   its input's, seen shifted, with the out-of-image part filled with the pad value (no kernel runs).
 *   A PAD of the channels only is elementwise (its kernel runs on the tiles).
 * - `elementwise`: unary activations and binary arithmetic whose other operand is a constant that does
 *   not vary over height and width.
 *
 * Everything else (reshapes, reductions, fully connected, transposes, …) is not patchable; the reason
 * is returned as a string for reports.
 */
import { BuiltinOperator, builtinOperatorName } from '../builtin-ops.js';
import type { Node } from '../kernel/api.js';
import { AllocationType, type Tensor } from '../kernel/tensor.js';
import { Padding, type Conv2DOptions, type DepthwiseConv2DOptions, type Pool2DOptions } from '../options.js';
import { TensorType, elementSize, tensorTypeName } from '../types.js';

/** One spatial axis of a windowed operator. */
export interface AxisWindow {
  kernel: number;
  stride: number;
  dilation: number;
  /** Padding before the first pixel (TFLite's padding for the whole tensor). */
  padBefore: number;
  /** Padding after the last pixel (the odd remainder included). */
  padAfter: number;
}

interface SpatialBase {
  /** Positions in `node.inputs` of the inputs that are tiled (the others are constants). */
  spatialInputs: number[];
  /** Multiply-accumulates per output element (0 for ops that do none). */
  macsPerOutput: number;
}

/** A windowed operator (convolution or pooling). */
export interface WindowOp extends SpatialBase {
  kind: 'window';
  h: AxisWindow;
  w: AxisWindow;
  /** Value of the input at padded positions, or null when the op has no padding on any side. */
  fill: number | null;
}

/** PAD / PADV2 of the spatial axes. */
export interface PadOp extends SpatialBase {
  kind: 'pad';
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** The pad value, in the tensor's element type. */
  value: number;
}

/** Elementwise: output pixel (y, x) reads input pixel (y, x) of every spatial input. */
export interface ElementwiseOp extends SpatialBase {
  kind: 'elementwise';
}

export type SpatialOp = WindowOp | PadOp | ElementwiseOp;

const UNARY = new Set<number>([
  BuiltinOperator.RELU,
  BuiltinOperator.RELU6,
  BuiltinOperator.RELU_N1_TO_1,
  BuiltinOperator.LEAKY_RELU,
  BuiltinOperator.LOGISTIC,
  BuiltinOperator.TANH,
  BuiltinOperator.HARD_SWISH,
  BuiltinOperator.QUANTIZE,
  BuiltinOperator.DEQUANTIZE,
  BuiltinOperator.ABS,
  BuiltinOperator.NEG,
]);

const BINARY = new Set<number>([
  BuiltinOperator.ADD,
  BuiltinOperator.SUB,
  BuiltinOperator.MUL,
  BuiltinOperator.MAXIMUM,
  BuiltinOperator.MINIMUM,
  BuiltinOperator.SQUARED_DIFFERENCE,
]);

/** Element types whose tile buffers the schedule can fill. */
const TILE_TYPES = new Set<TensorType>([TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.INT32]);

/** Largest finite float32: TFLM's MAX_POOL_2D starts from `std::numeric_limits<float>::lowest()`. */
const FLT_LOWEST = -3.4028234663852886e38;

/** Whether `t` is a constant (data in the model). */
export function isConstantTensor(t: Tensor): boolean {
  return t.allocationType === AllocationType.MmapRo;
}

/**
 * How output pixels of `node` (builtin `code`) depend on input pixels, or why the node cannot run tile
 * by tile. `tensors` are the node's subgraph's tensors; `computedConstants` are tensors computed from
 * constants only (e.g. DEQUANTIZE of float16 weights, see `constantNodes`), which count as constants.
 */
export function describeSpatialOp(
  code: number,
  node: Node,
  tensors: readonly Tensor[],
  computedConstants?: ReadonlySet<number>,
): SpatialOp | string {
  const name = builtinOperatorName(code);
  const isConst: IsConst = computedConstants ? (t) => isConstantTensor(t) || computedConstants.has(t.index) : isConstantTensor;
  if (node.outputs.length !== 1) return `${name} has ${node.outputs.length} outputs`;
  const output = tensors[node.outputs[0]!];
  if (!output) return `${name} has no output tensor`;
  const outProblem = spatialTensorProblem(output, 'output');
  if (outProblem) return `${name}: ${outProblem}`;
  switch (code) {
    case BuiltinOperator.CONV_2D:
    case BuiltinOperator.DEPTHWISE_CONV_2D:
      return convOp(code, node, tensors, output, isConst);
    case BuiltinOperator.MAX_POOL_2D:
    case BuiltinOperator.AVERAGE_POOL_2D:
      return poolOp(code, node, tensors, output, isConst);
    case BuiltinOperator.PAD:
    case BuiltinOperator.PADV2:
      return padOp(code, node, tensors, output, isConst);
    default:
      if (UNARY.has(code) || BINARY.has(code)) return elementwiseOp(code, node, tensors, output, isConst);
      return `${name} is not a spatial operator the patch schedule can tile`;
  }
}

/** Why `t` cannot be tiled (rank, element type), or null. */
export function spatialTensorProblem(t: Tensor, what: string): string | null {
  if (t.dims.length !== 4) return `${what} (tensor ${t.index}) has rank ${t.dims.length}, tiles need NHWC rank 4`;
  if (!TILE_TYPES.has(t.type) || elementSize(t.type) === undefined) return `${what} (tensor ${t.index}) is ${tensorTypeName(t.type)}`;
  if (t.isVariable) return `${what} (tensor ${t.index}) is a variable`;
  return null;
}

/** Whether a tensor holds data fixed before the model runs (a constant, or computed from constants only). */
type IsConst = (t: Tensor) => boolean;

function spatialInput(
  name: string,
  node: Node,
  tensors: readonly Tensor[],
  position: number,
  output: Tensor,
  isConst: IsConst,
): Tensor | string {
  const index = node.inputs[position];
  const t = index !== undefined && index >= 0 ? tensors[index] : undefined;
  if (!t) return `${name} has no input ${position}`;
  if (isConst(t)) return `${name}: input ${position} (tensor ${t.index}) is a constant`;
  const problem = spatialTensorProblem(t, `input ${position}`);
  if (problem) return `${name}: ${problem}`;
  if (t.dims[0] !== output.dims[0]) return `${name}: input batch ${t.dims[0]} differs from output batch ${output.dims[0]}`;
  return t;
}

function constantsOnly(name: string, node: Node, tensors: readonly Tensor[], from: number, isConst: IsConst): string | null {
  for (let i = from; i < node.inputs.length; i++) {
    const index = node.inputs[i]!;
    if (index < 0) continue;
    const t = tensors[index];
    if (!t || !isConst(t)) return `${name}: input ${i} (tensor ${index}) is not a constant`;
  }
  return null;
}

/** TFLite's ComputePaddingWithOffset for one axis: [before, after] for `out` outputs. */
export function axisPadding(inSize: number, out: number, kernel: number, stride: number, dilation: number): [number, number] {
  const effective = (kernel - 1) * dilation + 1;
  const total = Math.max((out - 1) * stride + effective - inSize, 0);
  const before = Math.floor(total / 2);
  return [before, total - before];
}

/** TFLite's ComputeOutSize. */
export function windowOutSize(padding: Padding, inSize: number, kernel: number, stride: number, dilation: number): number {
  const effective = (kernel - 1) * dilation + 1;
  if (padding === Padding.SAME) return Math.floor((inSize + stride - 1) / stride);
  return Math.floor((inSize + stride - effective) / stride);
}

function axis(
  name: string,
  what: string,
  padding: Padding,
  inSize: number,
  outSize: number,
  kernel: number,
  stride: number,
  dilation: number,
): AxisWindow | string {
  if (!(Number.isInteger(kernel) && kernel >= 1 && Number.isInteger(stride) && stride >= 1 && Number.isInteger(dilation) && dilation >= 1))
    return `${name}: ${what} kernel ${kernel}, stride ${stride}, dilation ${dilation} are not positive integers`;
  if (padding !== Padding.SAME && padding !== Padding.VALID) return `${name}: padding ${padding} is neither SAME nor VALID`;
  const expected = windowOutSize(padding, inSize, kernel, stride, dilation);
  if (expected !== outSize) return `${name}: output ${what} ${outSize} differs from ${expected} computed from the input`;
  const [padBefore, padAfter] = padding === Padding.SAME ? axisPadding(inSize, outSize, kernel, stride, dilation) : [0, 0];
  return { kernel, stride, dilation, padBefore, padAfter };
}

/** The value a convolution's padding stands for: the input zero point (int8, uint8), else 0. */
function convFill(input: Tensor): number {
  return input.type === TensorType.INT8 || input.type === TensorType.UINT8 ? input.params.zeroPoint : 0;
}

function lowest(type: TensorType): number {
  switch (type) {
    case TensorType.INT8:
      return -128;
    case TensorType.UINT8:
      return 0;
    case TensorType.INT16:
      return -32768;
    case TensorType.INT32:
      return -2147483648;
    default:
      return FLT_LOWEST;
  }
}

function convOp(code: number, node: Node, tensors: readonly Tensor[], output: Tensor, isConst: IsConst): WindowOp | string {
  const name = builtinOperatorName(code);
  const o = node.builtinData as (Conv2DOptions & DepthwiseConv2DOptions) | null;
  if (!o) return `${name} has no options`;
  const input = spatialInput(name, node, tensors, 0, output, isConst);
  if (typeof input === 'string') return input;
  const filterIndex = node.inputs[1] ?? -1;
  const filter = filterIndex >= 0 ? tensors[filterIndex] : undefined;
  if (!filter || filter.dims.length !== 4) return `${name}: filter is missing or not rank 4`;
  const constants = constantsOnly(name, node, tensors, 1, isConst);
  if (constants) return constants;
  if (input.type !== output.type)
    return `${name}: input type ${tensorTypeName(input.type)} differs from output type ${tensorTypeName(output.type)}`;
  if (input.type === TensorType.INT32) return `${name}: int32 input`;
  const kh = filter.dims[1]!;
  const kw = filter.dims[2]!;
  const h = axis(name, 'height', o.padding, input.dims[1]!, output.dims[1]!, kh, o.strideH, o.dilationHFactor);
  if (typeof h === 'string') return h;
  const w = axis(name, 'width', o.padding, input.dims[2]!, output.dims[2]!, kw, o.strideW, o.dilationWFactor);
  if (typeof w === 'string') return w;
  const padded = h.padBefore + h.padAfter + w.padBefore + w.padAfter > 0;
  const macsPerOutput = code === BuiltinOperator.CONV_2D ? kh * kw * filter.dims[3]! : kh * kw;
  return { kind: 'window', spatialInputs: [0], macsPerOutput, h, w, fill: padded ? convFill(input) : null };
}

function poolOp(code: number, node: Node, tensors: readonly Tensor[], output: Tensor, isConst: IsConst): WindowOp | string {
  const name = builtinOperatorName(code);
  const o = node.builtinData as Pool2DOptions | null;
  if (!o) return `${name} has no options`;
  if (node.inputs.length !== 1) return `${name} has ${node.inputs.length} inputs`;
  const input = spatialInput(name, node, tensors, 0, output, isConst);
  if (typeof input === 'string') return input;
  if (input.dims[3] !== output.dims[3]) return `${name}: input and output channels differ`;
  const h = axis(name, 'height', o.padding, input.dims[1]!, output.dims[1]!, o.filterHeight, o.strideH, 1);
  if (typeof h === 'string') return h;
  const w = axis(name, 'width', o.padding, input.dims[2]!, output.dims[2]!, o.filterWidth, o.strideW, 1);
  if (typeof w === 'string') return w;
  const padded = h.padBefore + h.padAfter + w.padBefore + w.padAfter > 0;
  if (padded && code === BuiltinOperator.AVERAGE_POOL_2D)
    return `${name} with padding averages over the in-image taps only, which tiles cannot reproduce`;
  return { kind: 'window', spatialInputs: [0], macsPerOutput: 0, h, w, fill: padded ? lowest(input.type) : null };
}

function readInt(t: Tensor, i: number): number {
  const v = t.data[i]!;
  return typeof v === 'bigint' ? Number(v) : v;
}

function padOp(code: number, node: Node, tensors: readonly Tensor[], output: Tensor, isConst: IsConst): PadOp | ElementwiseOp | string {
  const name = builtinOperatorName(code);
  if (node.inputs.length < 2 || node.inputs.length > 3) return `${name} has ${node.inputs.length} inputs`;
  const input = spatialInput(name, node, tensors, 0, output, isConst);
  if (typeof input === 'string') return input;
  if (input.type !== output.type) return `${name}: input and output types differ`;
  const paddings = tensors[node.inputs[1]!];
  if (!paddings || !isConstantTensor(paddings)) return `${name}: paddings are not a constant`;
  if (paddings.elementCount !== 8 || (paddings.type !== TensorType.INT32 && paddings.type !== TensorType.INT64))
    return `${name}: paddings are not a constant int32/int64 [4, 2]`;
  const p = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => readInt(paddings, i));
  if (p.some((v) => v < 0)) return `${name} has negative paddings`;
  if (p[0] !== 0 || p[1] !== 0) return `${name} pads the batch axis`;
  // Channels only (a residual block widening its input): every output pixel reads its own input pixel,
  // so the kernel runs on the tiles as an elementwise op.
  if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return { kind: 'elementwise', spatialInputs: [0], macsPerOutput: 0 };
  if (p[6] !== 0 || p[7] !== 0) return `${name} pads the channel axis and height or width together`;
  for (let d = 1; d <= 2; d++)
    if (output.dims[d] !== input.dims[d]! + p[2 * d]! + p[2 * d + 1]!) return `${name}: output dims do not match the paddings`;
  let value = input.type === TensorType.INT8 || input.type === TensorType.UINT8 ? output.params.zeroPoint : 0;
  const cv = node.inputs.length === 3 && node.inputs[2]! >= 0 ? tensors[node.inputs[2]!] : undefined;
  if (cv) {
    if (!isConstantTensor(cv) || cv.elementCount !== 1 || cv.type !== input.type)
      return `${name}: constant_values is not a constant scalar of the input type`;
    value = readInt(cv, 0);
  }
  return { kind: 'pad', spatialInputs: [0], macsPerOutput: 0, top: p[2]!, bottom: p[3]!, left: p[4]!, right: p[5]!, value };
}

function elementwiseOp(code: number, node: Node, tensors: readonly Tensor[], output: Tensor, isConst: IsConst): ElementwiseOp | string {
  const name = builtinOperatorName(code);
  const unary = UNARY.has(code);
  if (unary && node.inputs.length !== 1) return `${name} has ${node.inputs.length} inputs`;
  if (!unary && node.inputs.length !== 2) return `${name} has ${node.inputs.length} inputs`;
  const spatial: number[] = [];
  for (let i = 0; i < node.inputs.length; i++) {
    const t = tensors[node.inputs[i]!];
    if (!t) return `${name} has no input ${i}`;
    if (isConst(t)) {
      if (unary) return `${name}: input 0 (tensor ${t.index}) is a constant`;
      // A constant operand may vary along the channels only (it is the same for every tile).
      const d = t.dims;
      const r = d.length;
      if (r > 4 || (r >= 2 && d[r - 2] !== 1) || (r >= 3 && d[r - 3] !== 1))
        return `${name}: constant input ${i} (tensor ${t.index}) varies over height or width`;
      continue;
    }
    const s = spatialInput(name, node, tensors, i, output, isConst);
    if (typeof s === 'string') return s;
    if (s.dims[1] !== output.dims[1] || s.dims[2] !== output.dims[2])
      return `${name}: input ${i} (tensor ${s.index}) is broadcast over height or width`;
    spatial.push(i);
  }
  if (spatial.length === 0) return `${name} has no non-constant input`;
  return { kind: 'elementwise', spatialInputs: spatial, macsPerOutput: 0 };
}

/** Multiply-accumulates of one node over its whole output (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV; 0 otherwise). */
export function nodeMacs(code: number, node: Node, tensors: readonly Tensor[]): number {
  const out = node.outputs.length > 0 && node.outputs[0]! >= 0 ? tensors[node.outputs[0]!] : undefined;
  const filter = node.inputs.length > 1 && node.inputs[1]! >= 0 ? tensors[node.inputs[1]!] : undefined;
  if (!out) return 0;
  switch (code) {
    case BuiltinOperator.CONV_2D:
      return filter && filter.dims.length === 4 ? out.elementCount * filter.dims[1]! * filter.dims[2]! * filter.dims[3]! : 0;
    case BuiltinOperator.DEPTHWISE_CONV_2D:
      return filter && filter.dims.length === 4 ? out.elementCount * filter.dims[1]! * filter.dims[2]! : 0;
    case BuiltinOperator.FULLY_CONNECTED:
      return filter && filter.dims.length === 2 ? out.elementCount * filter.dims[1]! : 0;
    case BuiltinOperator.TRANSPOSE_CONV: {
      const w = node.inputs[1]! >= 0 ? tensors[node.inputs[1]!] : undefined;
      const input = node.inputs[2]! >= 0 ? tensors[node.inputs[2]!] : undefined;
      return w && input && w.dims.length === 4 ? input.elementCount * w.dims[0]! * w.dims[1]! * w.dims[2]! : 0;
    }
    default:
      return 0;
  }
}

/** Ops that, applied to constants only, give data fixed before the model runs. */
const CONSTANT_FOLDABLE = new Set<number>([
  BuiltinOperator.DEQUANTIZE,
  BuiltinOperator.DENSIFY,
  BuiltinOperator.CAST,
  BuiltinOperator.RESHAPE,
]);

/**
 * Plan positions of nodes computing from constants only (DEQUANTIZE of float16 weights, DENSIFY of
 * sparse weights, CAST or RESHAPE of constants, and chains of them), and the tensors they produce. A patch stage may contain
 * them: they run once, before its tiles.
 */
export function constantNodes(
  steps: readonly { node: Node; code: number }[],
  tensors: readonly Tensor[],
  graphOutputs: ArrayLike<number>,
): { nodes: Set<number>; tensors: Set<number> } {
  const outputs = new Set<number>(Array.from(graphOutputs));
  const nodes = new Set<number>();
  const computed = new Set<number>();
  steps.forEach((s, k) => {
    if (!CONSTANT_FOLDABLE.has(s.code) || s.node.outputs.length === 0) return;
    for (let i = 0; i < s.node.inputs.length; i++) {
      const t = s.node.inputs[i]!;
      if (t < 0) continue;
      const tensor = tensors[t];
      if (!tensor || !(isConstantTensor(tensor) || computed.has(t))) return;
    }
    for (let i = 0; i < s.node.outputs.length; i++) if (outputs.has(s.node.outputs[i]!)) return;
    nodes.add(k);
    for (let i = 0; i < s.node.outputs.length; i++) computed.add(s.node.outputs[i]!);
  });
  return { nodes, tensors: computed };
}
