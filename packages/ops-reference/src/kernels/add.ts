/**
 * ADD (tflite-micro kernels/add.cc + add_common.cc).
 *
 * float32 (float32 sum clamped to the fused activation range), int32 (wrap-around, unquantized inputs,
 * no activation as in TFLM), int8 and int16 (TFLM's general rescaling path with left shift 20 / 15;
 * TFLM takes it for int16 even when pot_scale_int16 is set, so the option does not change results), and
 * TFLite's uint8 (the same general path with left shift 20, TFLite kernels/add.cc) and int64 (wrap-around
 * on int32 word pairs, clamped to TFLite's int64 activation range; int64-common.ts).
 * Broadcasting follows numpy/TFLite rules up to 6 dimensions.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { broadcastInPlace } from './in-place-common.js';
import { requireNotQuantizedInputs, typedBinaryTensors, followsBroadcast } from './elementwise-common.js';
import { Int64Op, binaryInt64, int64ActivationRange } from './int64-common.js';
import { AddWord, OP_DATA_ADD_BYTES, addFloat, addInt32, addQuantized, addQuantizedUint8, writeOpDataAdd } from './add-common.js';
import {
  activationRangeFloat,
  calculateOpDataAdd,
  expectClampActivation,
  fusedActivation,
  opData,
  planBinary,
  type BroadcastPlan,
} from '@micrort/kernel-support';

const OP = 'ADD';
/** Largest rank broadcasting supports (TFLM's BroadcastAdd6DSlow). */
const MAX_BROADCAST_RANK = 6;

interface AddOpData {
  /** OpDataAdd as int32 words (AddWord offsets). */
  params: Int32Array;
  /** The same block as float32 words (float activation range). */
  paramsF32: Float32Array;
  plan: BroadcastPlan | null;
  type: TensorType;
  /** int64: the activation range as words, or null. */
  int64Range: Int32Array | null;
}

function init(context: TfLiteContext): AddOpData {
  const region = context.allocatePersistentBuffer(OP_DATA_ADD_BYTES);
  return { params: region.i32, paramsF32: region.f32, plan: null, type: TensorType.FLOAT32, int64Range: null };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<AddOpData>(OP, node);
  const t = typedBinaryTensors(OP, context, node, [
    TensorType.FLOAT32,
    TensorType.INT32,
    TensorType.INT8,
    TensorType.INT16,
    TensorType.UINT8,
    TensorType.INT64,
  ]);
  const { input1, input2, output } = t;
  const activation = fusedActivation(node);
  expectClampActivation(OP, node, activation);
  const plan = planBinary(OP, node, input1, input2, output, MAX_BROADCAST_RANK);
  const p = data.params;
  p[AddWord.RequiresBroadcast] = plan.requiresBroadcast ? 1 : 0;
  switch (output.type) {
    case TensorType.FLOAT32: {
      const [lo, hi] = activationRangeFloat(OP, node, activation);
      data.paramsF32[AddWord.ActMinF32] = lo;
      data.paramsF32[AddWord.ActMaxF32] = hi;
      break;
    }
    case TensorType.INT32:
      requireNotQuantizedInputs(OP, node, t);
      break;
    case TensorType.INT64:
      requireNotQuantizedInputs(OP, node, t);
      data.int64Range = int64ActivationRange(OP, node, activation);
      break;
    default:
      writeOpDataAdd(p, calculateOpDataAdd(OP, node, input1, input2, output, activation));
  }
  data.plan = plan;
  data.type = output.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<AddOpData>(OP, node);
  const plan = data.plan!;
  const a = context.getEvalTensor(node.inputs[0]!).data;
  const b = context.getEvalTensor(node.inputs[1]!).data;
  const out = context.getEvalTensor(node.outputs[0]!).data;
  switch (data.type) {
    case TensorType.FLOAT32:
      addFloat(plan, a as Float32Array, b as Float32Array, out as Float32Array, data.paramsF32);
      break;
    case TensorType.INT32:
      addInt32(plan, a as Int32Array, b as Int32Array, out as Int32Array);
      break;
    case TensorType.INT64:
      binaryInt64(
        OP,
        node,
        Int64Op.Add,
        plan,
        words(context, node.inputs[0]!),
        words(context, node.inputs[1]!),
        words(context, node.outputs[0]!),
        data.int64Range,
      );
      break;
    case TensorType.UINT8:
      addQuantizedUint8(plan, data.params, a as Uint8Array, b as Uint8Array, out as Uint8Array);
      break;
    default:
      addQuantized(plan, data.params, a as Int8Array | Int16Array, b as Int8Array | Int16Array, out as Int8Array | Int16Array);
  }
}

/** The int32 words of tensor `i`. */
function words(context: TfLiteContext, i: number): Int32Array {
  return context.getEvalTensor(i).words;
}

/** The reference ADD kernel. */
export const ADD: Registration<AddOpData> = followsBroadcast<AddOpData>(
  {
    builtinCode: BuiltinOperator.ADD,
    version: 5,
    provider: PROVIDER,
    inPlace: broadcastInPlace,
    name: OP,
    init,
    prepare,
    invoke,
  },
  (d) => d.plan,
);
