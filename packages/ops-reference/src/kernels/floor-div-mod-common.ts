/**
 * The shared prepare of FLOOR_DIV and FLOOR_MOD (tflite-micro kernels/floor_div.cc, floor_mod.cc): two
 * inputs and the output of one type, float32 only (TFLM's eval refuses int32: "Type 'INT32' is not
 * supported by FLOOR_DIV."; this kernel refuses it in prepare), broadcasting up to 4-D
 * (BroadcastBinaryFunction4DSlow). Neither kernel has op data in TFLM's arena.
 */
import { TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { binaryTensors } from './elementwise-common.js';
import { broadcastInPlace } from './in-place-common.js';
import { type BroadcastPlan, expectSameType, expectType, opData, planBinary, supportsInputTypes } from '@micrort/kernel-support';

const FLOAT32: readonly TensorType[] = [TensorType.FLOAT32];
const MAX_BROADCAST_RANK = 4;

/** Op data of FLOOR_DIV / FLOOR_MOD: the broadcast plan. */
export interface FloorDivModOpData {
  plan: BroadcastPlan | null;
}

/** The registration of FLOOR_DIV or FLOOR_MOD around its invoke. */
export function floorDivModKernel(
  name: string,
  builtinCode: number,
  version: number,
  invoke: (context: TfLiteContext, node: Node) => void,
): Registration<FloorDivModOpData> {
  return {
    builtinCode,
    version,
    provider: PROVIDER,
    name,
    inPlace: broadcastInPlace,
    supports: (context, node) => supportsInputTypes(context, node, FLOAT32),
    init: () => ({ plan: null }),
    prepare(context: TfLiteContext, node: Node): void {
      const d = opData<FloorDivModOpData>(name, node);
      const t = binaryTensors(name, context, node);
      expectType(name, node, 'input 1', t.input1, FLOAT32);
      expectSameType(name, node, 'inputs', t.input1, t.input2);
      expectSameType(name, node, 'input 1 and output', t.input1, t.output);
      d.plan = planBinary(name, node, t.input1, t.input2, t.output, MAX_BROADCAST_RANK);
    },
    invoke,
  };
}
