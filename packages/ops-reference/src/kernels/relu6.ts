/**
 * RELU6 (tflite-micro kernels/activations.cc, activations_common.cc: Relu6Float, Relu6Quantized).
 *
 * float32: clamp to [0, 6]. int8/int16: clamp the raw values to [input zero point, quantized 6] in the
 * input's quantization (TFLM does not requantize: the output is assumed to share the input's scale and
 * zero point). TFLite's uint8 does requantize (QuantizedReluX with bounds 0 and 6, see relu-common.ts);
 * its 28-byte block is allocated in prepare, beside TFLM's 4-byte one.
 */
import { BuiltinOperator, TensorType, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { TFLM_OP_DATA_BYTES } from './elementwise-common.js';
import { FLOAT32_INT8_INT16_UINT8, unaryKernel, type UnaryOpData } from './unary-common.js';
import { RELU_X_UINT8_WORDS, prepareReluXUint8, reluXUint8 } from './relu-common.js';
import { expectQuantized, opData } from '@micrort/kernel-support';

const OP = 'RELU6';

// Half-word offsets in the Relu6OpData block.
const SIX = 0;
const ZERO = 1;

interface Relu6OpData extends UnaryOpData {
  /** Relu6OpData in the arena: six and zero in the input's quantization. */
  params: Int16Array;
  type: TensorType;
  /** uint8: the requantizing block (persistent), empty otherwise. */
  uint8Params: Int32Array;
}

const EMPTY_I32 = new Int32Array(0);

/**
 * TFLM FloatToQuantizedType<T>(value, scale, zero_point): round(value / scale) + zero_point in float,
 * clamped to the type's range.
 */
export function floatToQuantized(value: number, scale: number, zeroPoint: number, min: number, max: number): number {
  const q = Math.fround(value / scale);
  const r = Math.trunc(Math.fround((q < 0 ? -Math.round(-q) : Math.round(q)) + zeroPoint));
  return r < min ? min : r > max ? max : r;
}

function prepare(context: TfLiteContext, node: Node, data: Relu6OpData, input: Tensor, output: Tensor): void {
  if (input.type === TensorType.UINT8) {
    data.uint8Params = context.allocatePersistentBuffer(RELU_X_UINT8_WORDS * 4).i32;
    prepareReluXUint8(OP, node, input, output, 0, 6, data.uint8Params);
  } else if (input.type !== TensorType.FLOAT32) {
    expectQuantized(OP, node, 'input', input);
    const [min, max] = input.type === TensorType.INT8 ? [-128, 127] : [-32768, 32767];
    data.params[ZERO] = input.params.zeroPoint;
    data.params[SIX] = floatToQuantized(6, input.params.scale, input.params.zeroPoint, min, max);
  }
  data.type = input.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<Relu6OpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const n = data.count;
  if (data.type === TensorType.FLOAT32) {
    const x = input as Float32Array;
    const y = output as Float32Array;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      y[i] = v > 6 ? 6 : v < 0 ? 0 : v;
    }
    return;
  }
  if (data.type === TensorType.UINT8) {
    reluXUint8(data.uint8Params, input as Uint8Array, output as Uint8Array, n);
    return;
  }
  const upper = data.params[SIX]!;
  const lower = data.params[ZERO]!;
  const x = input as Int8Array | Int16Array;
  const y = output as Int8Array | Int16Array;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    y[i] = v > upper ? upper : v < lower ? lower : v;
  }
}

/** RELU6 reference kernel: float32, int8, int16, uint8. */
export const RELU6 = unaryKernel<Relu6OpData>({
  readsActualDims: true,
  name: OP,
  builtinCode: BuiltinOperator.RELU6,
  version: 3,
  types: FLOAT32_INT8_INT16_UINT8,
  init: (context) => ({
    params: context.allocatePersistentBuffer(TFLM_OP_DATA_BYTES.RELU6).i16,
    type: TensorType.FLOAT32,
    count: 0,
    uint8Params: EMPTY_I32,
  }),
  prepare,
  invoke,
});
