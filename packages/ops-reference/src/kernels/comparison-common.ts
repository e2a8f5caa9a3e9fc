/**
 * The comparison kernels EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL (tflite-micro
 * kernels/comparisons.cc; reference_ops::Comparison*, Broadcast4DSlow*). `comparisonKernel` builds each
 * registration from the relation and the types TFLM's eval switch handles for it.
 *
 * - bool, float32, int32: raw values compared (float NaN compares unequal and unordered, as in C).
 * - int64: compared as two 32-bit words read from the tensor bytes (no BigInt in the loop).
 * - int8 (and int16 for GREATER): TFLM rescales both sides before comparing: (x - zero point) * 2^8,
 *   then MultiplyByQuantizedMultiplierSmallerThanOneExp by the input's own scale (quantized with
 *   QuantizeMultiplierSmallerThanOneExp, so scales must be below 1). Values equal in real numbers can
 *   compare unequal after this rounding; the kernel reproduces TFLM's arithmetic, not the real relation.
 *
 * Shapes: equal shapes (or equal element counts) compare elementwise, others broadcast up to 4-D
 * (TFLM's Broadcast4DSlow). The output is bool. TFLM's ComparisonParams (32 bytes) live in the arena.
 *
 * GREATER int16: TFLM at the conformance commit computes the rescaling parameters for int8 only, so its
 * int16 path multiplies by zero and answers false everywhere; this kernel computes them for int16 too
 * (as later TFLM does), so int16 GREATER compares the rescaled values.
 *
 * TFLite's types beyond TFLM's (its comparisons.cc): int16 for the other relations — LESS, LESS_EQUAL and
 * GREATER_EQUAL compare the raw int16 values whatever their quantization, EQUAL and NOT_EQUAL rescale
 * quantized int16 like int8 and compare unquantized int16 raw (`int16` of the spec); float16, compared
 * as the half values; and for EQUAL and NOT_EQUAL, strings, compared byte for byte.
 */
import {
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  quantizeMultiplierSmallerThanOneExp,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { binaryTensors, type BinaryTensors, followsBroadcast } from './elementwise-common.js';
import { broadcastInPlace } from './in-place-common.js';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import type { NumberArray } from './transpose-common.js';
import {
  halfToFloat,
  stringsEqual,
  allocateOpData,
  type BroadcastPlan,
  expectQuantized,
  expectSameType,
  expectType,
  opData,
  planBinary,
  supportsInputTypes,
} from '@micrort/kernel-support';

/** TFLM's Broadcast4DSlow: comparisons broadcast up to 4 dimensions. */
const MAX_BROADCAST_RANK = 4;
/** TFLM's kLeftShift for the rescaled comparison. */
const LEFT_SHIFT = 8;

/** The relation a comparison kernel computes. */
export enum Relation {
  Equal,
  NotEqual,
  Greater,
  GreaterEqual,
  Less,
  LessEqual,
}

/**
 * The answer of each relation for the four outcomes of comparing a with b: [a < b, a == b, a > b,
 * unordered (a NaN operand)], 4 entries per relation.
 */
const TRUTH = Uint8Array.from([
  0,
  1,
  0,
  0, // EQUAL
  1,
  0,
  1,
  1, // NOT_EQUAL
  0,
  0,
  1,
  0, // GREATER
  0,
  1,
  1,
  0, // GREATER_EQUAL
  1,
  0,
  0,
  0, // LESS
  1,
  1,
  0,
  0, // LESS_EQUAL
]);

// Word offsets in TFLM's ComparisonParams block.
const W_LEFT_SHIFT = 0;
const W_INPUT1_OFFSET = 1;
const W_INPUT1_MULTIPLIER = 2;
const W_INPUT1_SHIFT = 3;
const W_INPUT2_OFFSET = 4;
const W_INPUT2_MULTIPLIER = 5;
const W_INPUT2_SHIFT = 6;
/** bool is_broadcast: the low byte of word 7. */
const W_IS_BROADCAST = 7;

/** How values are read and compared, chosen in prepare. */
enum Mode {
  /** bool, float32, int32: raw values. */
  Raw,
  /** int8, int16: rescaled with the ComparisonParams. */
  Scaled,
  /** int64: two int32 words per element from the bytes. */
  Int64,
  /** float16: the half values. */
  Half,
  /** string: byte-for-byte equality (EQUAL, NOT_EQUAL). */
  String,
}

/** Op data of a comparison kernel. */
export interface ComparisonOpData {
  /** TFLM's ComparisonParams in the arena. */
  params: Int32Array;
  plan: BroadcastPlan | null;
  mode: Mode;
  /** Offset of the relation's row in TRUTH. */
  truth: number;
}

/** What a comparison op supplies to `comparisonKernel`. */
export interface ComparisonSpec {
  name: string;
  builtinCode: number;
  version: number;
  relation: Relation;
  /** Input types TFLM's (and TFLite's) eval handles for this op. */
  types: readonly TensorType[];
  /**
   * How int16 is compared: `scaled` rescales as int8 (TFLM's GREATER), `raw` compares the values
   * (TFLite's LESS, LESS_EQUAL, GREATER_EQUAL), `scaled-if-quantized` rescales quantized tensors and
   * compares the others raw (TFLite's EQUAL, NOT_EQUAL). Default `scaled`.
   */
  int16?: 'scaled' | 'raw' | 'scaled-if-quantized';
}

/** ComparisonsPrepare's rescaling: -zero point, and the scale as a multiplier below one. */
function prepareScaling(op: string, node: Node, p: Int32Array, t: BinaryTensors): void {
  const q1 = checkedQuantizeMultiplier(
    op,
    node,
    t.input1.params.scale,
    'input 1 scale (must be below 1)',
    quantizeMultiplierSmallerThanOneExp,
  );
  const q2 = checkedQuantizeMultiplier(
    op,
    node,
    t.input2.params.scale,
    'input 2 scale (must be below 1)',
    quantizeMultiplierSmallerThanOneExp,
  );
  p[W_LEFT_SHIFT] = LEFT_SHIFT;
  p[W_INPUT1_OFFSET] = -t.input1.params.zeroPoint;
  p[W_INPUT1_MULTIPLIER] = q1.multiplier;
  p[W_INPUT1_SHIFT] = q1.shift;
  p[W_INPUT2_OFFSET] = -t.input2.params.zeroPoint;
  p[W_INPUT2_MULTIPLIER] = q2.multiplier;
  p[W_INPUT2_SHIFT] = q2.shift;
}

function prepareFor(spec: ComparisonSpec) {
  const { name, types } = spec;
  return (context: TfLiteContext, node: Node): void => {
    const d = opData<ComparisonOpData>(name, node);
    const t = binaryTensors(name, context, node);
    expectType(name, node, 'input 1', t.input1, types);
    expectSameType(name, node, 'inputs', t.input1, t.input2);
    if (t.output.type !== TensorType.BOOL)
      throw new KernelError(name, node.index, `output (tensor ${t.output.index}) has type ${tensorTypeName(t.output.type)}, expected bool`);
    d.plan = planBinary(name, node, t.input1, t.input2, t.output, MAX_BROADCAST_RANK);
    d.params[W_IS_BROADCAST] = d.plan.requiresBroadcast ? 1 : 0;
    d.truth = spec.relation * 4;
    const type = t.input1.type;
    // uint8 (TFLite's ComparisonQuantized) takes the int8 path: left shift 8, each input's scale a multiplier.
    const int16 = spec.int16 ?? 'scaled';
    const rawInt16 = type === TensorType.INT16 && (int16 === 'raw' || (int16 === 'scaled-if-quantized' && t.input1.params.scale === 0));
    if ((type === TensorType.INT8 || type === TensorType.INT16 || type === TensorType.UINT8) && !rawInt16) {
      expectQuantized(name, node, 'input 1', t.input1);
      expectQuantized(name, node, 'input 2', t.input2);
      prepareScaling(name, node, d.params, t);
      d.mode = Mode.Scaled;
    } else
      d.mode =
        type === TensorType.INT64
          ? Mode.Int64
          : type === TensorType.FLOAT16
            ? Mode.Half
            : type === TensorType.STRING
              ? Mode.String
              : Mode.Raw;
  };
}

/** Raw values: bool (0/1 bytes), float32, int32. */
function compareRaw(plan: BroadcastPlan, a: NumberArray, b: NumberArray, out: Uint8Array, truth: number): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x = a[i1]!;
      const y = b[i2]!;
      out[o] = TRUTH[truth + (x < y ? 0 : x > y ? 2 : x === y ? 1 : 3)]!;
    }
    plan.next();
  }
}

/** int8/int16 rescaled as TFLM's ComparisonWithScaling. */
function compareScaled(plan: BroadcastPlan, a: NumberArray, b: NumberArray, out: Uint8Array, truth: number, p: Int32Array): void {
  const off1 = p[W_INPUT1_OFFSET]!;
  const m1 = p[W_INPUT1_MULTIPLIER]!;
  const sh1 = p[W_INPUT1_SHIFT]!;
  const off2 = p[W_INPUT2_OFFSET]!;
  const m2 = p[W_INPUT2_MULTIPLIER]!;
  const sh2 = p[W_INPUT2_SHIFT]!;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x = multiplyByQuantizedMultiplierSmallerThanOneExp((off1 + a[i1]!) << LEFT_SHIFT, m1, sh1);
      const y = multiplyByQuantizedMultiplierSmallerThanOneExp((off2 + b[i2]!) << LEFT_SHIFT, m2, sh2);
      out[o] = TRUTH[truth + (x < y ? 0 : x > y ? 2 : 1)]!;
    }
    plan.next();
  }
}

/** The signed high word of int64 element `i` of little-endian bytes. */
function high(bytes: Uint8Array, i: number): number {
  const p = i * 8 + 4;
  return bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24);
}

/** The unsigned low word of int64 element `i` of little-endian bytes. */
function low(bytes: Uint8Array, i: number): number {
  const p = i * 8;
  return (bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24)) >>> 0;
}

/** int64 values compared word by word (high words signed, low words unsigned). */
function compareInt64(plan: BroadcastPlan, a: Uint8Array, b: Uint8Array, out: Uint8Array, truth: number): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const h1 = high(a, i1);
      const h2 = high(b, i2);
      let c: number;
      if (h1 !== h2) c = h1 < h2 ? 0 : 2;
      else {
        const l1 = low(a, i1);
        const l2 = low(b, i2);
        c = l1 < l2 ? 0 : l1 > l2 ? 2 : 1;
      }
      out[o] = TRUTH[truth + c]!;
    }
    plan.next();
  }
}

/** float16 values (raw half bits in), compared as numbers (NaN unordered). */
function compareHalf(plan: BroadcastPlan, a: Uint16Array, b: Uint16Array, out: Uint8Array, truth: number): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x = halfToFloat(a[i1]!);
      const y = halfToFloat(b[i2]!);
      out[o] = TRUTH[truth + (x < y ? 0 : x > y ? 2 : x === y ? 1 : 3)]!;
    }
    plan.next();
  }
}

/** Strings (serialized buffers), equal or not byte for byte. */
function compareStrings(plan: BroadcastPlan, a: Uint8Array, b: Uint8Array, out: Uint8Array, truth: number): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = TRUTH[truth + (stringsEqual(a, i1, b, i2) ? 1 : 0)]!;
    plan.next();
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ComparisonOpData>('COMPARISON', node);
  const plan = d.plan!;
  const in1 = context.getEvalTensor(node.inputs[0]!);
  const in2 = context.getEvalTensor(node.inputs[1]!);
  const out = context.getEvalTensor(node.outputs[0]!).data as Uint8Array;
  switch (d.mode) {
    case Mode.Raw:
      compareRaw(plan, in1.data as unknown as NumberArray, in2.data as unknown as NumberArray, out, d.truth);
      break;
    case Mode.Scaled:
      compareScaled(plan, in1.data as unknown as NumberArray, in2.data as unknown as NumberArray, out, d.truth, d.params);
      break;
    case Mode.Int64:
      compareInt64(plan, in1.bytes, in2.bytes, out, d.truth);
      break;
    case Mode.Half:
      compareHalf(plan, in1.data as Uint16Array, in2.data as Uint16Array, out, d.truth);
      break;
    case Mode.String:
      compareStrings(plan, in1.bytes, in2.bytes, out, d.truth);
      break;
  }
}

/** The registration of one comparison op. In-place capable where an input has the output's width and shape. */
export function comparisonKernel(spec: ComparisonSpec): Registration<ComparisonOpData> {
  return followsBroadcast<ComparisonOpData>(
    {
      builtinCode: spec.builtinCode,
      version: spec.version,
      provider: PROVIDER,
      name: spec.name,
      inPlace: broadcastInPlace,
      supports: (context, node) => supportsInputTypes(context, node, spec.types),
      init: (context) => ({ params: allocateOpData(context, MATH_OP_DATA_BYTES.COMPARISON).i32, plan: null, mode: Mode.Raw, truth: 0 }),
      prepare: prepareFor(spec),
      invoke,
    },
    (d) => d.plan,
  );
}
