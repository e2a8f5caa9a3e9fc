/**
 * BROADCAST_ARGS (TFLM kernels/broadcast_args.cc, reference_ops::BroadcastArgs): the broadcast shape of
 * two shapes given as 1-D int32 or int64 tensors (runtime data). Aligned from the right, a dimension of 1
 * takes the other side's value; two different values other than 1 are incompatible, which TFLM treats as
 * a fatal check and micrort reports as a KernelError in invoke. As TFLM, each dimension is read as a C++
 * `int` (the low 32 bits of an int64). The output must hold max(len1, len2) values.
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { int64Low32At, requireSameTypeAs, setInt64FromInt32, typeSupport } from './data-common.js';
import { shapeString } from './transpose-common.js';
import { expectType, fillOpData, newOpData, opData } from '@micrort/kernel-support';

const OP = 'BROADCAST_ARGS';
const TYPES = [TensorType.INT32, TensorType.INT64] as const;

/** Op data computed in prepare (TFLM keeps none). */
interface BroadcastArgsOpData {
  int64: boolean;
  len1: number;
  len2: number;
  outLen: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const shape1 = getInput(context, node, 0, OP);
  const shape2 = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'shape 1', shape1, TYPES);
  requireSameTypeAs(OP, node, shape2, 'shape 2', shape1, 'shape 1');
  requireSameTypeAs(OP, node, output, 'output', shape1, 'shape 1');
  for (const [t, what] of [
    [shape1, 'shape 1'],
    [shape2, 'shape 2'],
    [output, 'output'],
  ] as const)
    if (t.dims.length !== 1)
      throw new KernelError(OP, node.index, `${what} (tensor ${t.index}) must be 1-D, got shape ${shapeString(t.dims)}`);
  const len1 = shape1.dims[0]!;
  const len2 = shape2.dims[0]!;
  const outLen = output.dims[0]!;
  if (outLen !== Math.max(len1, len2))
    throw new KernelError(
      OP,
      node.index,
      `output holds ${outLen} dimensions, the broadcast of ${len1}- and ${len2}-dimension shapes has ${Math.max(len1, len2)}`,
    );
  const data: BroadcastArgsOpData = { int64: shape1.type === TensorType.INT64, len1, len2, outLen };
  fillOpData(OP, node, data);
}

function incompatible(node: Node, i: number, a: number, b: number): never {
  throw new KernelError(OP, node.index, `shapes are not broadcastable: dimension ${i} from the end is ${a} in shape 1 and ${b} in shape 2`);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<BroadcastArgsOpData>(OP, node);
  const in1 = context.getEvalTensor(node.inputs[0]!);
  const in2 = context.getEvalTensor(node.inputs[1]!);
  const out = context.getEvalTensor(node.outputs[0]!);
  const { len1, len2, outLen } = d;
  if (d.int64) {
    const a = in1.bytes,
      b = in2.bytes,
      o = out.bytes;
    for (let i = 0; i < outLen; i++) {
      const s1 = i < len1 ? int64Low32At(a, len1 - 1 - i) : 1;
      const s2 = i < len2 ? int64Low32At(b, len2 - 1 - i) : 1;
      if (s1 !== 1 && s2 !== 1 && s1 !== s2) incompatible(node, i, s1, s2);
      setInt64FromInt32(o, outLen - 1 - i, s1 === 1 ? s2 : s1);
    }
  } else {
    const a = in1.data as Int32Array,
      b = in2.data as Int32Array,
      o = out.data as Int32Array;
    for (let i = 0; i < outLen; i++) {
      const s1 = i < len1 ? a[len1 - 1 - i]! : 1;
      const s2 = i < len2 ? b[len2 - 1 - i]! : 1;
      if (s1 !== 1 && s2 !== 1 && s1 !== s2) incompatible(node, i, s1, s2);
      o[outLen - 1 - i] = s1 === 1 ? s2 : s1;
    }
  }
}

/** BROADCAST_ARGS registration: int32 or int64 shapes. */
export const BROADCAST_ARGS: Registration = {
  builtinCode: BuiltinOperator.BROADCAST_ARGS,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
