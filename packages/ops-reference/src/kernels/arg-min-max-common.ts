/**
 * Shared kernel of ARG_MAX and ARG_MIN (TFLM kernels/arg_min_max.cc, reference_ops::ArgMinMax): the index
 * of the largest (smallest) element along one axis; ties keep the first index (strict comparison), a NaN
 * never replaces the current best. As TFLM: float32 or int8 input, a constant int32 axis (scalar or
 * 1-element; negative counts from the end), an int32 output; and as TFLite's arg_min_max.cc, uint8, int32
 * and bool inputs (raw values compared), an int64 axis and an int64 output (the index in the low word).
 * TFLM keeps no op data. A data-dependent input is followed (the sizes and the output's dims from its
 * actual dims at every invoke).
 */
import { KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, TfLiteContext } from '@micrort/core';
import { dimProduct, readConstantAxis, resolveAxis, typeSupport } from './data-common.js';
import type { NumberArray } from './transpose-common.js';
import { expectType, isDataDependent, opData, setOutputShapeOrBound } from '@micrort/kernel-support';

/** Input types TFLM's ArgMinMax eval handles, and TFLite's uint8, int32, bool. */
export const ARG_MIN_MAX_TYPES = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8, TensorType.INT32, TensorType.BOOL] as const;
const OUTPUT_TYPES = [TensorType.INT32, TensorType.INT64] as const;

/** Op data computed in prepare. */
export interface ArgMinMaxOpData {
  outer: number;
  axisSize: number;
  inner: number;
  /** The output is int64: indices go to the low words. */
  int64Out: boolean;
  axis: number;
  /** A data-dependent input: the output's dims at this invoke (outer, axisSize and inner follow). */
  dims: Int32Array | null;
}

/** `supports()` of both kernels: the input type, then the int32 output. */
export function argMinMaxSupport(context: TfLiteContext, node: Node): true | string {
  const input = typeSupport(context, node, ARG_MIN_MAX_TYPES);
  return input === true ? typeSupport(context, node, OUTPUT_TYPES, 0, 'output') : input;
}

/** Prepare of both kernels: validates types, axis and output shape. */
export function prepareArgMinMax(op: string, context: TfLiteContext, node: Node): ArgMinMaxOpData {
  checkArity(op, node, 2, 1);
  const input = getInput(context, node, 0, op);
  const axisTensor = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, ARG_MIN_MAX_TYPES);
  expectType(op, node, 'output', output, OUTPUT_TYPES);
  const rank = input.dims.length;
  if (rank < 1) throw new KernelError(op, node.index, 'input must have at least 1 dimension');
  const axis = resolveAxis(op, node, readConstantAxis(op, node, axisTensor, 'axis', [TensorType.INT32, TensorType.INT64]), rank);
  const axisSize = input.dims[axis]!;
  if (axisSize < 1) throw new KernelError(op, node.index, `axis ${axis} has size 0: there is no element to pick`);
  const expected = Array.from(input.dims);
  expected.splice(axis, 1);
  const bounded = isDataDependent(input);
  setOutputShapeOrBound(op, context, node, 0, expected, bounded);
  return {
    outer: dimProduct(input.dims, 0, axis),
    axisSize,
    inner: dimProduct(input.dims, axis + 1),
    int64Out: output.type === TensorType.INT64,
    axis,
    dims: bounded ? Int32Array.from(expected) : null,
  };
}

/** ArgMinMax with `greater` (ARG_MAX) or less (ARG_MIN): writes the first index of the extreme value. */
export function argMinMax(d: ArgMinMaxOpData, input: NumberArray, output: Int32Array, greater: boolean): void {
  const { outer, axisSize, inner } = d;
  for (let o = 0; o < outer; o++) {
    const base = o * axisSize * inner;
    for (let k = 0; k < inner; k++) {
      let best = input[base + k]!;
      let bestIndex = 0;
      for (let i = 1, p = base + inner + k; i < axisSize; i++, p += inner) {
        const v = input[p]!;
        if (greater ? v > best : v < best) {
          best = v;
          bestIndex = i;
        }
      }
      if (d.int64Out) {
        output[2 * (o * inner + k)] = bestIndex;
        output[2 * (o * inner + k) + 1] = 0;
      } else output[o * inner + k] = bestIndex;
    }
  }
}

/** Invoke, data-dependent input: the sizes and the output's dims from the input's actual dims. */
function followInput(op: string, context: TfLiteContext, node: Node, d: ArgMinMaxOpData, out: Int32Array): void {
  const dims = context.getEvalTensor(node.inputs[0]!).dims;
  const axis = d.axis;
  if (dims[axis]! < 1) throw new KernelError(op, node.index, `axis ${axis} has size 0 at this invoke: there is no element to pick`);
  let outer = 1;
  let inner = 1;
  for (let i = 0, j = 0; i < dims.length; i++) {
    if (i === axis) continue;
    out[j++] = dims[i]!;
    if (i < axis) outer *= dims[i]!;
    else inner *= dims[i]!;
  }
  d.outer = outer;
  d.axisSize = dims[axis]!;
  d.inner = inner;
  context.setActualShape(node.outputs[0]!, out);
}

/** Invoke of both kernels. */
export function invokeArgMinMax(context: TfLiteContext, node: Node, greater: boolean): void {
  const op = greater ? 'ARG_MAX' : 'ARG_MIN';
  const d = opData<ArgMinMaxOpData>(op, node);
  if (d.dims !== null) followInput(op, context, node, d, d.dims);
  const input = context.getEvalTensor(node.inputs[0]!).data as unknown as NumberArray;
  const output = context.getEvalTensor(node.outputs[0]!);
  argMinMax(d, input, d.int64Out ? output.words : (output.data as Int32Array), greater);
}
