/**
 * float32 MEAN, SUM, REDUCE_MAX and REDUCE_MIN in WebAssembly: f32_reduce (assembly/float/reduce.ts) over
 * the input seen as [outer, R, inner] (kernel-support's reduceBlock: the reduced axes, size-1 axes set
 * aside, form one contiguous block — the last axis, height and width of NHWC, the leading axes, ...),
 * with kernel-support's resolveReduceAxes and reducedShape (TFLite's ResolveAxis and ResizeOutputTensor,
 * as ops-reference). Each output folds its R values in input order as ops-reference does: sums and means
 * equal it bit for bit where the kept axes after the block hold more than one value, and are within the
 * float tolerance where the last axis is reduced (four partial sums); REDUCE_MAX / REDUCE_MIN always equal
 * it (from ∓FLT_MAX; a NaN never replaces the running value). Declines a non-constant or non-int32 axis,
 * reduced axes that alternate with kept ones, inputs of more than 5 dimensions (ops-reference's limit),
 * data-dependent or empty inputs.
 */
import { KernelError, TensorType, type Node, type ReducerOptions, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { declineArity, isDataDependent, reduceBlock, reducedShape, resolveReduceAxes, setOutputShape } from '@micrort/kernel-support';
import { FM, FM_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, type FloatKernelExports } from './float-common.js';

/** f32_reduce's FM.Kind. */
export enum ReduceKind {
  Mean = 0,
  Sum = 1,
  Max = 2,
  Min = 3,
}

/** ops-reference's input rank limit for the reductions (TFLM's kMaxNumberOfAxis). */
const MAX_DIMS = 5;

interface ReduceData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

/** The resolved reduction of `node`, or why it is not taken. */
function plan(
  op: string,
  context: TfLiteContext,
  node: Node,
): { input: Tensor; reduced: boolean[]; block: { outer: number; R: number; inner: number } } | string {
  const input = context.getTensor(node.inputs[0]!);
  const axis = context.getTensor(node.inputs[1]!);
  if (!axis.isConstant || axis.type !== TensorType.INT32) return 'the axis is not a constant int32 tensor';
  if (input.dims.length > MAX_DIMS) return `rank ${input.dims.length} input (handles up to ${MAX_DIMS})`;
  if (isDataDependent(input)) return 'the input shape is data-dependent';
  if (input.elementCount === 0) return 'the input is empty';
  let reduced: boolean[];
  try {
    reduced = resolveReduceAxes(op, node, input.dims.length, axis.data as Int32Array).reduced;
  } catch (e) {
    return (e as Error).message;
  }
  const block = reduceBlock(input.dims, reduced);
  if (!block) return 'reduced axes alternate with kept ones (handles one contiguous block of reduced axes)';
  return { input, reduced, block };
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
      const p = plan(op, context, node);
      return typeof p === 'string' ? p : true;
    },
    init: (): ReduceData => ({ k: null, params: 0, input: -1 }),
    prepare(context: TfLiteContext, node: Node): void {
      const data = node.userData as ReduceData;
      if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(op, node.index, 'expects 2 inputs and 1 output');
      const p = plan(op, context, node);
      if (typeof p === 'string') throw new KernelError(op, node.index, p);
      const keepDims = (node.builtinData as ReducerOptions | null)?.keepDims ?? false;
      setOutputShape(op, context, node, 0, reducedShape(p.input.dims, p.reduced, keepDims));
      const region = context.allocatePersistentBuffer(FM_BYTES);
      data.k = floatKernelsFor(op, node, region);
      data.input = constantInputCopies(context, node, [0])[0]!;
      region.i32[FM.Outer] = p.block.outer;
      region.i32[FM.R] = p.block.R;
      region.i32[FM.Inner] = p.block.inner;
      region.i32[FM.Kind] = kind;
      data.params = region.offset;
    },
    invoke(context: TfLiteContext, node: Node): void {
      const data = node.userData as ReduceData;
      data.k!.f32_reduce(data.params, inputOffset(context, node, 0, data.input), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
    },
  };
}
