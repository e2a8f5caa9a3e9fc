/**
 * REDUCE_MAX and REDUCE_MIN (tflite-micro kernels/reduce_common.cc: PrepareMinMaxHelper, EvalMaxHelper /
 * EvalMinHelper; reference_ops::ReduceGeneric): the largest / smallest element over the given axes, for
 * float32 and int8 as TFLM (which refuses int16 at invoke, "Only float32 and int8 types are supported."),
 * and TFLite's uint8, int16, int32 and int64 (compared as int32 word pairs). Quantized types compare raw
 * values, so the input and output scale and zero point must be equal. Outputs start at the type's lowest (max) or highest (min) value; a NaN
 * input never replaces the running value (C's `in > current ? in : current`).
 *
 * Arena as TFLM: OpDataReduce, plus scratch requests of 4 bytes per input dimension and per axis value.
 */
import {
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  OP_DATA_REDUCE_BYTES,
  Reducer,
  type ReduceOpData,
  fillOutputs,
  fillOutputsInt64,
  foldInput,
  foldInputInt64,
  prepareReduce,
  writeReduceShapeFields,
  followsReduce,
} from './reduce-common.js';
import { type NumberArray, allocateOpDataBlock } from './transpose-common.js';
import { opData, supportsInputTypes } from '@micrort/kernel-support';

const TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
];

/** The lowest and highest value of the integer types (int64 is handled on words). */
const RANGES: Readonly<Partial<Record<TensorType, readonly [number, number]>>> = {
  [TensorType.INT8]: [-128, 127],
  [TensorType.UINT8]: [0, 255],
  [TensorType.INT16]: [-32768, 32767],
  [TensorType.INT32]: [-2147483648, 2147483647],
};
const FLT_MAX = 3.4028234663852886e38;

/** The registration of REDUCE_MAX (`Reducer.Max`) or REDUCE_MIN (`Reducer.Min`). */
export function reduceMinMaxKernel(name: string, builtinCode: number, reducer: Reducer.Max | Reducer.Min): Registration<ReduceOpData> {
  return followsReduce<ReduceOpData>(
    {
      builtinCode,
      version: 3,
      provider: PROVIDER,
      name,
      supports: (context, node) => supportsInputTypes(context, node, TYPES),
      init: (context: TfLiteContext): ReduceOpData => ({
        ...allocateOpDataBlock(context, OP_DATA_REDUCE_BYTES),
        plan: null,
        reducer,
        initial: 0,
        int64: false,
      }),
      prepare(context: TfLiteContext, node: Node): void {
        const d = opData<ReduceOpData>(name, node);
        const block = d.block;
        const { input, axis, output, plan } = prepareReduce(name, context, node, TYPES);
        const float = input.type === TensorType.FLOAT32;
        const quantized = input.type === TensorType.INT8 || input.type === TensorType.UINT8 || input.params.scale !== 0;
        if (!float && quantized) {
          if (input.params.scale !== output.params.scale || input.params.zeroPoint !== output.params.zeroPoint)
            throw new KernelError(
              name,
              node.index,
              `${tensorTypeName(input.type)} input and output must share scale and zero point (input ${input.params.scale}, ${input.params.zeroPoint}; output ${output.params.scale}, ${output.params.zeroPoint})`,
            );
          const q = checkedQuantizeMultiplier(name, node, input.params.scale / output.params.scale, 'input/output rescale');
          block.setInt32(0, q.multiplier, true);
          block.setInt32(4, q.shift, true);
        }
        // uint8, int16, int32 (TFLite's reduce.cc takes them too) compare raw values like int8; int64 starts
        // from INT64_MIN / INT64_MAX on its words (initial = 1 marks it).
        const [lo, hi] = RANGES[input.type] ?? [0, 0];
        if (reducer === Reducer.Max) d.initial = float ? -FLT_MAX : lo;
        else d.initial = float ? FLT_MAX : hi;
        d.int64 = input.type === TensorType.INT64;
        block.setInt32(8, context.requestScratchBufferInArena(4 * input.dims.length), true);
        block.setInt32(12, context.requestScratchBufferInArena(4 * axis.elementCount), true);
        block.setFloat32(20, input.params.scale, true);
        block.setFloat32(28, output.params.scale, true);
        writeReduceShapeFields(block, plan);
        d.plan = plan;
      },
      invoke(context: TfLiteContext, node: Node): void {
        const d = opData<ReduceOpData>(name, node);
        const plan = d.plan!;
        if (d.int64) {
          const out = context.getEvalTensor(node.outputs[0]!).words;
          if (d.reducer === Reducer.Max) fillOutputsInt64(out, plan.numOutputs, 0, -2147483648);
          else fillOutputsInt64(out, plan.numOutputs, -1, 2147483647);
          foldInputInt64(plan, d.reducer, context.getEvalTensor(node.inputs[0]!).words, out);
          return;
        }
        const out = context.getEvalTensor(node.outputs[0]!).data as unknown as NumberArray;
        fillOutputs(out, plan.numOutputs, d.initial);
        foldInput(plan, d.reducer, context.getEvalTensor(node.inputs[0]!).data as unknown as NumberArray, out);
      },
    },
    (d) => d.plan,
  );
}
