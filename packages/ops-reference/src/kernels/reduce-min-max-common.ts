/**
 * REDUCE_MAX and REDUCE_MIN (tflite-micro kernels/reduce_common.cc: PrepareMinMaxHelper, EvalMaxHelper /
 * EvalMinHelper; reference_ops::ReduceGeneric): the largest / smallest element over the given axes, for
 * float32 and int8 (TFLM refuses int16 at invoke, "Only float32 and int8 types are supported."; this
 * kernel refuses it in prepare). int8 compares raw values, so TFLM requires the input and output scale
 * and zero point to be equal. Outputs start at the type's lowest (max) or highest (min) value; a NaN
 * input never replaces the running value (C's `in > current ? in : current`).
 *
 * Arena as TFLM: OpDataReduce, plus scratch requests of 4 bytes per input dimension and per axis value.
 */
import { KernelError, TensorType, checkedQuantizeMultiplier, type Node, type Registration, type TfLiteContext } from '@micrort/core';
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
import { type NumberArray, allocateOpDataBlock } from './transpose-common.js';
import { opData, supportsInputTypes } from '@micrort/kernel-support';

const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8];
const FLT_MAX = 3.4028234663852886e38;

/** The registration of REDUCE_MAX (`Reducer.Max`) or REDUCE_MIN (`Reducer.Min`). */
export function reduceMinMaxKernel(name: string, builtinCode: number, reducer: Reducer.Max | Reducer.Min): Registration<ReduceOpData> {
  return {
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
    }),
    prepare(context: TfLiteContext, node: Node): void {
      const d = opData<ReduceOpData>(name, node);
      const block = d.block;
      const { input, axis, output, plan } = prepareReduce(name, context, node, TYPES);
      const float = input.type === TensorType.FLOAT32;
      if (!float) {
        if (input.params.scale !== output.params.scale || input.params.zeroPoint !== output.params.zeroPoint)
          throw new KernelError(
            name,
            node.index,
            `${input.type === TensorType.UINT8 ? 'uint8' : 'int8'} input and output must share scale and zero point (input ${input.params.scale}, ${input.params.zeroPoint}; output ${output.params.scale}, ${output.params.zeroPoint})`,
          );
        const q = checkedQuantizeMultiplier(name, node, input.params.scale / output.params.scale, 'input/output rescale');
        block.setInt32(0, q.multiplier, true);
        block.setInt32(4, q.shift, true);
      }
      // uint8 (TFLite's reduce.cc takes it too) compares raw values like int8.
      const [lo, hi] = input.type === TensorType.UINT8 ? [0, 255] : [-128, 127];
      if (reducer === Reducer.Max) d.initial = float ? -FLT_MAX : lo;
      else d.initial = float ? FLT_MAX : hi;
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
      const out = context.getEvalTensor(node.outputs[0]!).data as unknown as NumberArray;
      fillOutputs(out, plan.numOutputs, d.initial);
      foldInput(plan, d.reducer, context.getEvalTensor(node.inputs[0]!).data as unknown as NumberArray, out);
    },
  };
}
