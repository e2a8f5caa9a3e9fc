/**
 * ADD (and, through {@link addSubRegistration}, SUB: sub.ts), int8 and TFLite's uint8 (taken as x - 128), in
 * WebAssembly: qs8_add (assembly/int8/add.ts), TFLM's general quantized add (left shift 20, three
 * MultiplyByQuantizedMultiplierSmallerThanOneExp; SUB subtracts the second input's part), as one affine
 * rounding verified at prepare to give TFLM's byte for all 65,536 input pairs (add-fit.ts; sixteen
 * elements per step), else the three roundings (eight per step); with broadcasting that collapses to at
 * most three outer loops around one inner run (float/binary-common.ts's broadcastPlan). Declines other
 * types and deeper broadcasts (the next provider serves the node).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { A, A_BYTES, BP, BP_BYTES } from '../generated/abi.js';
import { fitAffineAdd } from './add-fit.js';
import { Fn } from '../threads/control.js';
import { parallelFor, threadsFor, type Parallel } from './parallel.js';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { broadcastPlan, type BroadcastPlan } from './float/binary-common.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { calculateOpDataAdd, calculateOpDataSub, declineArity, declineTypes, fusedActivation, INT8_ONLY } from '@micrort/kernel-support';

const NO_COPIES = new Int32Array(2).fill(-1);
/** Parameter block A (scripts/abi.mjs), 64 bytes (TFLM's OpDataAdd is 60); the affine kind uses the first A.M2 + 1 words. */
const ADD_PARAMS_BYTES = A_BYTES;
/** Words of the affine kind (Kind 0). */
const AFFINE_WORDS = A.Clamp + 1;

interface AddData {
  k: KernelExports | null;
  params: number;
  /** Kind 0: the verified affine rounding. */
  affine: boolean;
  /** Output elements, and the node's share of the thread pool (null: the main thread alone). */
  count: number;
  par: Parallel | null;
  /** Arena copies of constant inputs (-1: read the eval tensor). */
  fixed: Int32Array;
}

/** ADD's and MUL's `supports()`: int8 or TFLite's uint8 operands (all three of one type) whose broadcast `broadcastPlan` lays out. */
export function supportsQuantizedBinary(context: TfLiteContext, node: Node): true | string {
  const a = node.inputs.length > 0 ? context.getTensor(node.inputs[0]!) : null;
  return supportsBinary(context, node, a?.type === TensorType.UINT8 ? UINT8_ONLY : INT8_ONLY);
}

const UINT8_ONLY: readonly TensorType[] = [TensorType.UINT8];

function supportsBinary(context: TfLiteContext, node: Node, types: readonly TensorType[]): true | string {
  const why = declineArity(node, 2, 1) ?? declineTypes(context, node, [0, 1], types, types);
  if (why) return why;
  const [a, b, out] = [context.getTensor(node.inputs[0]!), context.getTensor(node.inputs[1]!), context.getTensor(node.outputs[0]!)];
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  return typeof plan === 'string' ? plan : true;
}

/** ADD's and MUL's prepare preamble: the tensors and their broadcast plan (a KernelError when it has none). */
export function int8BinaryTensors(
  op: string,
  context: TfLiteContext,
  node: Node,
): { a: Tensor; b: Tensor; out: Tensor; plan: BroadcastPlan } {
  const [a, b, out] = [context.getTensor(node.inputs[0]!), context.getTensor(node.inputs[1]!), context.getTensor(node.outputs[0]!)];
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  if (typeof plan === 'string') throw new KernelError(op, node.index, plan);
  return { a, b, out, plan };
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>, sub: boolean): void {
  const OP = sub ? 'SUB' : 'ADD';
  const data = node.userData as AddData;
  const { a, b, out, plan } = int8BinaryTensors(OP, context, node);
  const q = (sub ? calculateOpDataSub : calculateOpDataAdd)(OP, node, a, b, out, fusedActivation(node));
  // uint8 (TFLite): the kernel takes every value as x - 128, so zero points and bounds are written minus
  // 128 (the distances to the zero points, and so TFLite's arithmetic, are unchanged)
  const u8 = a.type === TensorType.UINT8;
  const shift = u8 ? 128 : 0;
  const lo = q.actMin - shift;
  const hi = q.actMax - shift;
  const leftShift = q.leftShift;
  const m1 = { multiplier: q.input1Multiplier, shift: q.input1Shift };
  const m2 = { multiplier: q.input2Multiplier, shift: q.input2Shift };
  const mo = { multiplier: q.outputMultiplier, shift: q.outputShift };
  const zo = out.params.zeroPoint - shift;
  const mbq = multiplyByQuantizedMultiplierSmallerThanOneExp;
  // each input's rounded part, as the sum takes it (SUB: the second one negated)
  const side = (t: Tensor, m: { multiplier: number; shift: number }, sign: number) => {
    const zp = t.params.zeroPoint - shift;
    const contribution = new Int32Array(256);
    for (let x = -128; x < 128; x++) contribution[x + 128] = sign * mbq((x - zp) * 2 ** leftShift, m.multiplier, m.shift);
    return { zeroPoint: zp, contribution };
  };
  const sign2 = sub ? -1 : 1;
  const real = (m: { multiplier: number; shift: number }) => m.multiplier * 2 ** (m.shift - 31);
  const fit = fitAffineAdd(
    side(a, m1, 1),
    side(b, m2, sign2),
    zo,
    lo,
    hi,
    real(m1) * 2 ** leftShift * real(mo),
    sign2 * real(m2) * 2 ** leftShift * real(mo),
    (sum) => Math.min(hi, Math.max(lo, mbq(sum, mo.multiplier, mo.shift) + zo)),
  );
  const region = context.allocatePersistentBuffer(fit ? AFFINE_WORDS * 4 : ADD_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[A.Count] = out.elementCount;
  p[A.ActMin] = lo;
  p[A.ActMax] = hi;
  if (fit) {
    p[A.Kind] = u8 ? 2 : 0;
    p[A.C1] = fit.c1;
    p[A.C2] = fit.c2;
    p[A.K] = fit.K;
    p[A.S] = fit.s;
    p[A.T] = fit.T;
    p[A.Clamp] = lo > -128 || hi < 127 ? 1 : 0;
  } else {
    p[A.Kind] = (u8 ? 3 : 1) | (sub ? 4 : 0);
    p[A.Off1] = q.input1Offset + shift;
    p[A.Off2] = q.input2Offset + shift;
    p[A.Left] = leftShift;
    p[A.M1] = m1.multiplier;
    p[A.R1] = -m1.shift;
    p[A.M2] = m2.multiplier;
    p[A.R2] = -m2.shift;
    p[A.Mo] = mo.multiplier;
    p[A.Ro] = -mo.shift;
    p[A.ZpOut] = zo;
  }
  // one contiguous run needs no plan
  const contiguous = plan.mode === 0 && plan.n.every((n) => n === 1) && plan.inner === out.elementCount;
  if (contiguous) p[A.Plan] = 0;
  else {
    const bp = context.allocatePersistentBuffer(BP_BYTES);
    writePlan(bp.i32, plan, BP.N, BP.S1, BP.S2, BP.Inner, BP.Mode);
    p[A.Plan] = bp.offset;
  }
  data.affine = fit !== null;
  // plan-less ADDs of many elements (a quarter of parallelMinMacs) run on several threads
  const threads = contiguous ? threadsFor(options, out.elementCount * 4, out.elementCount >> 12) : 1;
  data.count = out.elementCount;
  data.par = parallelFor(region, threads, out.elementCount >> 12);
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0, 1]);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as AddData;
  const a = inputOffset(context, node, 0, data.fixed[0]!);
  const b = inputOffset(context, node, 1, data.fixed[1]!);
  const o = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const par = data.par;
  if (par) par.pool.run(data.k!, par.instance, Fn.Add, data.params, a, b, o, data.count, 16, par.chunks);
  else data.k!.qs8_add(data.params, a, b, o);
}

/**
 * The broadcast plan's words (int8: strides in elements = bytes) at the block's word indices: the outer
 * counts `n`, the inputs' strides `s1` and `s2` (three words each), the inner run and its mode.
 */
export function writePlan(p: Int32Array, plan: BroadcastPlan, n: number, s1: number, s2: number, inner: number, mode: number): void {
  for (let k = 0; k < 3; k++) {
    p[n + k] = plan.n[k]!;
    p[s1 + k] = plan.a[k]! / 4; // broadcastPlan counts float32 bytes
    p[s2 + k] = plan.b[k]! / 4;
  }
  p[inner] = plan.inner;
  p[mode] = plan.mode;
}

/** The int8 / uint8 registration of ADD, or (`sub`) of SUB. */
export function addSubRegistration(options: Readonly<KernelOptions>, sub: boolean): Registration<AddData> {
  return {
    builtinCode: sub ? BuiltinOperator.SUB : BuiltinOperator.ADD,
    version: 5,
    provider: PROVIDER,
    name: sub ? 'SUB/wasm-qs8' : 'ADD/wasm-qs8',
    supports: supportsQuantizedBinary,
    init: (): AddData => ({ k: null, params: 0, affine: false, count: 0, par: null, fixed: NO_COPIES }),
    prepare: (context, node) => prepare(context, node, options, sub),
    invoke,
  };
}

/** The ADD registration. */
export function createAdd(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<AddData> {
  return addSubRegistration(options, false);
}
