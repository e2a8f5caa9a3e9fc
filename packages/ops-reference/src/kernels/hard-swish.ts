/**
 * HARD_SWISH (tflite-micro kernels/hard_swish.cc, hard_swish_common.cc; reference_ops::HardSwish).
 *
 * - float32: x * min(6, max(0, x + 3)) / 6, every step in float32.
 * - int8: TFLite's 16-bit fixed-point evaluation: the input difference on a "high-res" scale (x 2^7), a
 *   rounding 16-bit multiply to the pre-shift output scale, a "relu-ish" factor in [0, 1] from the input
 *   rescaled so that 3.0 is 32768 (saturating shifts), a truncating doubling high multiply of the two,
 *   then the output exponent's rounding right shift, zero point and clamp. Multipliers are computed in
 *   float32 and turned into int16 with DownScaleInt32ToInt16Multiplier, as in TFLM's prepare.
 *
 * TFLM fails int16 at invoke ("Unsupported type INT16"); this kernel refuses it in prepare.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  saturatingRoundingDoublingHighMulInt16,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import { requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'HARD_SWISH';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8];

/** TFLM's HardSwishParams, decoded (the struct itself sits in the arena block `block`). */
interface HardSwishOpData extends UnaryOpData {
  block: DataView;
  type: TensorType;
  inputZeroPoint: number;
  outputZeroPoint: number;
  reluishMultiplier: number;
  reluishExponent: number;
  outputMultiplier: number;
  outputExponent: number;
}

/** TFLite DownScaleInt32ToInt16Multiplier: the rounded top 16 bits of a non-negative Q0.31 multiplier. */
export function downScaleInt32ToInt16Multiplier(multiplier: number): number {
  if (multiplier >= 2147483647 - 32768) return 32767;
  return (multiplier + 32768) >> 16;
}

/** static_cast<int16_t>: wraps to 16 bits. */
function toInt16(x: number): number {
  return (x << 16) >> 16;
}

/** TFLite SaturatingLeftShift(int16 value, amount): value * 2^amount clamped to int16. */
function saturatingLeftShiftInt16(value: number, amount: number): number {
  const r = value * 2 ** amount;
  return r > 32767 ? 32767 : r < -32768 ? -32768 : r;
}

/** TFLite SaturatingDoublingHighMul(int16, int16): (a * b) / 2^15 truncated toward zero (SQDMULH). */
function saturatingDoublingHighMulInt16(a: number, b: number): number {
  if (a === -32768 && b === -32768) return 32767;
  return toInt16(((a * b) / 32768) | 0);
}

/**
 * gemmlowp RoundingDivideByPOT<int16_t>(x, exponent): mask and threshold are int16 values (for exponents
 * of 16 and more the mask `(1ll << exponent) - 1` truncates to -1), the sum wraps to int16.
 */
function roundingDivideByPOTInt16(x: number, exponent: number): number {
  const mask = toInt16(exponent >= 31 ? -1 : 2 ** exponent - 1);
  const remainder = toInt16(x & mask);
  const threshold = toInt16((mask >> 1) + (x < 0 ? 1 : 0));
  return toInt16((x >> exponent) + (remainder > threshold ? 1 : 0));
}

function prepare(_context: TfLiteContext, node: Node, data: HardSwishOpData, input: Tensor, output: Tensor): void {
  data.type = input.type;
  if (input.type !== TensorType.INT8 && input.type !== TensorType.UINT8) return;
  requireQuantizedPair(OP, node, input, output);
  const f = Math.fround;
  const hiresInputScale = f(f(1 / 128) * input.params.scale);
  const reluishScale = f(3 / 32768);
  const out = checkedQuantizeMultiplier(OP, node, f(hiresInputScale / output.params.scale), 'output multiplier');
  const reluish = checkedQuantizeMultiplier(OP, node, f(hiresInputScale / reluishScale), 'relu-ish multiplier');
  if (out.shift > 0)
    throw new KernelError(
      OP,
      node.index,
      `output multiplier exponent ${out.shift} > 0: input scale ${input.params.scale} / 128 must not exceed the output scale ${output.params.scale} (TFLM requires it)`,
    );
  data.inputZeroPoint = input.params.zeroPoint;
  data.outputZeroPoint = output.params.zeroPoint;
  data.outputMultiplier = downScaleInt32ToInt16Multiplier(out.multiplier);
  data.outputExponent = out.shift;
  data.reluishMultiplier = downScaleInt32ToInt16Multiplier(reluish.multiplier);
  data.reluishExponent = reluish.shift;
  // HardSwishParams: int16 input_zero_point, output_zero_point, reluish multiplier; int reluish exponent
  // (at 8); int16 output multiplier (at 12); int output exponent (at 16).
  const b = data.block;
  b.setInt16(0, data.inputZeroPoint, true);
  b.setInt16(2, data.outputZeroPoint, true);
  b.setInt16(4, data.reluishMultiplier, true);
  b.setInt32(8, data.reluishExponent, true);
  b.setInt16(12, data.outputMultiplier, true);
  b.setInt32(16, data.outputExponent, true);
}

/** reference_ops::HardSwish<int8_t> (and <uint8_t>: `lo`, `hi` the type's range) for one value. */
function hardSwishInt8(x: number, d: HardSwishOpData, lo = -128, hi = 127): number {
  const inputValue = toInt16(x - d.inputZeroPoint);
  const hires = toInt16(inputValue * 128);
  const preshiftOutput = saturatingRoundingDoublingHighMulInt16(hires, d.outputMultiplier);
  let reluish = hires;
  const e = d.reluishExponent;
  if (e > 0) reluish = saturatingLeftShiftInt16(reluish, e - 1);
  reluish = saturatingRoundingDoublingHighMulInt16(reluish, d.reluishMultiplier);
  if (e > 0) reluish = saturatingLeftShiftInt16(reluish, 1);
  if (e < 0) reluish = roundingDivideByPOTInt16(reluish, -e);
  reluish = toInt16((reluish + 32768) >> 1);
  const preshift = saturatingDoublingHighMulInt16(reluish, preshiftOutput);
  let out = roundingDivideByPOTInt16(preshift, -d.outputExponent);
  out = toInt16(out + d.outputZeroPoint);
  return out > hi ? hi : out < lo ? lo : out;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<HardSwishOpData>(OP, node);
  const n = d.count;
  if (d.type === TensorType.FLOAT32) {
    const f = Math.fround;
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      const r = f(v + 3);
      const relu6 = r > 6 ? 6 : r > 0 ? r : 0;
      y[i] = f(v * relu6) / 6;
    }
    return;
  }
  if (d.type === TensorType.UINT8) {
    const x = context.getEvalTensor(node.inputs[0]!).data as Uint8Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Uint8Array;
    for (let i = 0; i < n; i++) y[i] = hardSwishInt8(x[i]!, d, 0, 255);
    return;
  }
  const x = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  for (let i = 0; i < n; i++) y[i] = hardSwishInt8(x[i]!, d);
}

/** HARD_SWISH reference kernel: float32, int8, uint8 (TFLite's HardSwish<uint8_t>, the same arithmetic). */
export const HARD_SWISH = {
  ...unaryKernel<HardSwishOpData>({
    readsActualDims: true,
    name: OP,
    builtinCode: BuiltinOperator.HARD_SWISH,
    version: 1,
    types: TYPES,
    init(context) {
      const r = context.allocatePersistentBuffer(MATH_OP_DATA_BYTES.HARD_SWISH);
      return {
        block: new DataView(r.buffer, r.offset, MATH_OP_DATA_BYTES.HARD_SWISH),
        type: TensorType.FLOAT32,
        inputZeroPoint: 0,
        outputZeroPoint: 0,
        reluishMultiplier: 0,
        reluishExponent: 0,
        outputMultiplier: 0,
        outputExponent: 0,
        count: 0,
      };
    },
    prepare,
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
};
