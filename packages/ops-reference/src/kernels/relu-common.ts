/**
 * TFLite's uint8 RELU family (activations.cc ReluPrepare + QuantizedReluX, optimized_ops::ReluX): the
 * input is requantized to the output with one multiplier and clamped to the activation's bounds in the
 * output's quantization. TFLM has no uint8 activations; its int8 RELU6 does not requantize at all.
 */
import {
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  multiplyByQuantizedMultiplier,
  type Node,
  type Registration,
  type Tensor,
} from '@micrort/core';
import { declineArity, declineTypes, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareUnary } from './tflite-ops-common.js';
import { requireQuantizedPair } from './unary-common.js';

// Word offsets used in the op-data block (the layout of TFLM's ReluOpData / ReluParams).
const ACT_MIN = 1;
const ACT_MAX = 2;
const INPUT_OFFSET = 3;
const OUTPUT_OFFSET = 4;
const OUTPUT_MULTIPLIER = 5;
const OUTPUT_SHIFT = 6;
/** Words a uint8 RELU block needs (TFLM's ReluOpData is 28 bytes). */
export const RELU_X_UINT8_WORDS = 7;

/** roundf(value / scale) with float32 operands, as TFLite's QuantizedReluX computes the bounds. */
function quantizedBound(value: number, scale: number): number {
  const q = Math.fround(value / scale);
  return q < 0 ? -Math.round(-q) : Math.round(q);
}

/**
 * Fills `p` (at least RELU_X_UINT8_WORDS int32) for a uint8 RELU with float bounds [actMin, actMax]:
 * multiplier = QuantizeMultiplier((float)(input_scale / output_scale)); quantized bounds
 * max(0, zp + roundf(actMin / scale)) and (actMax infinite ? 255 : min(255, zp + roundf(actMax / scale))).
 */
export function prepareReluXUint8(
  op: string,
  node: Node,
  input: Tensor,
  output: Tensor,
  actMin: number,
  actMax: number,
  p: Int32Array,
): void {
  prepareReluXQuantized(op, node, input, output, actMin, actMax, p, 0, 255);
}

/**
 * `prepareReluXUint8` for a quantized type whose values span [typeMin, typeMax] (TFLite's QuantizedReluX<T>
 * for uint8 and int8): the bounds are clamped to the type's range instead of [0, 255].
 */
export function prepareReluXQuantized(
  op: string,
  node: Node,
  input: Tensor,
  output: Tensor,
  actMin: number,
  actMax: number,
  p: Int32Array,
  typeMin: number,
  typeMax: number,
): void {
  requireQuantizedPair(op, node, input, output);
  if (p.length < RELU_X_UINT8_WORDS) throw new KernelError(op, node.index, `op data has ${p.length} words, ${RELU_X_UINT8_WORDS} needed`);
  const m = checkedQuantizeMultiplier(op, node, Math.fround(input.params.scale / output.params.scale), 'input/output rescale');
  const zp = output.params.zeroPoint;
  const scale = output.params.scale;
  p[OUTPUT_MULTIPLIER] = m.multiplier;
  p[OUTPUT_SHIFT] = m.shift;
  p[ACT_MIN] = Math.max(typeMin, zp + quantizedBound(actMin, scale));
  p[ACT_MAX] = actMax === Number.POSITIVE_INFINITY ? typeMax : Math.min(typeMax, zp + quantizedBound(actMax, scale));
  p[INPUT_OFFSET] = input.params.zeroPoint;
  p[OUTPUT_OFFSET] = zp;
}

/** optimized_ops::ReluX on uint8 (or int8): zp_out + MultiplyByQuantizedMultiplier(x - zp_in, m, shift), clamped. */
export function reluXUint8(p: Int32Array, x: Uint8Array | Int8Array, y: Uint8Array | Int8Array, n: number): void {
  const lo = p[ACT_MIN]!;
  const hi = p[ACT_MAX]!;
  const inOff = p[INPUT_OFFSET]!;
  const outOff = p[OUTPUT_OFFSET]!;
  const m = p[OUTPUT_MULTIPLIER]!;
  const shift = p[OUTPUT_SHIFT]!;
  for (let i = 0; i < n; i++) {
    const v = (outOff + multiplyByQuantizedMultiplier(x[i]! - inOff, m, shift)) | 0;
    y[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

/** Op data of the TFLite clamp activations (RELU_N1_TO_1, RELU_0_TO_1). */
export interface ClampReluOpData {
  type: TensorType;
  count: number;
  /** The ReluX block for uint8 and int8 (persistent, TFLite's ReluOpData + ReluParams). */
  params: Int32Array;
  /** float32: the bounds [lo, hi] (read from a Float32Array, they stay unboxed doubles in the clamp). */
  bounds: Float32Array;
}

const CLAMP_TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.UINT8, TensorType.INT8];

/**
 * TFLite's float/uint8/int8 clamp activation `op` (activations.cc ReluPrepare + Relu1Eval / Relu0to1Eval):
 * float32 clamps to [lo, hi]; uint8 and int8 requantize with QuantizedReluX<T>(lo, hi), the bounds
 * quantized in the output's parameters and clamped to the type's range.
 */
export function clampReluKernel(op: string, builtinCode: number, lo: number, hi: number): Registration<ClampReluOpData> {
  return {
    builtinCode,
    version: 1,
    provider: PROVIDER,
    name: op,
    supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], CLAMP_TYPES) ?? true,
    init: (context) => ({
      type: TensorType.FLOAT32,
      count: 0,
      params: context.allocatePersistentBuffer(RELU_X_UINT8_WORDS * 4).i32,
      bounds: Float32Array.from([lo, hi]),
    }),
    prepare(context, node) {
      const data = opData<ClampReluOpData>(op, node);
      const { input, output, count } = prepareUnary(op, context, node, CLAMP_TYPES);
      data.type = input.type;
      data.count = count;
      if (input.type === TensorType.UINT8) prepareReluXQuantized(op, node, input, output, lo, hi, data.params, 0, 255);
      else if (input.type === TensorType.INT8) prepareReluXQuantized(op, node, input, output, lo, hi, data.params, -128, 127);
    },
    invoke(context, node) {
      const data = opData<ClampReluOpData>(op, node);
      const x = context.getEvalTensor(node.inputs[0]!).data;
      const y = context.getEvalTensor(node.outputs[0]!).data;
      if (data.type !== TensorType.FLOAT32) {
        reluXUint8(data.params, x as Uint8Array, y as Uint8Array, data.count);
        return;
      }
      const xf = x as Float32Array;
      const yf = y as Float32Array;
      const low = data.bounds[0]!;
      const high = data.bounds[1]!;
      for (let i = 0; i < data.count; i++) {
        const v = xf[i]!;
        yf[i] = v > high ? high : v < low ? low : v;
      }
    },
  };
}
