/**
 * MUL, int8, in WebAssembly: qs8_mul (assembly/int8/mul.ts), TFLM's MulElementwise (product of the
 * offset inputs through MultiplyByQuantizedMultiplier with M from double(s1) * double(s2) /
 * double(s_out)) on 8 elements per step, with the broadcasting of ADD. Declines other types and deeper
 * broadcasts (the next provider serves the node).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type MulOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { M, M_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { broadcastPlan } from './float/binary-common.js';
import { writePlan } from './add.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, expectQuantized, inputOffset, quantizedActivationRange } from './kernel-common.js';

const OP = 'MUL';
const NO_COPIES = new Int32Array(2).fill(-1);
/** Parameter block M (scripts/abi.mjs); TFLM's OpDataMul is 40 bytes. */
const MUL_PARAMS_BYTES = M_BYTES;

interface MulData {
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
  const data = node.userData as MulData;
  const a = context.getTensor(node.inputs[0]!);
  const b = context.getTensor(node.inputs[1]!);
  const out = context.getTensor(node.outputs[0]!);
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  if (typeof plan === 'string') throw new KernelError(OP, node.index, plan);
  expectQuantized(OP, node, 'input 1', a);
  expectQuantized(OP, node, 'input 2', b);
  expectQuantized(OP, node, 'output', out);
  const activation = (node.builtinData as MulOptions | null)?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  const [lo, hi] = quantizedActivationRange(OP, node, activation, out);
  const m = checkedQuantizeMultiplier(OP, node, (a.params.scale * b.params.scale) / out.params.scale, 'output multiplier');
  const region = context.allocatePersistentBuffer(MUL_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[M.Count] = out.elementCount;
  p[M.Off1] = -a.params.zeroPoint;
  p[M.Off2] = -b.params.zeroPoint;
  p[M.Mult] = m.multiplier;
  p[M.Left] = m.shift > 0 ? m.shift : 0;
  p[M.Right] = m.shift > 0 ? 0 : -m.shift;
  p[M.ZpOut] = out.params.zeroPoint;
  p[M.ActMin] = lo;
  p[M.ActMax] = hi;
  writePlan(p, plan, M.N, M.S1, M.S2, M.Inner, M.Mode);
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0, 1]);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as MulData;
  const a = inputOffset(context, node, 0, data.fixed[0]!);
  const b = inputOffset(context, node, 1, data.fixed[1]!);
  data.k!.qs8_mul(data.params, a, b, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The MUL registration. */
export function createMul(): Registration<MulData> {
  return {
    builtinCode: BuiltinOperator.MUL,
    version: 7,
    provider: PROVIDER,
    name: 'MUL/wasm-qs8',
    supports,
    init: (): MulData => ({ k: null, params: 0, fixed: NO_COPIES }),
    prepare,
    invoke,
  };
}
