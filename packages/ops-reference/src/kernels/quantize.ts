/**
 * QUANTIZE (tflite-micro kernels/quantize.cc + quantize_common.cc).
 *
 * float32 → int8 / uint8 / int16 (AffineQuantize); requantization (Requantize with the effective scale
 * input_scale / output_scale as one quantized multiplier) for the pairs TFLM supports: int8 → int8,
 * uint8, int16, int32; uint8 → int8; int16 → int8, int16, int32; int32 → int8, int16. The output must be
 * per-tensor quantized. uint8 output from float32 and uint8 → uint8 are TFLite's additions to TFLM's
 * list (the same AffineQuantize and Requantize), and so is float32 → int4 (TFLite after 2.9:
 * AffineQuantizeToInt4, packed two per byte).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { unaryTensors } from './elementwise-common.js';
import { affineQuantize, affineQuantizeInt4, requantize, type IntegerData } from './quantize-common.js';
import { expectQuantized, expectSameElementCount, opData, typeRange } from '@micrort/kernel-support';

const OP = 'QUANTIZE';

/** Bytes of TFLM's OpDataQuantizeReference ({int32 zero_point; double scale} + 3 int32, 8-aligned). */
const OP_DATA_QUANTIZE_BYTES = 32;

/** Word offsets in OpDataQuantizeReference. */
enum QuantizeWord {
  OutputZeroPoint = 0,
  /** double `scale` occupies words 2-3 (read through the Float64Array view). */
  ScaleF64 = 1,
  RequantizeMultiplier = 4,
  RequantizeShift = 5,
  InputZeroPoint = 6,
}

/** Requantization pairs TFLM supports (and TFLite's uint8 → uint8), as `${input}>${output}`. */
const REQUANTIZE_PAIRS = new Set<string>(
  [
    [TensorType.INT8, TensorType.INT8],
    [TensorType.INT8, TensorType.UINT8],
    [TensorType.INT8, TensorType.INT16],
    [TensorType.INT8, TensorType.INT32],
    [TensorType.UINT8, TensorType.INT8],
    [TensorType.UINT8, TensorType.UINT8],
    [TensorType.INT16, TensorType.INT8],
    [TensorType.INT16, TensorType.INT16],
    [TensorType.INT16, TensorType.INT32],
    [TensorType.INT32, TensorType.INT8],
    [TensorType.INT32, TensorType.INT16],
  ].map(([a, b]) => `${a}>${b}`),
);

const FLOAT_OUTPUTS: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.INT4];

interface QuantizeOpData {
  params: Int32Array;
  paramsF64: Float64Array;
  fromFloat: boolean;
  /** float32 → packed int4. */
  toInt4: boolean;
  count: number;
  lo: number;
  hi: number;
}

function init(context: TfLiteContext): QuantizeOpData {
  const region = context.allocatePersistentBuffer(OP_DATA_QUANTIZE_BYTES);
  return {
    params: region.i32,
    paramsF64: new Float64Array(region.buffer, region.offset, OP_DATA_QUANTIZE_BYTES / 8),
    fromFloat: false,
    toInt4: false,
    count: 0,
    lo: 0,
    hi: 0,
  };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<QuantizeOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  expectQuantized(OP, node, 'output', output);
  if (output.quantization!.scale.length !== 1)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) must be per-tensor quantized, got ${output.quantization!.scale.length} scales`,
    );
  data.count = expectSameElementCount(OP, node, input, output);
  const p = data.params;
  if (input.type === TensorType.FLOAT32) {
    if (!FLOAT_OUTPUTS.includes(output.type))
      throw new KernelError(
        OP,
        node.index,
        `float32 input with ${tensorTypeName(output.type)} output is not supported; supported: int8, uint8, int16, int4`,
      );
    data.fromFloat = true;
  } else {
    if (!REQUANTIZE_PAIRS.has(`${input.type}>${output.type}`))
      throw new KernelError(
        OP,
        node.index,
        `requantizing ${tensorTypeName(input.type)} to ${tensorTypeName(output.type)} is not supported`,
      );
    expectQuantized(OP, node, 'input', input);
    // TFLM: double(input_scale) / double(output_scale)
    const m = checkedQuantizeMultiplier(OP, node, input.params.scale / output.params.scale, 'requantize multiplier');
    p[QuantizeWord.RequantizeMultiplier] = m.multiplier;
    p[QuantizeWord.RequantizeShift] = m.shift;
    data.fromFloat = false;
  }
  data.toInt4 = output.type === TensorType.INT4;
  p[QuantizeWord.OutputZeroPoint] = output.params.zeroPoint;
  data.paramsF64[QuantizeWord.ScaleF64] = output.params.scale;
  p[QuantizeWord.InputZeroPoint] = input.params.zeroPoint;
  [data.lo, data.hi] = data.toInt4 ? [-8, 7] : typeRange(output.type);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<QuantizeOpData>(OP, node);
  const p = data.params;
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data as IntegerData;
  if (data.toInt4) {
    affineQuantizeInt4(
      input as Float32Array,
      output as Int8Array,
      data.count,
      data.paramsF64[QuantizeWord.ScaleF64]!,
      p[QuantizeWord.OutputZeroPoint]!,
    );
  } else if (data.fromFloat) {
    affineQuantize(
      input as Float32Array,
      output,
      data.count,
      data.paramsF64[QuantizeWord.ScaleF64]!,
      p[QuantizeWord.OutputZeroPoint]!,
      data.lo,
      data.hi,
    );
  } else {
    requantize(
      input as IntegerData,
      output,
      data.count,
      p[QuantizeWord.RequantizeMultiplier]!,
      p[QuantizeWord.RequantizeShift]!,
      p[QuantizeWord.InputZeroPoint]!,
      p[QuantizeWord.OutputZeroPoint]!,
      data.lo,
      data.hi,
    );
  }
}

/** The reference QUANTIZE kernel. */
export const QUANTIZE: Registration<QuantizeOpData> = {
  builtinCode: BuiltinOperator.QUANTIZE,
  version: 3,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: OP,
  init,
  prepare,
  invoke,
};
