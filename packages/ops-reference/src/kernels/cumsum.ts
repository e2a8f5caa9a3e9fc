/**
 * CUMSUM (tflite-micro kernels/cumsum.cc; reference_ops::CumSum): the running sum along one axis (int32
 * scalar axis tensor, negative counts from the end), optionally exclusive (each output leaves out its
 * own element) and/or reverse (sums run from the end).
 *
 * - float32: the accumulator starts at 0 and adds in float32.
 * - int8: TFLM's 8-bit add path (left shift 20, input multiplier 1/2, output multiplier
 *   2 * input scale / (2^20 * output scale)) where, as in ADD_N, the accumulator STARTS at the rescaled
 *   input offset (-zero point) instead of 0, so with a non-zero input zero point every output carries
 *   one extra -zero point term (`cumsum_int8_reverse` / `cumsum_int8_exclusive` pin it).
 *
 * - int32 and int64 (TFLite's): the running sum with wrap-around (int64 on int32 word pairs).
 *
 * TFLM refuses other input types in prepare (int32 included). The axis is read in prepare when the axis
 * tensor is constant; otherwise at invoke, where an out-of-range axis fails the invoke as in TFLM.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  sameShape,
  tensorTypeName,
  type CumsumOptions,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { EightBitAddWord, MATH_OP_DATA_BYTES, fillEightBitAddOpData } from './math-common.js';
import { add64, allocateOpData, copy64, expectQuantized, expectType, opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'CUMSUM';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT32, TensorType.INT64];
/** TFLM's kCumSumIntegerShift. */
const LEFT_SHIFT = 20;

interface CumsumOpData {
  type: TensorType;
  exclusive: boolean;
  reverse: boolean;
  /** Input dims (for an axis known only at invoke). */
  dims: Int32Array;
  /** The axis, resolved in prepare when the axis tensor is constant; -1 when read at invoke. */
  axis: number;
  /** TFLM's int8 OpData in the arena (empty for float32). */
  params: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<CumsumOpData>(OP, node);
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const axis = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TYPES);
  if (axis.type !== TensorType.INT32)
    throw new KernelError(OP, node.index, `axis (tensor ${axis.index}) has type ${tensorTypeName(axis.type)}, expected int32`);
  if (axis.elementCount !== 1)
    throw new KernelError(OP, node.index, `axis (tensor ${axis.index}) must hold one element, it holds ${axis.elementCount}`);
  if (input.dims.length < 1) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must have at least one dimension`);
  if (output.type !== input.type)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) is ${tensorTypeName(output.type)}, the input ${tensorTypeName(input.type)}`,
    );
  if (!sameShape(input.dims, output.dims))
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) shape [${output.dims.join(',')}] differs from the input shape [${input.dims.join(',')}]`,
    );
  const options = node.builtinData as CumsumOptions | null;
  d.exclusive = options?.exclusive ?? false;
  d.reverse = options?.reverse ?? false;
  d.type = input.type;
  d.dims = input.dims;
  d.axis = -1;
  if (axis.isConstant) d.axis = resolveAxis(node, (axis.data as Int32Array)[0]!, input.dims.length);
  if (input.type !== TensorType.INT8) return;

  expectQuantized(OP, node, 'input', input);
  expectQuantized(OP, node, 'output', output);
  const p = (d.params = allocateOpData(context, MATH_OP_DATA_BYTES.CUMSUM).i32);
  fillEightBitAddOpData(OP, node, p, input, output, LEFT_SHIFT);
}

/** The axis in [0, rank), or a KernelError ("CUMSUM Invalid axis" in TFLM). */
function resolveAxis(node: Node, raw: number, rank: number): number {
  const axis = raw < 0 ? raw + rank : raw;
  if (axis < 0 || axis >= rank) throw new KernelError(OP, node.index, `invalid axis ${raw} for a ${rank}-D input`);
  return axis;
}

/**
 * The loop of reference_ops::CumSum: `outer` = product of the dims before the axis, `depth` = the axis,
 * `inner` = product of the dims after it; element (o, k, i) is at (o * depth + k) * inner + i.
 */
function cumsumFloat(
  x: Float32Array,
  y: Float32Array,
  outer: number,
  depth: number,
  inner: number,
  exclusive: boolean,
  reverse: boolean,
): void {
  const step = reverse ? -inner : inner;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let index = o * depth * inner + i + (reverse ? (depth - 1) * inner : 0);
      let acc = 0;
      for (let k = 0; k < depth; k++, index += step) {
        if (exclusive) {
          y[index] = acc;
          acc = Math.fround(acc + x[index]!);
        } else {
          acc = Math.fround(acc + x[index]!);
          y[index] = acc;
        }
      }
    }
  }
}

function cumsumInt32(
  x: Int32Array,
  y: Int32Array,
  outer: number,
  depth: number,
  inner: number,
  exclusive: boolean,
  reverse: boolean,
): void {
  const step = reverse ? -inner : inner;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let index = o * depth * inner + i + (reverse ? (depth - 1) * inner : 0);
      let acc = 0;
      for (let k = 0; k < depth; k++, index += step) {
        const v = x[index]!;
        if (exclusive) y[index] = acc;
        acc = (acc + v) | 0;
        if (!exclusive) y[index] = acc;
      }
    }
  }
}

/** The int64 running sum (word pairs); ACC holds the accumulator. */
const ACC = new Int32Array(4);
function cumsumInt64(
  x: Int32Array,
  y: Int32Array,
  outer: number,
  depth: number,
  inner: number,
  exclusive: boolean,
  reverse: boolean,
): void {
  const step = reverse ? -inner : inner;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let index = o * depth * inner + i + (reverse ? (depth - 1) * inner : 0);
      ACC[0] = 0;
      ACC[1] = 0;
      for (let k = 0; k < depth; k++, index += step) {
        copy64(ACC, 2, x, 2 * index);
        if (exclusive) copy64(y, 2 * index, ACC, 0);
        add64(ACC, 0, ACC, 0, ACC, 2);
        if (!exclusive) copy64(y, 2 * index, ACC, 0);
      }
    }
  }
}

function cumsumInt8(
  x: Int8Array,
  y: Int8Array,
  outer: number,
  depth: number,
  inner: number,
  exclusive: boolean,
  reverse: boolean,
  p: Int32Array,
): void {
  const inputOffset = p[EightBitAddWord.InputOffset]!;
  const inputMultiplier = p[EightBitAddWord.InputMultiplier]!;
  const inputShift = p[EightBitAddWord.InputShift]!;
  const outputMultiplier = p[EightBitAddWord.OutputMultiplier]!;
  const outputShift = p[EightBitAddWord.OutputShift]!;
  const outputOffset = p[EightBitAddWord.OutputOffset]!;
  const lo = p[EightBitAddWord.ActivationMin]!;
  const hi = p[EightBitAddWord.ActivationMax]!;
  const start = multiplyByQuantizedMultiplierSmallerThanOneExp(inputOffset << LEFT_SHIFT, inputMultiplier, inputShift);
  const step = reverse ? -inner : inner;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let index = o * depth * inner + i + (reverse ? (depth - 1) * inner : 0);
      let acc = start;
      for (let k = 0; k < depth; k++, index += step) {
        const scaled = multiplyByQuantizedMultiplierSmallerThanOneExp((inputOffset + x[index]!) << LEFT_SHIFT, inputMultiplier, inputShift);
        let sum: number;
        if (exclusive) {
          sum = acc;
          acc = (acc + scaled) | 0;
        } else {
          acc = (acc + scaled) | 0;
          sum = acc;
        }
        const v = (multiplyByQuantizedMultiplierSmallerThanOneExp(sum, outputMultiplier, outputShift) + outputOffset) | 0;
        y[index] = v < lo ? lo : v > hi ? hi : v;
      }
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<CumsumOpData>(OP, node);
  const dims = d.dims;
  const axis = d.axis >= 0 ? d.axis : resolveAxis(node, (context.getEvalTensor(node.inputs[1]!).data as Int32Array)[0]!, dims.length);
  let outer = 1;
  let inner = 1;
  for (let i = 0; i < axis; i++) outer *= dims[i]!;
  for (let i = axis + 1; i < dims.length; i++) inner *= dims[i]!;
  const depth = dims[axis]!;
  const xt = context.getEvalTensor(node.inputs[0]!);
  const yt = context.getEvalTensor(node.outputs[0]!);
  const x = xt.data;
  const y = yt.data;
  if (d.type === TensorType.FLOAT32) cumsumFloat(x as Float32Array, y as Float32Array, outer, depth, inner, d.exclusive, d.reverse);
  else if (d.type === TensorType.INT32) cumsumInt32(x as Int32Array, y as Int32Array, outer, depth, inner, d.exclusive, d.reverse);
  else if (d.type === TensorType.INT64) cumsumInt64(xt.words, yt.words, outer, depth, inner, d.exclusive, d.reverse);
  else cumsumInt8(x as Int8Array, y as Int8Array, outer, depth, inner, d.exclusive, d.reverse, d.params);
}

/** CUMSUM reference kernel: float32, int8, int32, int64. */
export const CUMSUM = {
  builtinCode: BuiltinOperator.CUMSUM,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
  init: (): CumsumOpData => ({
    type: TensorType.FLOAT32,
    exclusive: false,
    reverse: false,
    dims: new Int32Array(0),
    axis: -1,
    params: new Int32Array(0),
  }),
  prepare,
  invoke,
};
