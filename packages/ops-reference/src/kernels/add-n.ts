/**
 * ADD_N (tflite-micro kernels/add_n.cc; reference_ops::AddN): the elementwise sum of two or more inputs of
 * one shape and type.
 *
 * - float32: x = 0, then x += input_j[i] for j in input order, in float32.
 * - int32 (TFLite): the same sum with 32-bit wrap-around.
 * - int8 (every input with the same scale and zero point): TFLM's 8-bit add path with left shift 20 and
 *   input multiplier 1/2 (QuantizeMultiplierSmallerThanOneExp), where the accumulator STARTS at the
 *   rescaled input offset (-zero point) instead of 0: with a non-zero input zero point each output
 *   carries one extra -zero point term (see the conformance README; `add_n_int8` pins it). The sum is
 *   rescaled by 2 * input scale / (2^20 * output scale), offset by the output zero point and clamped.
 *
 * TFLM keeps a table of input pointers in a scratch buffer of 8 bytes per input; the same request is made
 * here (so arena figures match) while the views themselves are read from the eval tensors at invoke.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  numElements,
  sameShape,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { EightBitAddWord, MATH_OP_DATA_BYTES, fillEightBitAddOpData } from './math-common.js';
import { allocateOpData, expectQuantized, expectType, opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'ADD_N';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT32];
/** TFLM's kAddNIntegerShift. */
const LEFT_SHIFT = 20;
/** sizeof(T*) on x86-64: TFLM's scratch holds one pointer per input. */
const POINTER_BYTES = 8;

/** Word offset of the scratch index in TFLM's int8 OpData, after the EightBitAddWord words. */
const W_SCRATCH_INDEX = 9;

interface AddNOpData {
  type: TensorType;
  count: number;
  /** The inputs' eval tensors (stable objects), read at invoke. */
  inputs: EvalTensor[];
  /** Their data views, refreshed at every invoke into this preallocated array. */
  views: (Float32Array | Int8Array | Int32Array)[];
  /** TFLM's int8 OpData in the arena (empty for float32, where TFLM allocates none). */
  params: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<AddNOpData>(OP, node);
  const n = node.inputs.length;
  if (n < 2) throw new KernelError(OP, node.index, `expects at least 2 inputs, got ${n}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  if (node.outputs[0]! < 0) throw new KernelError(OP, node.index, 'the output is missing (index -1)');
  const output = context.getTensor(node.outputs[0]!);
  const inputs = Array.from(node.inputs, (index, j) => {
    if (index < 0) throw new KernelError(OP, node.index, `input ${j} is missing (index -1)`);
    return context.getTensor(index);
  });
  const first = inputs[0]!;
  expectType(OP, node, 'output', output, TYPES);
  if (first.type !== output.type)
    throw new KernelError(
      OP,
      node.index,
      `input 0 (tensor ${first.index}) is ${tensorTypeName(first.type)}, the output (tensor ${output.index}) ${tensorTypeName(output.type)}`,
    );
  for (let j = 1; j < n; j++) {
    const t = inputs[j]!;
    if (t.type !== first.type)
      throw new KernelError(
        OP,
        node.index,
        `input ${j} (tensor ${t.index}) is ${tensorTypeName(t.type)}, input 0 is ${tensorTypeName(first.type)}`,
      );
    if (!sameShape(t.dims, first.dims))
      throw new KernelError(
        OP,
        node.index,
        `input ${j} (tensor ${t.index}) has shape [${t.dims.join(',')}], input 0 has [${first.dims.join(',')}]`,
      );
  }
  const count = numElements(output.dims);
  if (count !== numElements(first.dims))
    throw new KernelError(OP, node.index, `output (tensor ${output.index}) has ${count} elements, the inputs ${numElements(first.dims)}`);
  d.type = output.type;
  d.count = count;
  d.inputs = inputs.map((t) => context.getEvalTensor(t.index));
  d.views = inputs.map(() => (output.type === TensorType.FLOAT32 ? new Float32Array(0) : new Int8Array(0)));
  const scratchIndex = context.requestScratchBufferInArena(POINTER_BYTES * n);
  if (output.type === TensorType.FLOAT32 || output.type === TensorType.INT32) return;

  expectQuantized(OP, node, 'input 0', first);
  expectQuantized(OP, node, 'output', output);
  for (let j = 1; j < n; j++) {
    const t = inputs[j]!;
    if (t.params.zeroPoint !== first.params.zeroPoint || t.params.scale !== first.params.scale)
      throw new KernelError(
        OP,
        node.index,
        `int8 inputs must share scale and zero point: input ${j} has (${t.params.scale}, ${t.params.zeroPoint}), input 0 (${first.params.scale}, ${first.params.zeroPoint})`,
      );
  }
  const p = (d.params = allocateOpData(context, MATH_OP_DATA_BYTES.ADD_N).i32);
  fillEightBitAddOpData(OP, node, p, first, output, LEFT_SHIFT);
  p[W_SCRATCH_INDEX] = scratchIndex;
}

function addNFloat(views: Float32Array[], out: Float32Array, count: number): void {
  const m = views.length;
  for (let i = 0; i < count; i++) {
    let x = 0;
    for (let j = 0; j < m; j++) x = Math.fround(x + views[j]![i]!);
    out[i] = x;
  }
}

function addNInt32(views: Int32Array[], out: Int32Array, count: number): void {
  const m = views.length;
  for (let i = 0; i < count; i++) {
    let x = 0;
    for (let j = 0; j < m; j++) x = (x + views[j]![i]!) | 0;
    out[i] = x;
  }
}

function addNInt8(views: Int8Array[], out: Int8Array, count: number, p: Int32Array): void {
  const m = views.length;
  const inputOffset = p[EightBitAddWord.InputOffset]!;
  const inputMultiplier = p[EightBitAddWord.InputMultiplier]!;
  const inputShift = p[EightBitAddWord.InputShift]!;
  const outputMultiplier = p[EightBitAddWord.OutputMultiplier]!;
  const outputShift = p[EightBitAddWord.OutputShift]!;
  const outputOffset = p[EightBitAddWord.OutputOffset]!;
  const lo = p[EightBitAddWord.ActivationMin]!;
  const hi = p[EightBitAddWord.ActivationMax]!;
  // TFLM's accumulator starts at the rescaled input offset (x = input1_offset, "x = 0" in its comment).
  const start = multiplyByQuantizedMultiplierSmallerThanOneExp(inputOffset << LEFT_SHIFT, inputMultiplier, inputShift);
  for (let i = 0; i < count; i++) {
    let acc = start;
    for (let j = 0; j < m; j++)
      acc =
        (acc + multiplyByQuantizedMultiplierSmallerThanOneExp((inputOffset + views[j]![i]!) << LEFT_SHIFT, inputMultiplier, inputShift)) |
        0;
    const v = (multiplyByQuantizedMultiplierSmallerThanOneExp(acc, outputMultiplier, outputShift) + outputOffset) | 0;
    out[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<AddNOpData>(OP, node);
  const views = d.views;
  for (let j = 0; j < views.length; j++) views[j] = d.inputs[j]!.data as Float32Array | Int8Array | Int32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data;
  if (d.type === TensorType.FLOAT32) addNFloat(views as Float32Array[], out as Float32Array, d.count);
  else if (d.type === TensorType.INT32) addNInt32(views as Int32Array[], out as Int32Array, d.count);
  else addNInt8(views as Int8Array[], out as Int8Array, d.count, d.params);
}

/** ADD_N reference kernel: float32, int8, int32. */
export const ADD_N = {
  builtinCode: BuiltinOperator.ADD_N,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
  init: (): AddNOpData => ({ type: TensorType.FLOAT32, count: 0, inputs: [], views: [], params: new Int32Array(0) }),
  prepare,
  invoke,
};
