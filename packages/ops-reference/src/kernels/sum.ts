/**
 * SUM (tflite-micro kernels/reduce.cc, reduce_common.cc: PrepareMeanOrSumHelper, EvalSumHelper).
 *
 * - float32: reference_ops::ReduceGeneric from 0, adding in float32 in row-major input order.
 * - int8, int16: reference_ops::QuantizedMeanOrSum with compute_sum: wrapping int32 sums in a scratch
 *   buffer of one int32 per output (as TFLM requests it), the input zero point removed as
 *   sum - zero point * count, MultiplyByQuantizedMultiplier by input scale / output scale, plus the
 *   output zero point, saturated. An empty input gives raw zeros, as TFLM.
 */
import {
  BuiltinOperator,
  TensorType,
  checkedQuantizeMultiplier,
  multiplyByQuantizedMultiplier,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  OP_DATA_REDUCE_BYTES,
  Reducer,
  type ReduceOpData,
  fillOutputs,
  foldInput,
  prepareReduce,
  writeReduceShapeFields,
} from './reduce-common.js';
import { type NumberArray, allocateOpDataBlock, opDataBlock } from './transpose-common.js';
import { opData, supportsInputTypes, typeRange } from '@micrort/kernel-support';

const OP = 'SUM';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16];

interface SumOpData extends ReduceOpData {
  multiplier: number;
  shift: number;
  inputZeroPoint: number;
  outputZeroPoint: number;
  /** zero point * count, wrapped to int32. */
  zeroPointTimesCount: number;
  lo: number;
  hi: number;
  scratchIndex: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const block = opDataBlock(OP, node);
  const d = opData<SumOpData>(OP, node);
  const { input, output, plan } = prepareReduce(OP, context, node, TYPES);
  d.plan = plan;
  d.reducer = input.type === TensorType.FLOAT32 ? Reducer.SumFloat : Reducer.SumInt;
  writeReduceShapeFields(block, plan);
  if (input.type === TensorType.FLOAT32) return;
  const q = checkedQuantizeMultiplier(OP, node, input.params.scale / output.params.scale, 'input/output rescale');
  d.multiplier = q.multiplier;
  d.shift = q.shift;
  d.inputZeroPoint = input.params.zeroPoint;
  d.outputZeroPoint = output.params.zeroPoint;
  d.zeroPointTimesCount = Math.imul(input.params.zeroPoint, plan.count);
  [d.lo, d.hi] = typeRange(input.type);
  d.scratchIndex = context.requestScratchBufferInArena(4 * plan.numOutputs);
  block.setInt32(0, q.multiplier, true);
  block.setInt32(4, q.shift, true);
  block.setInt32(8, d.scratchIndex, true);
  block.setInt32(16, d.inputZeroPoint, true);
  block.setFloat32(20, input.params.scale, true);
  block.setInt32(24, d.outputZeroPoint, true);
  block.setFloat32(28, output.params.scale, true);
}

function sumInt(d: SumOpData, input: NumberArray, out: NumberArray, sums: Int32Array): void {
  const plan = d.plan!;
  const n = plan.numOutputs;
  fillOutputs(out, n, 0);
  if (plan.inputElements === 0) return;
  fillOutputs(sums, n, 0);
  foldInput(plan, Reducer.SumInt, input, sums);
  const { multiplier, shift, outputZeroPoint, zeroPointTimesCount, lo, hi } = d;
  for (let i = 0; i < n; i++) {
    const v = (multiplyByQuantizedMultiplier((sums[i]! - zeroPointTimesCount) | 0, multiplier, shift) + outputZeroPoint) | 0;
    out[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SumOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data as unknown as NumberArray;
  const out = context.getEvalTensor(node.outputs[0]!).data as unknown as NumberArray;
  if (d.reducer === Reducer.SumFloat) {
    fillOutputs(out, d.plan!.numOutputs, 0);
    foldInput(d.plan!, Reducer.SumFloat, input, out);
  } else sumInt(d, input, out, context.getScratchBuffer(d.scratchIndex).i32);
}

/** SUM reference kernel: float32, int8, int16. */
export const SUM = {
  builtinCode: BuiltinOperator.SUM,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
  init: (context: TfLiteContext): SumOpData => ({
    ...allocateOpDataBlock(context, OP_DATA_REDUCE_BYTES),
    plan: null,
    reducer: Reducer.SumFloat,
    initial: 0,
    multiplier: 0,
    shift: 0,
    inputZeroPoint: 0,
    outputZeroPoint: 0,
    zeroPointTimesCount: 0,
    lo: 0,
    hi: 0,
    scratchIndex: -1,
  }),
  prepare,
  invoke,
};
