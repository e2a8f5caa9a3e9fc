/**
 * The shared prepare of FLOOR_DIV and FLOOR_MOD (tflite-micro kernels/floor_div.cc, floor_mod.cc): two
 * inputs and the output of one type, broadcasting up to 4-D (BroadcastBinaryFunction4DSlow). TFLM takes
 * float32 only; TFLite also int32 (and later int16, int8), and FLOOR_MOD int64. Neither kernel has op
 * data in TFLM's arena. Integer divisors are checked for zeros before anything is written, as TFLite's
 * eval does ("Division by 0").
 */
import { KernelError, TensorType, numElements, type EvalTensor, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { binaryTensors, followsBroadcast } from './elementwise-common.js';
import { broadcastInPlace } from './in-place-common.js';
import { type BroadcastPlan, expectSameType, expectType, opData, planBinary, supportsInputTypes } from '@micrort/kernel-support';

const MAX_BROADCAST_RANK = 4;

/** Op data of FLOOR_DIV / FLOOR_MOD: the broadcast plan and the element type. */
export interface FloorDivModOpData {
  plan: BroadcastPlan | null;
  type: TensorType;
}

/** Throws the "Division by 0" error when the divisor holds a zero (int64: a zero word pair). */
export function checkDivisor(op: string, node: Node, divisor: EvalTensor): void {
  if (divisor.type === TensorType.INT64) {
    const w = divisor.words;
    const words = 2 * numElements(divisor.dims);
    for (let i = 0; i < words; i += 2) if ((w[i]! | w[i + 1]!) === 0) divisionByZero(op, node, i / 2);
    return;
  }
  const d = divisor.data as Int32Array | Float32Array;
  const n = numElements(divisor.dims);
  for (let i = 0; i < n; i++) if (d[i] === 0) divisionByZero(op, node, i);
}

function divisionByZero(op: string, node: Node, i: number): never {
  throw new KernelError(op, node.index, `Division by 0 (divisor element ${i})`);
}

/** The registration of FLOOR_DIV or FLOOR_MOD around its invoke, for element types `types`. */
export function floorDivModKernel(
  name: string,
  builtinCode: number,
  version: number,
  types: readonly TensorType[],
  invoke: (context: TfLiteContext, node: Node) => void,
): Registration<FloorDivModOpData> {
  return followsBroadcast<FloorDivModOpData>(
    {
      builtinCode,
      version,
      provider: PROVIDER,
      name,
      inPlace: broadcastInPlace,
      supports: (context, node) => supportsInputTypes(context, node, types),
      init: () => ({ plan: null, type: TensorType.FLOAT32 }),
      prepare(context: TfLiteContext, node: Node): void {
        const d = opData<FloorDivModOpData>(name, node);
        const t = binaryTensors(name, context, node);
        expectType(name, node, 'input 1', t.input1, types);
        expectSameType(name, node, 'inputs', t.input1, t.input2);
        expectSameType(name, node, 'input 1 and output', t.input1, t.output);
        d.plan = planBinary(name, node, t.input1, t.input2, t.output, MAX_BROADCAST_RANK);
        d.type = t.input1.type;
      },
      invoke,
    },
    (d) => d.plan,
  );
}
