/**
 * CONCATENATION (TFLM kernels/concatenation.cc, reference_ops::Concatenation): joins float32, int8,
 * int16, int32, int64 or bool tensors (and TFLite's float16, bfloat16, uint32) of up to 6 dimensions
 * along one axis (negative allowed). As TFLM
 * requires, int8 inputs share the output's scale and zero point (no requantization) and int16 tensors
 * have zero point 0; the fused activation must be NONE. uint8 (TFLite only) follows TFLite's
 * reference_ops::ConcatenationWithScaling: an input quantized like the output is copied, any other is
 * requantized element by element in float32 (per-input scale and bias kept in a persistent region).
 *
 * Inputs whose shape depends on data (a detector's gathered boxes and scores…) make the output
 * data-dependent: planned from the inputs' bounds, with the row sizes and the actual dims recomputed at
 * every invoke from the inputs' actual dims, which must then agree outside the axis
 * (data-dependent-shape.ts).
 */
import { ActivationFunctionType, BuiltinOperator, KernelError, TensorType, getInput, tensorTypeName } from '@micrort/core';
import type { ConcatenationOptions, Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  type ElementLayout,
  type NumberArray,
  type OpDataBlock,
  allocateOpDataBlock,
  elementLayout,
  movableData,
  opDataBlock,
  shapeString,
} from './transpose-common.js';
import { fillOpData, isDataDependent, opData, setOutputShapeOrBound } from '@micrort/kernel-support';

const OP = 'CONCATENATION';
/** TFLM's RuntimeShape::kMaxSmallSize: the rank limit of CONCATENATION. */
export const CONCATENATION_MAX_DIMS = 6;

const SUPPORTED = new Set<TensorType>([
  TensorType.FLOAT32,
  TensorType.UINT8,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.BOOL,
  TensorType.FLOAT16,
  TensorType.BFLOAT16,
  TensorType.UINT32,
]);

/**
 * sizeof(OpData) of TFLM's concatenation kernel on x86-64: ConcatenationParams {int32 axis; const int32*
 * input_zeropoint; const float* input_scale; int32 inputs_count; int32 output_zeropoint; float output_scale}.
 */
export const OP_DATA_CONCATENATION_BYTES = 40;

/** Op data computed in prepare. */
export interface ConcatenationOpData extends OpDataBlock {
  layout: ElementLayout;
  /** Product of the output dims before the axis. */
  outerSize: number;
  /** Array slots the output advances per outer step (output axis dim * inner size * units). */
  outRowSlots: number;
  /** Per input: array slots copied per outer step, and where they start in an output row. */
  copySlots: Int32Array;
  rowOffsets: Int32Array;
  /**
   * uint8 only: per input, the float32 scale (input_scale / output_scale) and bias (-zero_point * scale)
   * of its requantization at [2i, 2i + 1], or NaN scale for an input copied as is; empty otherwise.
   */
  rescale: Float32Array;
  outputZeroPoint: number;
  /** Some input is data-dependent: the sizes above and `dims` follow the inputs' actual dims at invoke. */
  bounded: boolean;
  axis: number;
  /** The output's dims at this invoke (bounded). */
  dims: Int32Array;
}

const EMPTY_F32 = new Float32Array(0);

function init(context: TfLiteContext): OpDataBlock {
  return allocateOpDataBlock(context, OP_DATA_CONCATENATION_BYTES);
}

function prepare(context: TfLiteContext, node: Node): void {
  const block = opDataBlock(OP, node);
  const numInputs = node.inputs.length;
  if (numInputs < 1) throw new KernelError(OP, node.index, 'expects at least 1 input');
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const params = node.builtinData as ConcatenationOptions | null;
  const activation = params?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (activation !== ActivationFunctionType.NONE)
    throw new KernelError(
      OP,
      node.index,
      `fused activation ${ActivationFunctionType[activation] ?? activation} is not supported (NONE only)`,
    );
  // TFLite's Prepare: input 0's shape with the inputs' sizes along the axis added up.
  const outShape = Array.from(getInput(context, node, 0, OP).dims);
  const axis0 = (params?.axis ?? 0) < 0 ? (params?.axis ?? 0) + outShape.length : (params?.axis ?? 0);
  if (axis0 >= 0 && axis0 < outShape.length) {
    let sum = 0;
    for (let i = 0; i < numInputs; i++) sum += getInput(context, node, i, OP).dims[axis0] ?? 0;
    outShape[axis0] = sum;
  }
  let bounded = false;
  for (let i = 0; i < numInputs; i++) if (isDataDependent(getInput(context, node, i, OP))) bounded = true;
  const output = setOutputShapeOrBound(OP, context, node, 0, outShape, bounded);
  const type = output.type;
  if (!SUPPORTED.has(type))
    throw new KernelError(
      OP,
      node.index,
      `unsupported type ${tensorTypeName(type)} (float32, uint8, int8, int16, int32, int64, bool are supported)`,
    );
  const rank = output.dims.length;
  if (rank > CONCATENATION_MAX_DIMS)
    throw new KernelError(OP, node.index, `output has ${rank} dimensions, at most ${CONCATENATION_MAX_DIMS} are supported`);
  const rawAxis = params?.axis ?? 0;
  const axis = rawAxis < 0 ? rawAxis + rank : rawAxis;
  if (axis < 0 || axis >= rank) throw new KernelError(OP, node.index, `axis ${rawAxis} is out of range for ${rank}-D tensors`);
  if (type === TensorType.INT16 && output.params.zeroPoint !== 0)
    throw new KernelError(OP, node.index, `int16 output zero point must be 0, got ${output.params.zeroPoint}`);

  const layout = elementLayout(type, OP, node);
  let inner = 1;
  for (let d = axis + 1; d < rank; d++) inner *= output.dims[d]!;
  let outerSize = 1;
  for (let d = 0; d < axis; d++) outerSize *= output.dims[d]!;
  const copySlots = new Int32Array(numInputs);
  const rowOffsets = new Int32Array(numInputs);
  const rescale = type === TensorType.UINT8 ? context.allocatePersistentBuffer(numInputs * 8).f32.subarray(0, 2 * numInputs) : EMPTY_F32;
  const f = Math.fround;
  const inverseOutputScale = type === TensorType.UINT8 ? f(1 / output.params.scale) : 0;
  let axisTotal = 0;
  for (let i = 0; i < numInputs; i++) {
    const input = getInput(context, node, i, OP);
    if (input.type !== type)
      throw new KernelError(OP, node.index, `input ${i} has type ${tensorTypeName(input.type)}, the output ${tensorTypeName(type)}`);
    if (input.dims.length !== rank)
      throw new KernelError(OP, node.index, `input ${i} has shape ${shapeString(input.dims)}, expected ${rank} dimensions like the output`);
    for (let d = 0; d < rank; d++) {
      if (d !== axis && input.dims[d] !== output.dims[d])
        throw new KernelError(
          OP,
          node.index,
          `input ${i} shape ${shapeString(input.dims)} differs from output shape ${shapeString(output.dims)} in dimension ${d} (axis is ${axis})`,
        );
    }
    if (type === TensorType.INT8 && (input.params.scale !== output.params.scale || input.params.zeroPoint !== output.params.zeroPoint))
      throw new KernelError(
        OP,
        node.index,
        `int8 input ${i} quantization (scale ${input.params.scale}, zero point ${input.params.zeroPoint}) must equal the output's ` +
          `(scale ${output.params.scale}, zero point ${output.params.zeroPoint}); requantizing concatenation is not supported`,
      );
    if (type === TensorType.INT16 && input.params.zeroPoint !== 0)
      throw new KernelError(OP, node.index, `int16 input ${i} zero point must be 0, got ${input.params.zeroPoint}`);
    if (type === TensorType.UINT8) {
      if (input.params.zeroPoint === output.params.zeroPoint && input.params.scale === output.params.scale) {
        rescale[2 * i] = Number.NaN;
      } else {
        if (!(input.params.scale > 0) || !(output.params.scale > 0) || !Number.isFinite(inverseOutputScale))
          throw new KernelError(
            OP,
            node.index,
            `uint8 input ${i} (scale ${input.params.scale}) and output (scale ${output.params.scale}) need positive scales to requantize`,
          );
        const scale = f(input.params.scale * inverseOutputScale);
        rescale[2 * i] = scale;
        rescale[2 * i + 1] = f(-input.params.zeroPoint * scale);
      }
    }
    rowOffsets[i] = axisTotal * inner * layout.units;
    copySlots[i] = input.dims[axis]! * inner * layout.units;
    axisTotal += input.dims[axis]!;
  }
  if (axisTotal !== output.dims[axis])
    throw new KernelError(OP, node.index, `inputs add up to ${axisTotal} along axis ${axis}, the output has ${output.dims[axis]}`);
  // TFLM fills axis and inputs_count (the quantization pointers stay null: no requantization).
  block.setInt32(0, axis, true);
  block.setInt32(24, numInputs, true);
  const data: ConcatenationOpData = {
    block,
    layout,
    outerSize,
    outRowSlots: axisTotal * inner * layout.units,
    copySlots,
    rowOffsets,
    rescale,
    outputZeroPoint: output.params.zeroPoint,
    bounded,
    axis,
    dims: Int32Array.from(output.dims),
  };
  fillOpData(OP, node, data);
}

/** Copies one input's rows into their place in each output row. */
function copyInput(src: NumberArray, dst: NumberArray, outer: number, size: number, rowOffset: number, rowSlots: number): void {
  let p = 0;
  for (let k = 0; k < outer; k++) {
    let o = k * rowSlots + rowOffset;
    for (let j = 0; j < size; j++) dst[o++] = src[p++]!;
  }
}

/**
 * Requantizes one uint8 input's rows into each output row (ConcatenationWithScaling):
 * clamp((int32)roundf(x * scale + bias) + output_zero_point, 0, 255), in float32.
 */
function requantizeInput(
  src: Uint8Array,
  dst: Uint8Array,
  outer: number,
  size: number,
  rowOffset: number,
  rowSlots: number,
  scale: number,
  bias: number,
  zeroPoint: number,
): void {
  const f = Math.fround;
  let p = 0;
  for (let k = 0; k < outer; k++) {
    let o = k * rowSlots + rowOffset;
    for (let j = 0; j < size; j++) {
      const t = f(f(src[p++]! * scale) + bias);
      const v = (t < 0 ? -Math.round(-t) : Math.round(t)) + zeroPoint;
      dst[o++] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
}

/** Data-dependent inputs: the row sizes and the output's actual dims from the inputs' actual dims. */
function followInputs(context: TfLiteContext, node: Node, d: ConcatenationOpData): void {
  const out = d.dims;
  const rank = out.length;
  const axis = d.axis;
  const first = context.getEvalTensor(node.inputs[0]!).dims;
  let inner = d.layout.units;
  for (let k = axis + 1; k < rank; k++) inner *= first[k]!;
  let outer = 1;
  for (let k = 0; k < axis; k++) outer *= first[k]!;
  let total = 0;
  for (let i = 0; i < node.inputs.length; i++) {
    const dims = context.getEvalTensor(node.inputs[i]!).dims;
    for (let k = 0; k < rank; k++)
      if (k !== axis && dims[k] !== first[k])
        throw new KernelError(
          OP,
          node.index,
          `input ${i} has shape ${shapeString(dims)} at this invoke, input 0 ${shapeString(first)}: they differ in dimension ${k} (axis is ${axis})`,
        );
    d.rowOffsets[i] = total * inner;
    d.copySlots[i] = dims[axis]! * inner;
    total += dims[axis]!;
  }
  for (let k = 0; k < rank; k++) out[k] = first[k]!;
  out[axis] = total;
  d.outerSize = outer;
  d.outRowSlots = total * inner;
  context.setActualShape(node.outputs[0]!, out);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ConcatenationOpData>(OP, node);
  if (d.bounded) followInputs(context, node, d);
  const dst = movableData(context.getEvalTensor(node.outputs[0]!), d.layout);
  const n = node.inputs.length;
  const rescale = d.rescale;
  for (let i = 0; i < n; i++) {
    const src = movableData(context.getEvalTensor(node.inputs[i]!), d.layout);
    if (rescale.length !== 0 && !Number.isNaN(rescale[2 * i]!)) {
      requantizeInput(
        src as Uint8Array,
        dst as Uint8Array,
        d.outerSize,
        d.copySlots[i]!,
        d.rowOffsets[i]!,
        d.outRowSlots,
        rescale[2 * i]!,
        rescale[2 * i + 1]!,
        d.outputZeroPoint,
      );
    } else {
      copyInput(src, dst, d.outerSize, d.copySlots[i]!, d.rowOffsets[i]!, d.outRowSlots);
    }
  }
}

/** CONCATENATION registration (op versions 1..4). */
export const CONCATENATION: Registration = {
  builtinCode: BuiltinOperator.CONCATENATION,
  version: 4,
  provider: PROVIDER,
  name: OP,
  dynamicInputShapes: true,
  init,
  prepare,
  invoke,
};
