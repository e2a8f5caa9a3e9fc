/**
 * SOFTMAX over the last dimension (tflite-micro kernels/softmax.cc + softmax_common.cc).
 *
 * float32 → float32 with beta; int8 → int8 (output scale exactly 1/256, zero point -128); int8 → int16
 * (scale 1/65536 within 0.1 %, zero point -32768); int16 → int16 (scale 1/32768 within 0.1 %, zero
 * point 0) with TFLM's two 513-entry int16 lookup tables, built in prepare in two persistent arena
 * regions. The quantization requirements are TFLM's; anything else is a KernelError. uint8 → uint8 or
 * int16 (TFLite only) follows TFLite's kernel: a float exp table built in prepare (see `softmaxUint8`).
 */
import {
  BuiltinOperator,
  INT16_LUT_SIZE,
  KernelError,
  TensorType,
  expF32,
  genLutInt16,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type Registration,
  type SoftmaxOptions,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { unaryTensors } from './elementwise-common.js';
import {
  SOFTMAX_PARAMS_BYTES,
  SoftmaxWord,
  softmaxFloat,
  softmaxInt16,
  softmaxInt8,
  softmaxUint8,
  type SoftmaxShape,
} from './softmax-common.js';
import {
  calculateSoftmaxInt8Params,
  expectQuantized,
  expectSoftmaxOutputQuantization,
  expectSoftmaxShape,
  followSoftmaxShape,
  isDataDependent,
  opData,
  populateSoftmaxUint8Table,
  UINT8_SOFTMAX_TABLE_ENTRIES,
} from '@micrort/kernel-support';

const OP = 'SOFTMAX';

enum SoftmaxKind {
  Float32,
  Int8ToInt8,
  Int8ToInt16,
  Int16ToInt16,
  Uint8ToUint8,
  Uint8ToInt16,
}

interface SoftmaxOpData {
  /** SoftmaxParams as int32 words (SoftmaxWord offsets). */
  params: Int32Array;
  /** The same block as float64 words (`beta` is word 0). */
  paramsF64: Float64Array;
  kind: SoftmaxKind;
  shape: SoftmaxShape;
  expLut: Int16Array;
  oneOverOnePlusXLut: Int16Array;
  /** uint8 input: TFLite's float exp table (256 entries, persistent). */
  uint8Table: Float32Array;
  outputScale: number;
  outputZeroPoint: number;
  /** The input has a data-dependent shape: invoke takes the rows from its actual dims. */
  bounded: boolean;
}

const EMPTY_I16 = new Int16Array(0);
const EMPTY_F32 = new Float32Array(0);

function init(context: TfLiteContext): SoftmaxOpData {
  const region = context.allocatePersistentBuffer(SOFTMAX_PARAMS_BYTES);
  return {
    params: region.i32,
    paramsF64: new Float64Array(region.buffer, region.offset, SOFTMAX_PARAMS_BYTES / 8),
    kind: SoftmaxKind.Float32,
    shape: { outer: 0, depth: 0 },
    expLut: EMPTY_I16,
    oneOverOnePlusXLut: EMPTY_I16,
    uint8Table: EMPTY_F32,
    outputScale: 0,
    outputZeroPoint: 0,
    bounded: false,
  };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<SoftmaxOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  const beta = Math.fround((node.builtinData as SoftmaxOptions | null)?.beta ?? 1);
  data.shape = expectSoftmaxShape(OP, node, input, output);
  data.bounded = isDataDependent(input);
  data.paramsF64[0] = beta;
  const p = data.params;

  if (input.type === TensorType.FLOAT32) {
    if (output.type !== TensorType.FLOAT32)
      throw new KernelError(OP, node.index, `float32 input needs a float32 output, got ${tensorTypeName(output.type)}`);
    data.kind = SoftmaxKind.Float32;
    return;
  }
  if (input.type === TensorType.UINT8) {
    prepareUint8(context, node, data, input, output, beta);
    return;
  }
  if (input.type !== TensorType.INT8 && input.type !== TensorType.INT16)
    throw new KernelError(OP, node.index, `unsupported input type ${tensorTypeName(input.type)}; supported: float32, int8, int16, uint8`);
  if (output.type === TensorType.INT16) {
    // int8 → int16 or int16 → int16
  } else if (output.type !== input.type) {
    throw new KernelError(
      OP,
      node.index,
      `${tensorTypeName(input.type)} input with ${tensorTypeName(output.type)} output is not supported`,
    );
  }
  expectQuantized(OP, node, 'input', input);
  expectQuantized(OP, node, 'output', output);
  const inputScale = input.params.scale;

  if (input.type === TensorType.INT16) {
    expectSoftmaxOutputQuantization(OP, node, output, 0, 1 / 32768, false);
    // the exp LUT covers [-10, 0]: input differences are rescaled so that -65535 maps to -10
    const m = checkedQuantizeMultiplier(OP, node, (inputScale * beta) / (10 / 65535), 'input multiplier');
    p[SoftmaxWord.InputMultiplier] = m.multiplier;
    p[SoftmaxWord.InputLeftShift] = m.shift;
    data.expLut = context.allocatePersistentBuffer(INT16_LUT_SIZE * 2).i16.subarray(0, INT16_LUT_SIZE);
    data.oneOverOnePlusXLut = context.allocatePersistentBuffer(INT16_LUT_SIZE * 2).i16.subarray(0, INT16_LUT_SIZE);
    genLutInt16(expF32, -10, 0, -1, 1, data.expLut);
    genLutInt16(oneOverOnePlusX, 0, 1, -1, 1, data.oneOverOnePlusXLut);
    p[SoftmaxWord.ZeroPoint] = output.params.zeroPoint;
    data.kind = SoftmaxKind.Int16ToInt16;
    return;
  }

  const q = calculateSoftmaxInt8Params(OP, node, input, output, beta);
  data.kind = q.outputBits === 16 ? SoftmaxKind.Int8ToInt16 : SoftmaxKind.Int8ToInt8;
  p[SoftmaxWord.InputMultiplier] = q.inputMultiplier;
  p[SoftmaxWord.InputLeftShift] = q.inputLeftShift;
  p[SoftmaxWord.DiffMin] = q.diffMin;
}

/**
 * uint8 input (TFLite's activations.cc SoftmaxPrepare): uint8 or int16 output, any positive output scale;
 * the float table is built once here in a persistent 1 KiB region (TFLite keeps it in its op data).
 * A uint8 output must have zero point 0 (TFLite's x86 kernel ignores it; TF1 models use 1/256 and 0).
 */
function prepareUint8(context: TfLiteContext, node: Node, data: SoftmaxOpData, input: Tensor, output: Tensor, beta: number): void {
  if (output.type !== TensorType.UINT8 && output.type !== TensorType.INT16)
    throw new KernelError(OP, node.index, `uint8 input needs a uint8 or int16 output, got ${tensorTypeName(output.type)}`);
  expectQuantized(OP, node, 'input', input);
  expectQuantized(OP, node, 'output', output);
  const os = output.params.scale;
  if (!(os > 0) || !Number.isFinite(os) || !(input.params.scale > 0) || !Number.isFinite(input.params.scale))
    throw new KernelError(OP, node.index, `input scale ${input.params.scale} and output scale ${os} must be finite and > 0`);
  if (output.type === TensorType.UINT8 && output.params.zeroPoint !== 0)
    throw new KernelError(OP, node.index, `uint8 output (tensor ${output.index}) must have zero point 0, got ${output.params.zeroPoint}`);
  data.uint8Table = context.allocatePersistentBuffer(UINT8_SOFTMAX_TABLE_ENTRIES * 4).f32.subarray(0, UINT8_SOFTMAX_TABLE_ENTRIES);
  populateSoftmaxUint8Table(data.uint8Table, input.params.scale, beta);
  data.outputScale = os;
  data.outputZeroPoint = output.params.zeroPoint;
  data.kind = output.type === TensorType.UINT8 ? SoftmaxKind.Uint8ToUint8 : SoftmaxKind.Uint8ToInt16;
}

/** The 1 / (1 + x) table function, in float32 as TFLM's lambda. */
function oneOverOnePlusX(x: number): number {
  return Math.fround(1 / Math.fround(1 + x));
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<SoftmaxOpData>(OP, node);
  const p = data.params;
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  if (data.bounded) followSoftmaxShape(context, node, data.shape);
  switch (data.kind) {
    case SoftmaxKind.Float32:
      softmaxFloat(data.shape, input as Float32Array, output as Float32Array, data.paramsF64[0]!);
      break;
    case SoftmaxKind.Int8ToInt8:
    case SoftmaxKind.Int8ToInt16:
      softmaxInt8(
        data.shape,
        input as Int8Array,
        output as Int8Array | Int16Array,
        p[SoftmaxWord.InputMultiplier]!,
        p[SoftmaxWord.InputLeftShift]!,
        p[SoftmaxWord.DiffMin]!,
        data.kind === SoftmaxKind.Int8ToInt8 ? 8 : 16,
      );
      break;
    case SoftmaxKind.Uint8ToUint8:
    case SoftmaxKind.Uint8ToInt16:
      softmaxUint8(
        data.shape,
        input as Uint8Array,
        output as Uint8Array | Int16Array,
        data.uint8Table,
        data.outputScale,
        data.outputZeroPoint,
        data.kind === SoftmaxKind.Uint8ToInt16,
      );
      break;
    case SoftmaxKind.Int16ToInt16:
      softmaxInt16(
        data.shape,
        input as Int16Array,
        output as Int16Array,
        p[SoftmaxWord.InputMultiplier]!,
        p[SoftmaxWord.InputLeftShift]!,
        data.expLut,
        data.oneOverOnePlusXLut,
      );
      break;
  }
}

/** The reference SOFTMAX kernel. */
export const SOFTMAX: Registration<SoftmaxOpData> = {
  builtinCode: BuiltinOperator.SOFTMAX,
  version: 3,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: OP,
  dynamicInputShapes: true,
  init,
  prepare,
  invoke,
};
