/**
 * ADD, int8, in WebAssembly: qs8_add (assembly/int8/add.ts), TFLM's general quantized add (left shift
 * 20, three MultiplyByQuantizedMultiplierSmallerThanOneExp) on 8 elements per step, with broadcasting
 * that collapses to at most three outer loops around one inner run (float/binary-common.ts's
 * broadcastPlan). Declines other types and deeper broadcasts (the next provider serves the node).
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { broadcastPlan, type BroadcastPlan } from './float/binary-common.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { calculateOpDataAdd, declineArity, declineTypes, fusedActivation, INT8_ONLY } from '@micrort/kernel-support';

const OP = 'ADD';
const NO_COPIES = new Int32Array(2).fill(-1);
/** Parameter block (assembly/int8/add.ts), 24 words; TFLM's OpDataAdd is 60 bytes, this block 96. */
const ADD_PARAMS_BYTES = 96;

enum A {
  Count = 0,
  Off1,
  Off2,
  Left,
  M1,
  R1,
  M2,
  R2,
  Mo,
  Ro,
  ZpOut,
  ActMin,
  ActMax,
}

interface AddData {
  k: KernelExports | null;
  params: number;
  /** Arena copies of constant inputs (-1: read the eval tensor). */
  fixed: Int32Array;
}

/** ADD's and MUL's `supports()`: int8 operands whose broadcast `broadcastPlan` lays out. */
export function supportsInt8Binary(context: TfLiteContext, node: Node): true | string {
  const why = declineArity(node, 2, 1) ?? declineTypes(context, node, [0, 1], INT8_ONLY);
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

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as AddData;
  const { a, b, out, plan } = int8BinaryTensors(OP, context, node);
  const q = calculateOpDataAdd(OP, node, a, b, out, fusedActivation(node));
  const region = context.allocatePersistentBuffer(ADD_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[A.Count] = out.elementCount;
  p[A.Off1] = q.input1Offset;
  p[A.Off2] = q.input2Offset;
  p[A.Left] = q.leftShift;
  p[A.M1] = q.input1Multiplier;
  p[A.R1] = -q.input1Shift;
  p[A.M2] = q.input2Multiplier;
  p[A.R2] = -q.input2Shift;
  p[A.Mo] = q.outputMultiplier;
  p[A.Ro] = -q.outputShift;
  p[A.ZpOut] = out.params.zeroPoint;
  p[A.ActMin] = q.actMin;
  p[A.ActMax] = q.actMax;
  writePlan(p, A.ActMax + 1, plan);
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0, 1]);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as AddData;
  const a = inputOffset(context, node, 0, data.fixed[0]!);
  const b = inputOffset(context, node, 1, data.fixed[1]!);
  data.k!.qs8_add(data.params, a, b, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The broadcast plan's words (int8: strides in elements = bytes) from word `at`: n[3], strides 1 and 2, inner, mode. */
export function writePlan(p: Int32Array, at: number, plan: BroadcastPlan): void {
  for (let k = 0; k < 3; k++) {
    p[at + k] = plan.n[k]!;
    p[at + 3 + k] = plan.a[k]! / 4; // broadcastPlan counts float32 bytes
    p[at + 6 + k] = plan.b[k]! / 4;
  }
  p[at + 9] = plan.inner;
  p[at + 10] = plan.mode;
}

/** The ADD registration. */
export function createAdd(): Registration<AddData> {
  return {
    builtinCode: BuiltinOperator.ADD,
    version: 5,
    provider: PROVIDER,
    name: 'ADD/wasm-qs8',
    supports: supportsInt8Binary,
    init: (): AddData => ({ k: null, params: 0, fixed: NO_COPIES }),
    prepare,
    invoke,
  };
}
