/**
 * REDUCE_PROD (TFLite reduce.cc PrepareProd/EvalProd): the product of the elements over constant axes,
 * folded per output in row-major order as TFLite's Reduce does. float32 multiplies in float; int32 and
 * int64 wrap (int64 as 16-bit limbs, no BigInt); non-quantized int8/int16 wrap in their type. Quantized
 * int8/int16 follow QuantizedReduceProd: the first value minus the zero point, then each next product
 * rescaled by QuantizeMultiplier(s_in / s_out^(1/n)) (n: the elements per output), a last rescale, the
 * output zero point added and the result clamped. int16 needs zero points 0 (TFLite checks it).
 */
import {
  BuiltinOperator,
  TensorType,
  checkedQuantizeMultiplier,
  multiplyByQuantizedMultiplierInt64,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectZeroPoint, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { followsWalk, prepareReduceWalk, walkNext, walkStart, type ReduceWalk } from './reduce-walk-common.js';
import { QUANTIZED_REDUCE_REASON } from './reduce-common.js';

const OP = 'REDUCE_PROD';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32, TensorType.INT64, TensorType.INT8, TensorType.INT16];

interface ReduceProdOpData {
  walk: ReduceWalk | null;
  type: TensorType;
  quantized: boolean;
  inputZeroPoint: number;
  outputZeroPoint: number;
  multiplier: number;
  shift: number;
  /** int64 product in progress: low and high words. */
  acc: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<ReduceProdOpData>(OP, node);
  const { input, output, walk } = prepareReduceWalk(OP, context, node, TYPES);
  d.walk = walk;
  d.type = input.type;
  d.quantized = (input.type === TensorType.INT8 || input.type === TensorType.INT16) && input.quantization !== null;
  if (d.quantized) {
    if (input.type === TensorType.INT16) {
      expectZeroPoint(OP, node, 'input', input, 0);
      expectZeroPoint(OP, node, 'output', output, 0);
    }
    d.inputZeroPoint = input.params.zeroPoint;
    d.outputZeroPoint = output.params.zeroPoint;
    if (walk.count > 0 && walk.numOutputs > 0) {
      const scaling = input.params.scale / Math.pow(output.params.scale, 1 / walk.count);
      const m = checkedQuantizeMultiplier(OP, node, scaling, 'product rescale');
      d.multiplier = m.multiplier;
      d.shift = m.shift;
    }
  }
}

/** (aHi:aLo) · (bHi:bLo) mod 2^64 into `acc` [lo, hi], with 16-bit limbs so no product exceeds 2^53. */
function mul64(acc: Int32Array, bLo: number, bHi: number): void {
  const aLo = acc[0]! >>> 0;
  const aHi = acc[1]! >>> 0;
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const mid = a1 * b0 + a0 * b1 + Math.floor(p00 / 65536);
  const lo = ((mid % 65536) * 65536 + (p00 % 65536)) >>> 0;
  const carry = Math.floor(mid / 65536) + a1 * b1;
  const hi = (Math.imul(aLo | 0, bHi | 0) + Math.imul(aHi | 0, bLo | 0) + carry) | 0;
  acc[0] = lo | 0;
  acc[1] = hi;
}

function word(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ReduceProdOpData>(OP, node);
  const w = d.walk!;
  const xt = context.getEvalTensor(node.inputs[0]!);
  const yt = context.getEvalTensor(node.outputs[0]!);
  const r = w.reduced;
  const n = w.count;
  let base = walkStart(w);
  for (let o = 0; o < w.numOutputs; o++) {
    if (d.type === TensorType.INT64) {
      const acc = d.acc;
      acc[0] = 1;
      acc[1] = 0;
      for (let k = 0; k < n; k++) {
        const at = (base + r[k]!) * 8;
        mul64(acc, word(xt.bytes, at) >>> 0, word(xt.bytes, at + 4) >>> 0);
      }
      const y = yt.bytes;
      for (let b = 0; b < 4; b++) {
        y[o * 8 + b] = acc[0]! >>> (8 * b);
        y[o * 8 + 4 + b] = acc[1]! >>> (8 * b);
      }
    } else if (d.quantized) {
      const x = xt.data as Int8Array | Int16Array;
      const zp = d.inputZeroPoint;
      let p = n > 0 ? x[base + r[0]!]! - zp : 1;
      for (let k = 1; k < n; k++) p = multiplyByQuantizedMultiplierInt64(p * (x[base + r[k]!]! - zp), d.multiplier, d.shift);
      const v = multiplyByQuantizedMultiplierInt64(p, d.multiplier, d.shift) + d.outputZeroPoint;
      const lo = d.type === TensorType.INT8 ? -128 : -32768;
      const hi = d.type === TensorType.INT8 ? 127 : 32767;
      (yt.data as Int8Array | Int16Array)[o] = v < lo ? lo : v > hi ? hi : v;
    } else if (d.type === TensorType.FLOAT32) {
      const x = xt.data as Float32Array;
      let p = 1;
      for (let k = 0; k < n; k++) p = Math.fround(p * x[base + r[k]!]!);
      (yt.data as Float32Array)[o] = p;
    } else {
      const x = xt.data as Int32Array | Int16Array | Int8Array;
      let p = 1;
      for (let k = 0; k < n; k++) p = Math.imul(p, x[base + r[k]!]!);
      (yt.data as Int32Array | Int16Array | Int8Array)[o] = p;
    }
    base = walkNext(w, base);
  }
}

/** REDUCE_PROD registration (op versions 1..2). */
export const REDUCE_PROD: Registration<ReduceProdOpData> = followsWalk<ReduceProdOpData>(
  {
    builtinCode: BuiltinOperator.REDUCE_PROD,
    version: 2,
    provider: PROVIDER,
    name: OP,
    supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0], TYPES) ?? true,
    init: () => ({
      walk: null,
      type: TensorType.FLOAT32,
      quantized: false,
      inputZeroPoint: 0,
      outputZeroPoint: 0,
      multiplier: 0,
      shift: 0,
      acc: new Int32Array(2),
    }),
    prepare,
    invoke,
  },
  (d) => d.walk,
  (d) => (d.quantized ? QUANTIZED_REDUCE_REASON : null),
);
