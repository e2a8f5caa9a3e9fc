/**
 * SOFTMAX, float32, over the last axis, in WebAssembly: f32_softmax (assembly/float/softmax.ts), TFLite's
 * reference_ops::Softmax (row maximum, exp((x - max) * beta), their sum, each divided by it) with
 * unary.ts's exp; the sum runs in four lanes. Any rank >= 1. Declines other types and a negative beta.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type SoftmaxOptions, type TfLiteContext } from '@micrort/core';
import { declineArity, expectSoftmaxShape, setOutputShape } from '@micrort/kernel-support';
import { FS, FS_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, type FloatKernelExports } from './float-common.js';

const OP = 'SOFTMAX';

interface SoftmaxF32Data {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

const betaOf = (node: Node): number => (node.builtinData as SoftmaxOptions | null)?.beta ?? 1;

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 1, 1);
  if (arity) return arity;
  const why = declineNonFloat([context.getTensor(node.inputs[0]!), context.getTensor(node.outputs[0]!)]);
  if (why) return why;
  const beta = betaOf(node);
  return beta >= 0 ? true : `beta ${beta} (handles beta >= 0)`;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxF32Data;
  const input = context.getTensor(node.inputs[0]!);
  const output = setOutputShape(OP, context, node, 0, input.dims);
  const { outer, depth } = expectSoftmaxShape(OP, node, input, output);
  const beta = betaOf(node);
  if (!(beta >= 0)) throw new KernelError(OP, node.index, `beta ${beta} must be >= 0 for ops-wasm's float SOFTMAX`);
  const region = context.allocatePersistentBuffer(FS_BYTES);
  data.k = floatKernelsFor(OP, node, region);
  data.input = constantInputCopies(context, node, [0])[0]!;
  region.i32[FS.Outer] = outer;
  region.i32[FS.Depth] = depth;
  region.f32[FS.Beta] = beta;
  data.params = region.offset;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxF32Data;
  const input = inputOffset(context, node, 0, data.input);
  data.k!.f32_softmax(data.params, input, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The float32 SOFTMAX registration. */
export function createSoftmaxF32(): Registration<SoftmaxF32Data> {
  return {
    builtinCode: BuiltinOperator.SOFTMAX,
    version: 3,
    provider: PROVIDER,
    name: 'SOFTMAX/wasm-f32',
    supports,
    init: (): SoftmaxF32Data => ({ k: null, params: 0, input: -1 }),
    prepare,
    invoke,
  };
}
