/**
 * MUL, int8 and TFLite's uint8, in WebAssembly: qs8_mul (assembly/int8/mul.ts), TFLM's MulElementwise
 * (product of the offset inputs through MultiplyByQuantizedMultiplier with M from double(s1) *
 * double(s2) / double(s_out)) on 8 elements per step, with the broadcasting of ADD; uint8 values are
 * zero-extended (reference_ops::Mul, the same arithmetic). Declines other types and deeper broadcasts
 * (the next provider serves the node).
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { M, M_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { int8BinaryTensors, supportsQuantizedBinary, writePlan } from './add.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { calculateOpDataMul, fusedActivation } from '@micrort/kernel-support';

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

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as MulData;
  const { a, b, out, plan } = int8BinaryTensors(OP, context, node);
  const q = calculateOpDataMul(OP, node, a, b, out, fusedActivation(node));
  const m = { multiplier: q.outputMultiplier, shift: q.outputShift };
  const region = context.allocatePersistentBuffer(MUL_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[M.Count] = out.elementCount;
  p[M.Off1] = -q.input1ZeroPoint;
  p[M.Off2] = -q.input2ZeroPoint;
  p[M.Mult] = m.multiplier;
  p[M.Left] = m.shift > 0 ? m.shift : 0;
  p[M.Right] = m.shift > 0 ? 0 : -m.shift;
  p[M.ZpOut] = q.outputZeroPoint;
  p[M.ActMin] = q.actMin;
  p[M.ActMax] = q.actMax;
  writePlan(p, plan, M.N, M.S1, M.S2, M.Inner, M.Mode);
  p[M.U8] = a.type === TensorType.UINT8 ? 1 : 0;
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
    supports: supportsQuantizedBinary,
    init: (): MulData => ({ k: null, params: 0, fixed: NO_COPIES }),
    prepare,
    invoke,
  };
}
