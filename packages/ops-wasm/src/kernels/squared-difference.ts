/**
 * SQUARED_DIFFERENCE, int8 and int16, in WebAssembly: qs_squared_difference
 * (assembly/int8/squared-difference.ts), TFLM's quantized squared difference (each offset input shifted
 * left by 7 (int8) or 0 (int16) and rescaled, the difference squared in int32 and rescaled to the output;
 * kernel-support's calculateSquaredDifferenceParams, which ops-reference uses too) on eight elements per
 * step, with broadcasting over up to three collapsed outer dimensions. Declines int32 (and float32, the
 * float kernel's) and broadcasts it cannot lay out.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { SD, SD_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { broadcastPlan } from './float/binary-common.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { binaryTensors, supportsQuantizedBinaryNode, writeBytePlan, type BinaryTensors } from './quantized-binary-common.js';
import { calculateSquaredDifferenceParams, expectZeroPoint } from '@micrort/kernel-support';

const OP = 'SQUARED_DIFFERENCE';
const NO_COPIES = new Int32Array(2).fill(-1);

interface SquaredDifferenceData {
  k: KernelExports | null;
  params: number;
  /** Arena copies of constant inputs (-1: read the eval tensor). */
  fixed: Int32Array;
}

/** ops-reference's prepare arithmetic: int16 zero points 0, then the parameters (left shift 7 for int8). */
function params(node: Node, { a, b, out }: BinaryTensors) {
  const int16 = a.type === TensorType.INT16;
  if (int16) {
    expectZeroPoint(OP, node, 'input 1', a, 0);
    expectZeroPoint(OP, node, 'input 2', b, 0);
    expectZeroPoint(OP, node, 'output', out, 0);
  }
  return calculateSquaredDifferenceParams(OP, node, a, b, out, int16 ? 0 : 7);
}

function supports(context: TfLiteContext, node: Node): true | string {
  return supportsQuantizedBinaryNode(
    context,
    node,
    (a, b, out) => (a === TensorType.INT8 || a === TensorType.INT16) && b === a && out === a,
    'int8, int16',
    (t) => params(node, t),
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SquaredDifferenceData;
  const t = binaryTensors(context, node);
  const { a, b, out } = t;
  const plan = broadcastPlan(a.dims, b.dims, out.dims);
  if (typeof plan === 'string') throw new KernelError(OP, node.index, plan);
  const q = params(node, t);
  const region = context.allocatePersistentBuffer(SD_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p.fill(0, 0, SD.Words);
  p[SD.Off1] = q.input1Offset;
  p[SD.Off2] = q.input2Offset;
  p[SD.ZpOut] = q.outputZeroPoint;
  p[SD.Shift] = q.leftShift;
  p[SD.M1] = q.input1.multiplier;
  p[SD.R1] = -q.input1.shift;
  p[SD.M2] = q.input2.multiplier;
  p[SD.R2] = -q.input2.shift;
  p[SD.Mo] = q.output.multiplier;
  p[SD.Lo] = Math.max(q.output.shift, 0);
  p[SD.Ro] = Math.max(-q.output.shift, 0);
  const int16 = a.type === TensorType.INT16;
  writeBytePlan(p, plan, int16 ? 2 : 1, SD.N, SD.S1, SD.S2, SD.Inner, SD.Mode);
  if (out.elementCount === 0) p[SD.Inner] = 0;
  p[SD.I16] = int16 ? 1 : 0;
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0, 1]);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SquaredDifferenceData;
  const a = inputOffset(context, node, 0, data.fixed[0]!);
  const b = inputOffset(context, node, 1, data.fixed[1]!);
  data.k!.qs_squared_difference(data.params, a, b, context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The int8 / int16 SQUARED_DIFFERENCE registration. */
export function createSquaredDifference(): Registration<SquaredDifferenceData> {
  return {
    builtinCode: BuiltinOperator.SQUARED_DIFFERENCE,
    version: 2,
    provider: PROVIDER,
    name: 'SQUARED_DIFFERENCE/wasm-qs',
    supports,
    init: (): SquaredDifferenceData => ({ k: null, params: 0, fixed: NO_COPIES }),
    prepare,
    invoke,
  };
}
