/**
 * ADD, int8, in WebAssembly: qs8_add (assembly/int8/add.ts), TFLM's general quantized add (left shift
 * 20, three MultiplyByQuantizedMultiplierSmallerThanOneExp) on 8 elements per step, with broadcasting
 * that collapses to at most three outer loops around one inner run (float/binary-common.ts's
 * broadcastPlan). Declines other types and deeper broadcasts (the next provider serves the node).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  quantizeMultiplierSmallerThanOneExp,
  tensorTypeName,
  type AddOptions,
  type Node,
  type Registration,
  type TfLiteContext,
  ActivationFunctionType,
} from '@micrort/core';
import { A, A_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { broadcastPlan, type BroadcastPlan } from './float/binary-common.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, expectQuantized, inputOffset, quantizedActivationRange } from './kernel-common.js';

const OP = 'ADD';
const NO_COPIES = new Int32Array(2).fill(-1);
/** Parameter block A (scripts/abi.mjs); TFLM's OpDataAdd is 60 bytes. */
const ADD_PARAMS_BYTES = A_BYTES;

interface AddData {
  k: KernelExports | null;
  params: number;
  /** Arena copies of constant inputs (-1: read the eval tensor). */
  fixed: Int32Array;
}

function supports(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length !== 2 || node.outputs.length !== 1) return 'arity';
  const a = context.getTensor(node.inputs[0]!);
  const b = context.getTensor(node.inputs[1]!);
  const out = context.getTensor(node.outputs[0]!);
  if (a.type !== TensorType.INT8 || b.type !== TensorType.INT8 || out.type !== TensorType.INT8)
    return `${tensorTypeName(out.type)} output (handles int8)`;
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  return typeof plan === 'string' ? plan : true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as AddData;
  const a = context.getTensor(node.inputs[0]!);
  const b = context.getTensor(node.inputs[1]!);
  const out = context.getTensor(node.outputs[0]!);
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  if (typeof plan === 'string') throw new KernelError(OP, node.index, plan);
  expectQuantized(OP, node, 'input 1', a);
  expectQuantized(OP, node, 'input 2', b);
  expectQuantized(OP, node, 'output', out);
  const activation = (node.builtinData as AddOptions | null)?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  const [lo, hi] = quantizedActivationRange(OP, node, activation, out);
  const leftShift = 20;
  const twiceMax = 2 * Math.max(a.params.scale, b.params.scale);
  let m1, m2, mo;
  try {
    m1 = quantizeMultiplierSmallerThanOneExp(a.params.scale / twiceMax);
    m2 = quantizeMultiplierSmallerThanOneExp(b.params.scale / twiceMax);
    mo = quantizeMultiplierSmallerThanOneExp(twiceMax / (2 ** leftShift * out.params.scale));
  } catch (e) {
    throw new KernelError(OP, node.index, `cannot rescale: ${(e as Error).message}`);
  }
  const region = context.allocatePersistentBuffer(ADD_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[A.Count] = out.elementCount;
  p[A.Off1] = -a.params.zeroPoint;
  p[A.Off2] = -b.params.zeroPoint;
  p[A.Left] = leftShift;
  p[A.M1] = m1.multiplier;
  p[A.R1] = -m1.shift;
  p[A.M2] = m2.multiplier;
  p[A.R2] = -m2.shift;
  p[A.Mo] = mo.multiplier;
  p[A.Ro] = -mo.shift;
  p[A.ZpOut] = out.params.zeroPoint;
  p[A.ActMin] = lo;
  p[A.ActMax] = hi;
  writePlan(p, plan, A.N, A.S1, A.S2, A.Inner, A.Mode);
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0, 1]);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as AddData;
  const a = inputOffset(context, node, 0, data.fixed[0]!);
  const b = inputOffset(context, node, 1, data.fixed[1]!);
  data.k!.qs8_add(data.params, a, b, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
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

/** The ADD registration. */
export function createAdd(): Registration<AddData> {
  return {
    builtinCode: BuiltinOperator.ADD,
    version: 5,
    provider: PROVIDER,
    name: 'ADD/wasm-qs8',
    supports,
    init: (): AddData => ({ k: null, params: 0, fixed: NO_COPIES }),
    prepare,
    invoke,
  };
}
