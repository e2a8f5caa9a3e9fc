/**
 * What the float32 elementwise ops share (RELU, RELU6, LOGISTIC, TANH, HARD_SWISH; ABS, NEG, SQRT, RSQRT, SQUARE):
 * validation, the parameter block (element count, clamp bounds, f32_math's operation; assembly/float/unary.ts) and
 * the registration. They run
 * in place when the planner lets them (`inPlace`: every element is read before it is written).
 */
import { KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { U, U_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, elementwiseInPlace, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, shapeText, type FloatKernelExports } from './float-common.js';
import { declineArity, setOutputShape } from '@micrort/kernel-support';

/** Bytes of the parameter block U (scripts/abi.mjs): count, min (f32), max (f32), f32_math's operation. */
const UNARY_PARAMS_BYTES = U_BYTES;

/** Op data of a float unary node. */
export interface UnaryData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of the copy of a constant input, or -1. */
  input: number;
}

/** Which export runs the op. */
export type UnaryKernel = 'f32_clamp' | 'f32_sigmoid' | 'f32_tanh' | 'f32_hardswish' | 'f32_math';

/** Operation codes of f32_math (U.Op). */
export enum MathOp {
  Abs = 0,
  Neg = 1,
  Sqrt = 2,
  Rsqrt = 3,
  Square = 4,
  /** exp(x), within the float tolerance. */
  Exp = 5,
  /** GELU's exact form x·Φ(x), within the float tolerance. */
  Gelu = 6,
  /** GELU's tanh form, within the float tolerance. */
  GeluTanh = 7,
  /** log(x), within the float tolerance (−inf at ±0, NaN below 0). */
  Log = 8,
  /** ELU: exp(x) − 1 below 0, within the float tolerance; x elsewhere. */
  Elu = 9,
}

/**
 * A float32 unary registration running `kernel`; `bounds` are f32_clamp's, `math` f32_math's operation (or the
 * function of the node that picks it, from its options).
 */
export function unaryRegistration(
  op: string,
  code: number,
  version: number,
  kernel: UnaryKernel,
  bounds: [number, number] = [0, 0],
  math: MathOp | ((node: Node) => MathOp) = MathOp.Abs,
): Registration<UnaryData> {
  return {
    builtinCode: code,
    version,
    provider: PROVIDER,
    name: `${op}/wasm-f32`,
    supports(context, node) {
      const arity = declineArity(node, 1, 1);
      if (arity) return arity;
      return declineNonFloat([context.getTensor(node.inputs[0]!), context.getTensor(node.outputs[0]!)]) ?? true;
    },
    init: (): UnaryData => ({ k: null, params: 0, input: -1 }),
    prepare(context: TfLiteContext, node: Node) {
      const data = node.userData as UnaryData;
      if (node.inputs.length !== 1 || node.outputs.length !== 1) throw new KernelError(op, node.index, 'expects 1 input and 1 output');
      const input = context.getTensor(node.inputs[0]!);
      // the input's shape (a stored output shape is a hint; an empty one is inferred, as ops-reference does)
      const output = setOutputShape(op, context, node, 0, input.dims);
      if (input.elementCount !== output.elementCount)
        throw new KernelError(
          op,
          node.index,
          `input ${shapeText(input)} and output ${shapeText(output)} must have the same number of elements`,
        );
      const region = context.allocatePersistentBuffer(UNARY_PARAMS_BYTES);
      data.k = floatKernelsFor(op, node, region);
      data.input = constantInputCopies(context, node, [0])[0]!;
      region.i32[U.Count] = output.elementCount;
      region.f32[U.Min] = bounds[0];
      region.f32[U.Max] = bounds[1];
      region.i32[U.Op] = typeof math === 'function' ? math(node) : math;
      data.params = region.offset;
    },
    invoke(context, node) {
      const data = node.userData as UnaryData;
      const input = inputOffset(context, node, 0, data.input);
      data.k![kernel](data.params, input, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
    },
    inPlace: elementwiseInPlace,
  };
}
