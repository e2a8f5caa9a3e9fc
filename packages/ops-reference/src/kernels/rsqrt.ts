/**
 * RSQRT (tflite-micro kernels/elementwise.cc: PrepareAbsRsqrt, RsqrtEval, RsqrtEvalQuantized).
 *
 * - float32: 1 / sqrtf(x) in float32.
 * - int8, int16 (quantized; int16 with zero points 0): for v = x - input zero point, v = 0 gives the
 *   type's maximum; otherwise 1/sqrt(v) from GetInvSqrtQuantizedMultiplierExp, applied to 1 with a left
 *   shift of 20, then multiplied by 1 / (sqrt(input scale) * output scale) (QuantizeMultiplier in
 *   double), plus the output zero point, saturated (kernel-support's rsqrtMultiplier and rsqrtQuantized,
 *   which ops-wasm tabulates). A value below the input zero point (negative real input) fails the invoke,
 *   as in TFLM ("Rsqrt is only defined for positive values").
 *
 * TFLM's prepare type check is a no-op (its RSQRT accepts int16, see the conformance README); its eval
 * handles float32, int8 and int16, which is what this kernel accepts in prepare.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import { FLOAT32_INT8_INT16, requireInt16ZeroPoints, requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { allocateOpData, opData, rsqrtMultiplier, rsqrtQuantized, supportsInputTypes, typeRange } from '@micrort/kernel-support';

const OP = 'RSQRT';

// Word offsets in TFLM's OpDataAbsRsqrt block.
const MULTIPLIER = 0;
const SHIFT_WORD = 1;
const INPUT_OFFSET = 2;
const OUTPUT_OFFSET = 3;
const NEEDS_RESCALE = 4;
const INPUT_TYPE = 6;

interface RsqrtOpData extends UnaryOpData {
  /** TFLM's OpDataAbsRsqrt in the arena. */
  params: Int32Array;
  /** GetInvSqrtQuantizedMultiplierExp's [multiplier, shift], reused per element. */
  invSqrt: Int32Array;
  /** The output rescale (kernel-support's rsqrtMultiplier), as the op data's words hold it. */
  rescale: { multiplier: number; shift: number };
  /** Output type range (integer types). */
  lo: number;
  hi: number;
}

function prepare(_context: TfLiteContext, node: Node, data: RsqrtOpData, input: Tensor, output: Tensor): void {
  const p = data.params;
  p[INPUT_TYPE] = input.type;
  if (input.type === TensorType.FLOAT32) return;
  // int16 without quantization would run TFLM's quantized path with an unset multiplier: refused.
  requireQuantizedPair(OP, node, input, output);
  requireInt16ZeroPoints(OP, node, input, output);
  [data.lo, data.hi] = typeRange(input.type);
  p[INPUT_OFFSET] = input.params.zeroPoint;
  p[OUTPUT_OFFSET] = output.params.zeroPoint;
  p[NEEDS_RESCALE] = input.params.scale !== output.params.scale ? 1 : 0;
  const m = rsqrtMultiplier(OP, node, input.params.scale, output.params.scale);
  p[MULTIPLIER] = m.multiplier;
  p[SHIFT_WORD] = m.shift;
  data.rescale.multiplier = m.multiplier;
  data.rescale.shift = m.shift;
}

function rsqrtFloat(x: Float32Array, y: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) y[i] = 1 / Math.fround(Math.sqrt(x[i]!));
}

function rsqrtQuantizedLoop(node: Node, d: RsqrtOpData, x: Int8Array | Int16Array, y: Int8Array | Int16Array): void {
  const p = d.params;
  const lo = d.lo;
  const hi = d.hi;
  const inputOffset = p[INPUT_OFFSET]!;
  const outputOffset = p[OUTPUT_OFFSET]!;
  const m = d.rescale;
  const inv = d.invSqrt;
  const n = d.count;
  for (let i = 0; i < n; i++) {
    const v = x[i]! - inputOffset;
    if (v < 0)
      throw new KernelError(
        OP,
        node.index,
        `Rsqrt is only defined for positive values (element ${i} is ${x[i]}, below the input zero point ${inputOffset})`,
      );
    y[i] = rsqrtQuantized(v, m, outputOffset, lo, hi, inv);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<RsqrtOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data;
  const y = context.getEvalTensor(node.outputs[0]!).data;
  const type = d.params[INPUT_TYPE]! as TensorType;
  if (type === TensorType.FLOAT32) rsqrtFloat(x as Float32Array, y as Float32Array, d.count);
  else rsqrtQuantizedLoop(node, d, x as Int8Array | Int16Array, y as Int8Array | Int16Array);
}

/** RSQRT reference kernel: float32, int8, int16. */
export const RSQRT = {
  ...unaryKernel<RsqrtOpData>({
    readsActualDims: true,
    name: OP,
    builtinCode: BuiltinOperator.RSQRT,
    version: 3,
    types: FLOAT32_INT8_INT16,
    init: (context) => ({
      params: allocateOpData(context, MATH_OP_DATA_BYTES.RSQRT).i32,
      invSqrt: new Int32Array(2),
      rescale: { multiplier: 0, shift: 0 },
      lo: 0,
      hi: 0,
      count: 0,
    }),
    prepare,
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, FLOAT32_INT8_INT16),
};
