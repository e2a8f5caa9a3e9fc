/**
 * PRELU (tflite-micro kernels/prelu.cc, prelu_common.cc; reference_ops::BroadcastPrelu4DSlow): input and
 * alpha broadcast against each other up to 4-D.
 *
 * - float32: x >= 0 ? x : x * alpha (float32 alpha).
 * - int8 (int8 alpha) and int16 (int8 alpha, as TFLM requires): v = x - input zero point; v >= 0 is
 *   requantized with input scale / output scale, a negative v times (alpha - alpha zero point) with
 *   input scale * alpha scale / output scale (both QuantizeMultiplier in double), plus the output zero
 *   point, clamped to the type.
 * - uint8 (uint8 alpha) and int16 with an int16 alpha: TFLite's activations.cc (TFLM has neither), the
 *   same arithmetic (reference_ops::Prelu / BroadcastPrelu4DSlow, which TFLite runs for every quantized
 *   type) with TFLite's multipliers: `input->params.scale / output->params.scale` and
 *   `input->params.scale * alpha->params.scale / output->params.scale` are float expressions in
 *   PreluPrepare, rounded to float32 before QuantizeMultiplier widens them.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  multiplyByQuantizedMultiplier,
  tensorTypeName,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { binaryTensors, requireQuantizedBinary, followsBroadcast } from './elementwise-common.js';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import {
  allocateOpData,
  type BroadcastPlan,
  calculatePreluParams,
  expectSameType,
  expectType,
  opData,
  planBinary,
  supportsInputTypes,
  typeRange,
} from '@micrort/kernel-support';

const OP = 'PRELU';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16, TensorType.UINT8];
const MAX_BROADCAST_RANK = 4;

// Word offsets in TFLM's PreluParams.
const W_INPUT_OFFSET = 0;
const W_ALPHA_OFFSET = 1;
const W_OUTPUT_OFFSET = 2;
const W_MULTIPLIER_1 = 3;
const W_SHIFT_1 = 4;
const W_MULTIPLIER_2 = 5;
const W_SHIFT_2 = 6;

interface PreluOpData {
  /** TFLM's PreluParams in the arena. */
  params: Int32Array;
  plan: BroadcastPlan | null;
  type: TensorType;
  /** Output type range (integer types). */
  lo: number;
  hi: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<PreluOpData>(OP, node);
  const t = binaryTensors(OP, context, node);
  const { input1: input, input2: alpha, output } = t;
  expectType(OP, node, 'input', input, TYPES);
  expectSameType(OP, node, 'input and output', input, output);
  // TFLM: int8 alpha for int8 and int16; TFLite: alpha of the input's type (uint8, int16).
  const alphaTypes = input.type === TensorType.INT16 ? [TensorType.INT8, TensorType.INT16] : [input.type];
  if (!alphaTypes.includes(alpha.type))
    throw new KernelError(
      OP,
      node.index,
      `alpha (tensor ${alpha.index}) has type ${tensorTypeName(alpha.type)}; a ${tensorTypeName(input.type)} input needs a ${alphaTypes.map(tensorTypeName).join(' or ')} alpha`,
    );
  d.type = input.type;
  if (input.type !== TensorType.FLOAT32) {
    [d.lo, d.hi] = typeRange(input.type);
    requireQuantizedBinary(OP, node, t);
    const p = d.params;
    // TFLM's combinations (int8 alpha) in double; TFLite's (uint8, int16 alpha) in float32 (see above).
    const q = calculatePreluParams(OP, node, input, alpha, output);
    p[W_INPUT_OFFSET] = q.inputOffset;
    p[W_ALPHA_OFFSET] = q.alphaOffset;
    p[W_OUTPUT_OFFSET] = q.outputZeroPoint;
    p[W_MULTIPLIER_1] = q.identity.multiplier;
    p[W_SHIFT_1] = q.identity.shift;
    p[W_MULTIPLIER_2] = q.alpha.multiplier;
    p[W_SHIFT_2] = q.alpha.shift;
  }
  d.plan = planBinary(OP, node, input, alpha, output, MAX_BROADCAST_RANK);
}

function preluFloat(plan: BroadcastPlan, x: Float32Array, alpha: Float32Array, out: Float32Array): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const v = x[i1]!;
      out[o] = v >= 0 ? v : v * alpha[i2]!;
    }
    plan.next();
  }
}

function preluQuantized(
  plan: BroadcastPlan,
  x: Int8Array | Int16Array | Uint8Array,
  alpha: Int8Array | Int16Array | Uint8Array,
  out: Int8Array | Int16Array | Uint8Array,
  p: Int32Array,
  lo: number,
  hi: number,
): void {
  const inputOffset = p[W_INPUT_OFFSET]!;
  const alphaOffset = p[W_ALPHA_OFFSET]!;
  const outputOffset = p[W_OUTPUT_OFFSET]!;
  const m1 = p[W_MULTIPLIER_1]!;
  const sh1 = p[W_SHIFT_1]!;
  const m2 = p[W_MULTIPLIER_2]!;
  const sh2 = p[W_SHIFT_2]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const v = inputOffset + x[i1]!;
      const scaled =
        v >= 0 ? multiplyByQuantizedMultiplier(v, m1, sh1) : multiplyByQuantizedMultiplier(Math.imul(v, alphaOffset + alpha[i2]!), m2, sh2);
      const y = (scaled + outputOffset) | 0;
      out[o] = y < lo ? lo : y > hi ? hi : y;
    }
    plan.next();
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<PreluOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data;
  const alpha = context.getEvalTensor(node.inputs[1]!).data;
  const out = context.getEvalTensor(node.outputs[0]!).data;
  if (d.type === TensorType.FLOAT32) preluFloat(d.plan!, x as Float32Array, alpha as Float32Array, out as Float32Array);
  else
    preluQuantized(
      d.plan!,
      x as Int8Array | Int16Array | Uint8Array,
      alpha as Int8Array | Int16Array | Uint8Array,
      out as Int8Array | Int16Array | Uint8Array,
      d.params,
      d.lo,
      d.hi,
    );
}

/** PRELU reference kernel: float32, int8 (int8 alpha), int16 (int8 or int16 alpha), uint8 (uint8 alpha). */
export const PRELU = followsBroadcast<PreluOpData>(
  {
    builtinCode: BuiltinOperator.PRELU,
    version: 1,
    provider: PROVIDER,
    name: OP,
    supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
    init: (context: TfLiteContext): PreluOpData => ({
      params: allocateOpData(context, MATH_OP_DATA_BYTES.PRELU).i32,
      plan: null,
      type: TensorType.FLOAT32,
      lo: 0,
      hi: 0,
    }),
    prepare,
    invoke,
  },
  (d) => d.plan,
);
