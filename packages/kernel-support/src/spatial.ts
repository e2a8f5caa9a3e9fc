/**
 * What kernels do spatially (`Registration.spatial`), for schedules that run nodes on windows of their
 * tensors (the patch schedule of @micrort/schedules): convolutions and pools read a window of their
 * input, PAD / PADV2 shift it, activations and elementwise arithmetic are pointwise. Each describer
 * states facts of the op from the node's options and tensors (TFLM's semantics: a convolution's padded
 * tap stands for the input zero point, a max pool's for the type's lowest value, an average pool leaves
 * padded taps out); the schedule decides whether the node can run tile by tile. Every kernel package
 * attaches them the same way: `withSpatial` for one registration, `declareSpatial` for a list.
 */
import {
  BuiltinOperator,
  TensorType,
  type Conv2DOptions,
  type DepthwiseConv2DOptions,
  type Node,
  type Pool2DOptions,
  type Registration,
  type SpatialBehaviour,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';

/** `registration` with its spatial behaviour declared. */
export function withSpatial<T>(registration: Registration<T>, spatial: NonNullable<Registration['spatial']>): Registration<T> {
  return { ...registration, spatial };
}

const POINTWISE: SpatialBehaviour = Object.freeze({ kind: 'pointwise' });

/** Activations and elementwise arithmetic: output element i reads element i of each input. */
export function pointwiseSpatial(): SpatialBehaviour {
  return POINTWISE;
}

/** Input `i` of the node, or undefined when omitted. */
function inputOf(context: TfLiteContext, node: Node, i: number): Tensor | undefined {
  const t = node.inputs[i];
  return t !== undefined && t >= 0 ? context.getTensor(t) : undefined;
}

/** What a padded tap of a convolution stands for: TFLM skips it, as a tap of value zero point would. */
function convPadValue(input: Tensor): number {
  return input.type === TensorType.INT8 || input.type === TensorType.UINT8 ? input.params.zeroPoint : 0;
}

/** CONV_2D and DEPTHWISE_CONV_2D: a filter-sized window of input 0; the filter and bias are constants. */
function convWindow(context: TfLiteContext, node: Node, depthwise: boolean): SpatialBehaviour | string {
  const o = node.builtinData as (Conv2DOptions & DepthwiseConv2DOptions) | null;
  if (!o) return 'no options';
  const input = inputOf(context, node, 0);
  const filter = inputOf(context, node, 1);
  if (!input) return 'no input';
  if (!filter || filter.dims.length !== 4) return 'filter is missing or not rank 4';
  const kh = filter.dims[1]!;
  const kw = filter.dims[2]!;
  return {
    kind: 'window',
    input: 0,
    kernelH: kh,
    kernelW: kw,
    strideH: o.strideH,
    strideW: o.strideW,
    dilationH: o.dilationHFactor,
    dilationW: o.dilationWFactor,
    padding: o.padding,
    padValue: convPadValue(input),
    macsPerOutput: depthwise ? kh * kw : kh * kw * filter.dims[3]!,
  };
}

/** CONV_2D's spatial behaviour. */
export function convSpatial(context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return convWindow(context, node, false);
}

/** DEPTHWISE_CONV_2D's spatial behaviour. */
export function depthwiseSpatial(context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return convWindow(context, node, true);
}

/** Lowest value of `type`: MAX_POOL_2D starts from it (float: `std::numeric_limits<float>::lowest()`). */
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
      return -3.4028234663852886e38;
  }
}

function poolWindow(context: TfLiteContext, node: Node, padValue: (input: Tensor) => number | string): SpatialBehaviour | string {
  const o = node.builtinData as Pool2DOptions | null;
  if (!o) return 'no options';
  const input = inputOf(context, node, 0);
  if (!input) return 'no input';
  return {
    kind: 'window',
    input: 0,
    kernelH: o.filterHeight,
    kernelW: o.filterWidth,
    strideH: o.strideH,
    strideW: o.strideW,
    dilationH: 1,
    dilationW: 1,
    padding: o.padding,
    padValue: padValue(input),
    macsPerOutput: 0,
  };
}

/** MAX_POOL_2D's spatial behaviour: a padded tap is the type's lowest value. */
export function maxPoolSpatial(context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return poolWindow(context, node, (input) => lowest(input.type));
}

/** AVERAGE_POOL_2D's spatial behaviour: padded taps are left out of the average, which no value reproduces. */
export function averagePoolSpatial(context: TfLiteContext, node: Node): SpatialBehaviour | string {
  return poolWindow(context, node, () => 'averages over the in-image taps only');
}

function readInt(t: Tensor, i: number): number {
  const v = t.data[i]!;
  return typeof v === 'bigint' ? Number(v) : v;
}

/**
 * PAD and PADV2: the constant paddings tensor `[4, 2]`, and the pad value (PADV2's constant_values, else
 * the output zero point for int8 / uint8, 0 otherwise).
 */
export function padSpatial(context: TfLiteContext, node: Node): SpatialBehaviour | string {
  const input = inputOf(context, node, 0);
  const paddings = inputOf(context, node, 1);
  const output = node.outputs[0] !== undefined && node.outputs[0] >= 0 ? context.getTensor(node.outputs[0]) : undefined;
  if (!input || !output) return 'no input or output';
  if (!paddings || !paddings.isConstant) return 'paddings are not a constant';
  if (paddings.elementCount !== 8 || (paddings.type !== TensorType.INT32 && paddings.type !== TensorType.INT64))
    return 'paddings are not a constant int32/int64 [4, 2]';
  let value = input.type === TensorType.INT8 || input.type === TensorType.UINT8 ? output.params.zeroPoint : 0;
  const cv = node.inputs.length === 3 ? inputOf(context, node, 2) : undefined;
  if (cv) {
    if (!cv.isConstant || cv.elementCount !== 1 || cv.type !== input.type)
      return 'constant_values is not a constant scalar of the input type';
    value = readInt(cv, 0);
  }
  return { kind: 'pad', input: 0, paddings: [0, 1, 2, 3, 4, 5, 6, 7].map((i) => readInt(paddings, i)), value };
}

/** The describer of each op with a spatial behaviour (`declareSpatial`). */
const BY_OP = new Map<number, NonNullable<Registration['spatial']>>([
  [BuiltinOperator.CONV_2D, convSpatial],
  [BuiltinOperator.DEPTHWISE_CONV_2D, depthwiseSpatial],
  [BuiltinOperator.MAX_POOL_2D, maxPoolSpatial],
  [BuiltinOperator.AVERAGE_POOL_2D, averagePoolSpatial],
  [BuiltinOperator.PAD, padSpatial],
  [BuiltinOperator.PADV2, padSpatial],
  ...[
    BuiltinOperator.ADD,
    BuiltinOperator.SUB,
    BuiltinOperator.MUL,
    BuiltinOperator.MAXIMUM,
    BuiltinOperator.MINIMUM,
    BuiltinOperator.SQUARED_DIFFERENCE,
    BuiltinOperator.QUANTIZE,
    BuiltinOperator.DEQUANTIZE,
    BuiltinOperator.ABS,
    BuiltinOperator.NEG,
    BuiltinOperator.LOGISTIC,
    BuiltinOperator.TANH,
    BuiltinOperator.RELU,
    BuiltinOperator.RELU6,
    BuiltinOperator.RELU_N1_TO_1,
    BuiltinOperator.LEAKY_RELU,
    BuiltinOperator.HARD_SWISH,
  ].map((op) => [op, pointwiseSpatial] as const),
]);

/**
 * `kernels` with the spatial behaviour of their ops declared (CONV_2D, DEPTHWISE_CONV_2D, the pools, PAD,
 * PADV2, and the pointwise ADD, SUB, MUL, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, QUANTIZE, DEQUANTIZE, ABS,
 * NEG, LOGISTIC, TANH, RELU, RELU6, RELU_N1_TO_1, LEAKY_RELU, HARD_SWISH: the ops ops-reference declares);
 * other registrations are returned as they are.
 */
export function declareSpatial(kernels: readonly Registration[]): Registration[] {
  return kernels.map((r) => {
    const spatial = BY_OP.get(r.builtinCode);
    return spatial ? { ...r, spatial } : r;
  });
}
