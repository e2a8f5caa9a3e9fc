/**
 * FLOOR (tflite-micro kernels/floor.cc; reference_ops::Floor; TFLite's floor.cc): float32 y = floorf(x),
 * exact in float32. float16 and bfloat16 (TFLite after 2.9; TFLM has float32 only): Eigen's
 * `floor(half)` / `floor(bfloat16)` widen to float, floorf and narrow back; the floor of a half or
 * bfloat16 value is representable in its type, so this is computed exactly on the bit patterns here
 * (`floorBits`): -0 stays -0, (-1, 0) gives -1, NaN gives the type's quiet NaN with its sign (Eigen's
 * narrowing), infinities stay. TFLM has no prepare and checks the type at invoke; here prepare refuses
 * other types.
 */
import { BuiltinOperator, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { opData, supportsInputTypes } from '@micrort/kernel-support';
import { unaryKernel, type UnaryOpData } from './unary-common.js';

const OP = 'FLOOR';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.FLOAT16, TensorType.BFLOAT16];

interface FloorOpData extends UnaryOpData {
  type: TensorType;
}

function runFloat(x: Float32Array, y: Float32Array, count: number): void {
  for (let i = 0; i < count; i++) y[i] = Math.floor(x[i]!);
}

/**
 * floor of a 16-bit float given by its bits: `exponentBits` exponent bits (5 for half, 8 for bfloat16)
 * and `mantissaBits` mantissa bits (10, 7); `quietNaN` the type's positive quiet NaN.
 */
export function floorBits(bits: number, exponentBits: number, mantissaBits: number, quietNaN: number): number {
  const sign = bits & 0x8000;
  const expMax = (1 << exponentBits) - 1;
  const bias = expMax >> 1;
  const e = (bits >> mantissaBits) & expMax;
  const m = bits & ((1 << mantissaBits) - 1);
  if (e === expMax) return m !== 0 ? sign | quietNaN : bits; // NaN (quieted), ±inf
  const k = e - bias; // unbiased exponent
  if (k >= mantissaBits) return bits; // an integer already
  if (k < 0) {
    if (e === 0 && m === 0) return bits; // ±0
    return sign === 0 ? 0 : 0x8000 | (bias << mantissaBits); // (0, 1) → +0, (-1, 0) → -1
  }
  const fraction = (1 << (mantissaBits - k)) - 1;
  if ((bits & fraction) === 0) return bits;
  const truncated = bits & ~fraction & 0xffff;
  // Negative values round away from zero: one unit in the last integer place (carries into the exponent).
  return sign === 0 ? truncated : truncated + fraction + 1;
}

function runHalf(x: Uint16Array, y: Uint16Array, count: number): void {
  for (let i = 0; i < count; i++) y[i] = floorBits(x[i]!, 5, 10, 0x7e00);
}

function runBfloat16(x: Uint16Array, y: Uint16Array, count: number): void {
  for (let i = 0; i < count; i++) y[i] = floorBits(x[i]!, 8, 7, 0x7fc0);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<FloorOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data;
  const y = context.getEvalTensor(node.outputs[0]!).data;
  if (d.type === TensorType.FLOAT32) runFloat(x as Float32Array, y as Float32Array, d.count);
  else if (d.type === TensorType.FLOAT16) runHalf(x as Uint16Array, y as Uint16Array, d.count);
  else runBfloat16(x as Uint16Array, y as Uint16Array, d.count);
}

/** FLOOR reference kernel: float32, float16, bfloat16. */
export const FLOOR = {
  ...unaryKernel<FloorOpData>({
    readsActualDims: true,
    name: OP,
    builtinCode: BuiltinOperator.FLOOR,
    version: 1,
    types: TYPES,
    init: () => ({ count: 0, type: TensorType.FLOAT32 }),
    prepare(_context, _node, data, input) {
      data.type = input.type;
    },
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
};
