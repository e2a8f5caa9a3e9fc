/**
 * What float32 ADD, MUL, PRELU, SUB, DIV, MAXIMUM, MINIMUM and SQUARED_DIFFERENCE share: the broadcast plan (shapes collapsed into at most three outer
 * dimensions with per-input byte strides around one inner run, see assembly/float/binary.ts), the
 * parameter block, and the registration around f32_binary.
 */
import {
  ActivationFunctionType,
  KernelError,
  sameShape,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { B, B_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, shapeText, type FloatKernelExports } from './float-common.js';
import { activationRangeFloat, broadcastGroups, broadcastsTo, declineActivation, declineArity } from '@micrort/kernel-support';

/** Operation codes of f32_binary. */
export enum BinaryOp {
  Add = 0,
  Mul = 1,
  /** x >= 0 ? x : x * alpha (input 1 is x, input 2 alpha). */
  Prelu = 2,
  Sub = 3,
  Div = 4,
  /** x > y ? x : y (a NaN in x gives y, as TFLM). */
  Maximum = 5,
  /** x < y ? x : y. */
  Minimum = 6,
  /** (x - y) rounded to float32, squared. */
  SquaredDifference = 7,
}

/** Bytes of f32_binary's parameter block (B in scripts/abi.mjs). */
const BINARY_PARAMS_BYTES = B_BYTES;
/** Outer dimensions the kernel loops over. */
const MAX_OUTER = 3;

/** The loops of a broadcast: outer counts and byte strides (outermost first), the inner run and its mode. */
export interface BroadcastPlan {
  n: [number, number, number];
  a: [number, number, number];
  b: [number, number, number];
  inner: number;
  /** 0 both inputs contiguous along the run, 1 input 1 repeated over it, 2 input 2 repeated. */
  mode: 0 | 1 | 2;
}

/**
 * Lays kernel-support's broadcast analysis (`broadcastGroups`: TFLite's rules, dimensions aligned at the
 * end, neighbours both inputs treat alike merged) out as this kernel's loops: the innermost group is the
 * run, the others (at most three) outer loops with byte strides. Returns a reason string when the shapes
 * do not broadcast to `out` or need more than three outer loops.
 */
export function broadcastPlan(a: ArrayLike<number>, b: ArrayLike<number>, out: ArrayLike<number>): BroadcastPlan | string {
  if (a.length > out.length || b.length > out.length)
    return `inputs of rank ${a.length} and ${b.length} for an output of rank ${out.length}`;
  const g = broadcastGroups(a, b);
  if (typeof g === 'string' || !broadcastsTo(g, out))
    return `shapes [${Array.from(a).join(', ')}] and [${Array.from(b).join(', ')}] do not broadcast to [${Array.from(out).join(', ')}]`;
  const inner = g.groups[0] ?? { size: 1, has1: true, has2: true };
  const outer = g.groups.slice(1);
  if (outer.length > MAX_OUTER) return `broadcast needs ${outer.length} outer loops (handles ${MAX_OUTER})`;
  const plan: BroadcastPlan = {
    n: [1, 1, 1],
    a: [0, 0, 0],
    b: [0, 0, 0],
    inner: inner.size,
    mode: inner.has1 && inner.has2 ? 0 : inner.has1 ? 2 : 1,
  };
  let sa = inner.has1 ? inner.size : 1;
  let sb = inner.has2 ? inner.size : 1;
  for (let i = 0, slot = MAX_OUTER - 1; i < outer.length; i++, slot--) {
    const d = outer[i]!;
    plan.n[slot] = d.size;
    plan.a[slot] = d.has1 ? sa * 4 : 0;
    plan.b[slot] = d.has2 ? sb * 4 : 0;
    if (d.has1) sa *= d.size;
    if (d.has2) sb *= d.size;
  }
  return plan;
}

/** Op data of a float binary node. */
export interface BinaryData {
  k: FloatKernelExports | null;
  params: number;
  /** Per input: arena offset of its constant copy, or -1 (the tensor itself). */
  fixed: Int32Array;
}

/**
 * The float32 registration of a binary op. With `fused` its options carry `fusedActivationFunction`, whose
 * range clamps the result (NONE: [-FLT_MAX, FLT_MAX], as TFLite's reference clamps it); ops without one
 * (PRELU, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE) clamp to [-inf, inf], so infinities pass as they are.
 */
export function binaryRegistration(op: string, code: number, version: number, kind: BinaryOp, fused = true): Registration<BinaryData> {
  function tensors(context: TfLiteContext, node: Node): [Tensor, Tensor, Tensor] {
    return [context.getTensor(node.inputs[0]!), context.getTensor(node.inputs[1]!), context.getTensor(node.outputs[0]!)];
  }
  function activationOf(node: Node): ActivationFunctionType {
    return (
      (node.builtinData as { fusedActivationFunction?: ActivationFunctionType } | null)?.fusedActivationFunction ??
      ActivationFunctionType.NONE
    );
  }
  return {
    builtinCode: code,
    version,
    provider: PROVIDER,
    name: `${op}/wasm-f32`,
    supports(context, node) {
      const arity = declineArity(node, 2, 1);
      if (arity) return arity;
      const [a, b, out] = tensors(context, node);
      const why = declineNonFloat([a, b, out]);
      if (why) return why;
      const act = fused ? declineActivation(activationOf(node)) : null;
      if (act) return act;
      const plan = broadcastPlan(a.dims, b.dims, out.dims);
      return typeof plan === 'string' ? plan : true;
    },
    init: (): BinaryData => ({ k: null, params: 0, fixed: new Int32Array(2) }),
    prepare(context, node) {
      const data = node.userData as BinaryData;
      if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(op, node.index, 'expects 2 inputs and 1 output');
      const [a, b, out] = tensors(context, node);
      const plan = broadcastPlan(a.dims, b.dims, out.dims);
      if (typeof plan === 'string')
        throw new KernelError(op, node.index, `${plan} (inputs ${shapeText(a)}, ${shapeText(b)}, output ${shapeText(out)})`);
      const [lo, hi] = fused ? activationRangeFloat(op, node, activationOf(node)) : [-Infinity, Infinity];
      const region = context.allocatePersistentBuffer(BINARY_PARAMS_BYTES);
      data.k = floatKernelsFor(op, node, region);
      data.fixed = constantInputCopies(context, node, [0, 1]);
      const p = region.i32;
      p.fill(0, 0, B.Words);
      p[B.Op] = kind;
      p.set(plan.n, B.N);
      p.set(plan.a, B.S1);
      p.set(plan.b, B.S2);
      p[B.Inner] = out.elementCount === 0 ? 0 : plan.inner;
      p[B.Mode] = plan.mode;
      region.f32[B.ActMin] = lo;
      region.f32[B.ActMax] = hi;
      data.params = region.offset;
    },
    invoke(context, node) {
      const data = node.userData as BinaryData;
      const a = inputOffset(context, node, 0, data.fixed[0]!);
      const b = inputOffset(context, node, 1, data.fixed[1]!);
      data.k!.f32_binary(data.params, a, b, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
    },
    inPlace(context, node) {
      // elementwise over one shape: element i of an input is read before element i of the output is written
      const [a, b, out] = tensors(context, node);
      const ins: number[] = [];
      if (sameShape(a.dims, out.dims)) ins.push(0);
      if (sameShape(b.dims, out.dims)) ins.push(1);
      return ins;
    },
  };
}
