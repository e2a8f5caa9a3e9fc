/**
 * float32 MEAN, SUM, REDUCE_MAX and REDUCE_MIN in WebAssembly: f32_reduce (assembly/float/reduce.ts) over
 * any set of axes of an input of up to 5 dimensions, as the nested loops of ../reduce-common.ts
 * (kernel-support's reduceLoops, resolveReduceAxes and reducedShape: TFLite's ResolveAxis and
 * ResizeOutputTensor, as ops-reference). Each output folds its values in row-major input order as
 * ops-reference does: sums and means equal it bit for bit where the last axis of more than one value is
 * kept (eight outputs per step along it), and are within the float tolerance where it is reduced (four
 * partial sums); REDUCE_MAX / REDUCE_MIN always equal it (from ∓FLT_MAX; a NaN never replaces the running
 * value; with the last axis reduced, a tie between +0 and -0 may keep the other one). Declines a
 * non-constant or non-int32 axis, inputs of more than 5 dimensions (ops-reference's limit),
 * data-dependent or empty inputs.
 */
import { KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, setOutputShape } from '@micrort/kernel-support';
import { RD_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { ReduceKind, planOutputShape, planReduce, writeReduceLoops } from '../reduce-common.js';
import { declineNonFloat, floatKernelsFor, type FloatKernelExports } from './float-common.js';

export { ReduceKind };

interface ReduceData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

/** The float32 registration of MEAN (`kind` Mean), SUM, REDUCE_MAX or REDUCE_MIN. */
export function reduceRegistration(op: string, code: number, version: number, kind: ReduceKind): Registration<ReduceData> {
  return {
    builtinCode: code,
    version,
    provider: PROVIDER,
    name: `${op}/wasm-f32`,
    supports(context: TfLiteContext, node: Node): true | string {
      const arity = declineArity(node, 2, 1);
      if (arity) return arity;
      const why = declineNonFloat([context.getTensor(node.inputs[0]!), context.getTensor(node.outputs[0]!)]);
      if (why) return why;
      const p = planReduce(op, context, node);
      return typeof p === 'string' ? p : true;
    },
    init: (): ReduceData => ({ k: null, params: 0, input: -1 }),
    prepare(context: TfLiteContext, node: Node): void {
      const data = node.userData as ReduceData;
      if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(op, node.index, 'expects 2 inputs and 1 output');
      const p = planReduce(op, context, node);
      if (typeof p === 'string') throw new KernelError(op, node.index, p);
      setOutputShape(op, context, node, 0, planOutputShape(p, node));
      const region = context.allocatePersistentBuffer(RD_BYTES);
      data.k = floatKernelsFor(op, node, region);
      data.input = constantInputCopies(context, node, [0])[0]!;
      writeReduceLoops(region.i32, kind, p.loops);
      data.params = region.offset;
    },
    invoke(context: TfLiteContext, node: Node): void {
      const data = node.userData as ReduceData;
      data.k!.f32_reduce(data.params, inputOffset(context, node, 0, data.input), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
    },
  };
}
