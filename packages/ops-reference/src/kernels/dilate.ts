/**
 * DILATE (LiteRT tflite/kernels/dilate.cc): spreads input 0 out by the int32 factors of input 1 (one per
 * dimension, each ≥ 1) — element `i` lands at `i × factor` — and fills the holes with the scalar padding
 * value (input 2). Output dimension `(n − 1) × factor + 1`. Any fixed-size element type (bytes are
 * copied). LiteRT makes the output dynamic when the factors are not constant; here they must be
 * constant (their values size the output in prepare).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  elementSize,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { expectSameType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { stridesOf } from './stablehlo-index-common.js';

const OP = 'DILATE';

interface OpData {
  input: EvalTensor | null;
  value: EvalTensor | null;
  output: EvalTensor | null;
  elementBytes: number;
  inDims: Int32Array;
  /** Output element stride of one step of each input dimension (factor × output stride). */
  steps: Int32Array;
  index: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  if (node.inputs.length !== 3 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const factors = context.getTensor(node.inputs[1]!);
  const value = context.getTensor(node.inputs[2]!);
  const rank = input.dims.length;
  if (rank === 0) throw new KernelError(OP, node.index, 'the input must have at least one dimension');
  expectSameType(OP, node, 'input and padding value', input, value);
  if (value.elementCount !== 1)
    throw new KernelError(OP, node.index, `the padding value must have 1 element, it has ${value.elementCount}`);
  const size = elementSize(input.type);
  if (size === undefined) throw new KernelError(OP, node.index, `${tensorTypeName(input.type)} elements have no fixed size`);
  if (factors.type !== TensorType.INT32 || factors.dims.length !== 1 || factors.dims[0] !== rank)
    throw new KernelError(OP, node.index, `dilations (input 1) must be an int32 vector of ${rank} elements`);
  if (!factors.isConstant) throw new KernelError(OP, node.index, 'dilations (input 1) must be constant: they size the output');
  const f = factors.data as Int32Array;
  const outDims = new Int32Array(rank);
  for (let k = 0; k < rank; k++) {
    if (f[k]! < 1) throw new KernelError(OP, node.index, `dilation ${k} is ${f[k]}, it must be at least 1`);
    if (input.dims[k]! < 1) throw new KernelError(OP, node.index, `input dimension ${k} is empty`);
    outDims[k] = (input.dims[k]! - 1) * f[k]! + 1;
  }
  const output = setOutputShape(OP, context, node, 0, outDims);
  expectSameType(OP, node, 'input and output', input, output);
  const outStrides = stridesOf(outDims);
  Object.assign(opData<OpData>(OP, node), {
    input: context.getEvalTensor(node.inputs[0]!),
    value: context.getEvalTensor(node.inputs[2]!),
    output: context.getEvalTensor(node.outputs[0]!),
    elementBytes: size,
    inDims: Int32Array.from(input.dims),
    steps: Int32Array.from(outStrides, (s, k) => s * f[k]!),
    index: new Int32Array(rank),
  });
}

function invoke(_context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const es = d.elementBytes;
  const out = d.output!.bytes;
  const value = d.value!.bytes;
  const input = d.input!.bytes;
  for (let p = 0; p < out.length; p += es) for (let b = 0; b < es; b++) out[p + b] = value[b]!;
  const { inDims, steps, index } = d;
  index.fill(0);
  for (let src = 0; src < input.length; src += es) {
    let dst = 0;
    for (let k = 0; k < inDims.length; k++) dst += index[k]! * steps[k]!;
    for (let b = 0; b < es; b++) out[dst * es + b] = input[src + b]!;
    for (let k = inDims.length - 1; k >= 0; k--) {
      index[k] = index[k]! + 1;
      if (index[k]! < inDims[k]!) break;
      index[k] = 0;
    }
  }
}

/** The reference DILATE kernel. */
export const DILATE: Registration<OpData> = {
  builtinCode: BuiltinOperator.DILATE,
  provider: PROVIDER,
  name: OP,
  init: () => ({}) as OpData,
  prepare,
  invoke,
};
