/**
 * What the patch schedule knows of an operator: how its output pixels depend on its input pixels, as
 * its kernel declares it (`Registration.spatial`, core's SpatialBehaviour), made concrete for the
 * node's tensors — or why the node cannot run tile by tile. Only a node whose output pixel (y, x) reads
 * a fixed window of input pixels, with no other data than constants, can:
 *
 * - `window` (convolutions, pools): kernel, stride, dilation and the padding TFLite computes for the
 *   whole tensor. Image padding is replaced by tile buffers filled with the value the kernel declares
 *   for a padded tap (`padValue`); a kernel that declares none (AVERAGE_POOL_2D divides by the in-image
 *   taps) is tiled only where it has no padding.
 * - `pad` (PAD / PADV2 of the two spatial axes only). In a tile it moves nothing: its output window is
 *   its input's, seen shifted, with the out-of-image part filled with the pad value (no kernel runs).
 *   A PAD of the channels only is elementwise (its kernel runs on the tiles).
 * - `elementwise` (declared `pointwise`): every non-constant input is read pixel by pixel; a constant
 *   operand may vary along the channels only (it is the same for every tile).
 *
 * The rest of this file is the schedule's own policy: which element types tile buffers hold, which
 * nodes compute from constants only (hoisted before the tiles), and the model's MACs for the recompute
 * budget.
 */
import {
  AllocationType,
  BuiltinOperator,
  Padding,
  TensorType,
  elementSize,
  tensorTypeName,
  type Node,
  type SpatialBehaviour,
  type SpatialPad,
  type SpatialWindow,
  type Tensor,
} from '@micrort/core';
import { computeOutSize, computePaddingWithOffset, opMacs } from '@micrort/kernel-support';

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

/** Element types whose tile buffers the schedule can fill. */
const TILE_TYPES = new Set<TensorType>([TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.INT32]);

/** Whether `t` is a constant (data in the model). */
export function isConstantTensor(t: Tensor): boolean {
  return t.allocationType === AllocationType.MmapRo;
}

/**
 * How output pixels of `node` (display name `name`) depend on input pixels, given what its kernel
 * declared (`declared`: the answer of `Registration.spatial`, or null when the kernel has none), or why
 * the node cannot run tile by tile. `tensors` are the node's subgraph's tensors; `computedConstants`
 * are tensors computed from constants only (see `constantNodes`), which count as constants.
 */
export function describeSpatialOp(
  name: string,
  declared: SpatialBehaviour | string | null,
  node: Node,
  tensors: readonly Tensor[],
  computedConstants?: ReadonlySet<number>,
): SpatialOp | string {
  const isConst: IsConst = computedConstants ? (t) => isConstantTensor(t) || computedConstants.has(t.index) : isConstantTensor;
  if (node.outputs.length !== 1) return `${name} has ${node.outputs.length} outputs`;
  const output = tensors[node.outputs[0]!];
  if (!output) return `${name} has no output tensor`;
  const outProblem = spatialTensorProblem(output, 'output');
  if (outProblem) return `${name}: ${outProblem}`;
  if (declared === null) return `${name} is not a spatial operator the patch schedule can tile (its kernel declares no spatial behaviour)`;
  if (typeof declared === 'string') return `${name}: ${declared}`;
  switch (declared.kind) {
    case 'window':
      return windowOp(name, declared, node, tensors, output, isConst);
    case 'pad':
      return padOp(name, declared, node, tensors, output, isConst);
    case 'pointwise':
      return elementwiseOp(name, node, tensors, output, isConst);
    default:
      return `${name}: unknown spatial behaviour ${(declared as { kind: string }).kind}`;
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

/** Every input but `spatial` is a constant (or omitted), or the reason. */
function othersConstant(name: string, node: Node, tensors: readonly Tensor[], spatial: number, isConst: IsConst): string | null {
  for (let i = 0; i < node.inputs.length; i++) {
    const index = node.inputs[i]!;
    if (i === spatial || index < 0) continue;
    const t = tensors[index];
    if (!t || !isConst(t)) return `${name}: input ${i} (tensor ${index}) is not a constant`;
  }
  return null;
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
  const expected = computeOutSize(padding, inSize, kernel, stride, dilation);
  if (expected !== outSize) return `${name}: output ${what} ${outSize} differs from ${expected} computed from the input`;
  const { padding: padBefore, offset } =
    padding === Padding.SAME ? computePaddingWithOffset(stride, dilation, inSize, kernel, outSize) : { padding: 0, offset: 0 };
  const padAfter = padBefore + offset;
  return { kernel, stride, dilation, padBefore, padAfter };
}

function windowOp(
  name: string,
  d: SpatialWindow,
  node: Node,
  tensors: readonly Tensor[],
  output: Tensor,
  isConst: IsConst,
): WindowOp | string {
  const input = spatialInput(name, node, tensors, d.input, output, isConst);
  if (typeof input === 'string') return input;
  const constants = othersConstant(name, node, tensors, d.input, isConst);
  if (constants) return constants;
  if (input.type !== output.type)
    return `${name}: input type ${tensorTypeName(input.type)} differs from output type ${tensorTypeName(output.type)}`;
  const h = axis(name, 'height', d.padding, input.dims[1]!, output.dims[1]!, d.kernelH, d.strideH, d.dilationH);
  if (typeof h === 'string') return h;
  const w = axis(name, 'width', d.padding, input.dims[2]!, output.dims[2]!, d.kernelW, d.strideW, d.dilationW);
  if (typeof w === 'string') return w;
  const padded = h.padBefore + h.padAfter + w.padBefore + w.padAfter > 0;
  if (padded && typeof d.padValue === 'string') return `${name} with padding ${d.padValue}, which tiles cannot reproduce`;
  const fill = padded ? (d.padValue as number) : null;
  return { kind: 'window', spatialInputs: [d.input], macsPerOutput: d.macsPerOutput, h, w, fill };
}

function padOp(
  name: string,
  d: SpatialPad,
  node: Node,
  tensors: readonly Tensor[],
  output: Tensor,
  isConst: IsConst,
): PadOp | ElementwiseOp | string {
  const input = spatialInput(name, node, tensors, d.input, output, isConst);
  if (typeof input === 'string') return input;
  if (input.type !== output.type) return `${name}: input and output types differ`;
  const p = d.paddings;
  if (p.length !== 8) return `${name}: ${p.length} paddings declared, NHWC needs 8`;
  if (p.some((v) => v < 0)) return `${name} has negative paddings`;
  if (p[0] !== 0 || p[1] !== 0) return `${name} pads the batch axis`;
  // Channels only (a residual block widening its input): every output pixel reads its own input pixel,
  // so the kernel runs on the tiles as an elementwise op.
  if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return { kind: 'elementwise', spatialInputs: [d.input], macsPerOutput: 0 };
  if (p[6] !== 0 || p[7] !== 0) return `${name} pads the channel axis and height or width together`;
  for (let a = 1; a <= 2; a++)
    if (output.dims[a] !== input.dims[a]! + p[2 * a]! + p[2 * a + 1]!) return `${name}: output dims do not match the paddings`;
  return { kind: 'pad', spatialInputs: [d.input], macsPerOutput: 0, top: p[2]!, bottom: p[3]!, left: p[4]!, right: p[5]!, value: d.value };
}

function elementwiseOp(name: string, node: Node, tensors: readonly Tensor[], output: Tensor, isConst: IsConst): ElementwiseOp | string {
  const spatial: number[] = [];
  for (let i = 0; i < node.inputs.length; i++) {
    const t = tensors[node.inputs[i]!];
    if (!t) return `${name} has no input ${i}`;
    if (isConst(t)) {
      if (node.inputs.length === 1) return `${name}: input 0 (tensor ${t.index}) is a constant`;
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

/**
 * Multiply-accumulates of one node over its whole output, by the operator's definition (CONV_2D,
 * DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV; 0 otherwise): the model's MACs, the base of the
 * recompute budget, the same whichever kernels serve the nodes.
 */
export function nodeMacs(code: number, node: Node, tensors: readonly Tensor[]): number {
  const dims = (k: number | undefined) => (k !== undefined && k >= 0 ? tensors[k]?.dims : undefined);
  return opMacs(code, dims(node.outputs[0]), dims(node.inputs[1]), dims(node.inputs[2]));
}

/** Ops that, applied to constants only, give data fixed before the model runs (the schedule hoists them). */
const CONSTANT_FOLDABLE = new Set<number>([
  BuiltinOperator.DEQUANTIZE,
  BuiltinOperator.DENSIFY,
  BuiltinOperator.CAST,
  BuiltinOperator.RESHAPE,
]);

/**
 * Plan positions of nodes computing from constants only (DEQUANTIZE of float16 weights, DENSIFY of
 * sparse weights, CAST or RESHAPE of constants, and chains of them), and the tensors they produce. A
 * patch stage may contain them: they run once, before its tiles.
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
