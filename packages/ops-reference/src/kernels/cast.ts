/**
 * CAST (tflite-micro kernels/cast.cc; TFLite kernels/cast.cc): elementwise static_cast between element
 * types.
 *
 * TFLM casts between int8, int16, int32, uint32 and float32; this kernel also takes TFLite's uint8,
 * bool, int64, complex64, and its later float16, bfloat16, float64 and uint16, in any combination TFLite
 * has. Results are C's on x86-64 (TFLite 2.9's static_cast; its later saturating float32 → int32 / int16
 * / uint8 casts are not followed):
 * - integers wrap to the target width (int64 sources give their low word), and are sign- or
 *   zero-extended to int64;
 * - integer to float rounds to nearest even once (int64 → float32 through `int64ToFloat32`, not via a
 *   double), float64 to float32 rounds once;
 * - float to integer truncates toward zero; out-of-range values and NaN give what the x86 conversion
 *   instructions give: INT32_MIN truncated to the target width, for uint32 the low 32 bits of the int64
 *   conversion, for int64 INT64_MIN;
 * - float16 and bfloat16 widen exactly; anything to float16 / bfloat16 goes through float32 first
 *   (TFLite's `fp16_ieee_from_fp32_value(static_cast<float>(x))`, `float_to_bfloat16_rtne`);
 * - complex64 to a real type takes the real part; a real value to complex64 is (value, 0);
 * - any value to bool is `x != 0` (NaN is true).
 * int64 values are handled as int32 word pairs (kernel-support's int64.ts), with no BigInt.
 */
import { BuiltinOperator, TensorType, numElements, type EvalTensor, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { unaryTensors } from './elementwise-common.js';
import {
  bfloat16FromFloat32Bits,
  expectSameElementCount,
  expectType,
  halfFromFloat32Bits,
  halfToFloatTable,
  halfToFloat32Bits,
  int64ToFloat32,
  int64ToNumber,
  opData,
  setInt64FromFloatX86,
  followActualShape,
  isDataDependent,
} from '@micrort/kernel-support';

const OP = 'CAST';

const TYPES = [
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.UINT16,
  TensorType.INT32,
  TensorType.UINT32,
  TensorType.INT64,
  TensorType.FLOAT16,
  TensorType.BFLOAT16,
  TensorType.FLOAT32,
  TensorType.FLOAT64,
  TensorType.BOOL,
  TensorType.COMPLEX64,
] as const;

/** How a source element is read (each a separate loop, so no read boxes a number). */
enum Source {
  /** int8, uint8, int16, uint16, int32, bool: exact small integers from the typed view. */
  Int,
  /** uint32: from the int32 words (a uint32 above 2^31 read from its own view would box). */
  Uint32,
  Float32,
  Float64,
  /** float16 bits. */
  Half,
  /** bfloat16 bits. */
  BFloat16,
  /** complex64: the real part. */
  Complex,
  /** int64: two words. */
  Int64,
}

/** How a destination element is written. */
enum Dest {
  /** int8, uint8, int16, uint16, int32: typed assignment (wraps); floats truncate as x86 first. */
  SmallInt,
  Uint32,
  Float32,
  Float64,
  Half,
  BFloat16,
  Bool,
  Complex,
  Int64,
}

interface CastOpData {
  source: Source;
  dest: Dest;
  count: number;
  /** The input is data-dependent: count and the output's dims follow its actual dims at every invoke. */
  bounded: boolean;
  /** Same type (or a bit-identical widening): a byte copy. */
  copy: boolean;
  /** Scratch buffer of the source as float32 values (for destinations reached through float32), or −1. */
  scratch: number;
  /** Half values by bits (empty unless the source is float16). */
  half: Float32Array;
  /** float32 bit patterns (int32) of the halves by their bits: float16 → float32 moves bits, never a double. */
  halfBits: Int32Array;
}

const TWO_POW_31 = 2147483648;
const TWO_POW_32 = 4294967296;
const TWO_POW_63 = 9223372036854775808;

/** static_cast<int32_t>(float) as x86 computes it: truncation, INT32_MIN when out of range or NaN. */
export function floatToInt32X86(x: number): number {
  return x > -TWO_POW_31 - 1 && x < TWO_POW_31 ? x | 0 : -TWO_POW_31;
}

/**
 * static_cast<uint32_t>(float) as x86-64 computes it: the low 32 bits of the truncated int64 (0 when out
 * of range or NaN), returned as their int32 bit pattern (`>>> 0` gives the uint32; a Uint32Array store
 * takes either), so the result is always a small integer V8 never boxes.
 */
export function floatToUint32X86(x: number): number {
  if (!(x > -TWO_POW_63 && x < TWO_POW_63)) return 0;
  return (Math.trunc(x) % TWO_POW_32) | 0;
}

function sourceOf(t: TensorType): Source {
  switch (t) {
    case TensorType.UINT32:
      return Source.Uint32;
    case TensorType.FLOAT32:
      return Source.Float32;
    case TensorType.FLOAT64:
      return Source.Float64;
    case TensorType.FLOAT16:
      return Source.Half;
    case TensorType.BFLOAT16:
      return Source.BFloat16;
    case TensorType.COMPLEX64:
      return Source.Complex;
    case TensorType.INT64:
      return Source.Int64;
    default:
      return Source.Int;
  }
}

function destOf(t: TensorType): Dest {
  switch (t) {
    case TensorType.UINT32:
      return Dest.Uint32;
    case TensorType.FLOAT32:
      return Dest.Float32;
    case TensorType.FLOAT64:
      return Dest.Float64;
    case TensorType.FLOAT16:
      return Dest.Half;
    case TensorType.BFLOAT16:
      return Dest.BFloat16;
    case TensorType.BOOL:
      return Dest.Bool;
    case TensorType.COMPLEX64:
      return Dest.Complex;
    case TensorType.INT64:
      return Dest.Int64;
    default:
      return Dest.SmallInt;
  }
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<CastOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  expectType(OP, node, 'input', input, TYPES);
  expectType(OP, node, 'output', output, TYPES);
  data.count = expectSameElementCount(OP, node, input, output);
  data.bounded = isDataDependent(input);
  data.source = sourceOf(input.type);
  data.dest = destOf(output.type);
  data.copy = input.type === output.type;
  // float16, bfloat16, complex64 and bool destinations, and int64 from the half-like and complex
  // sources, read the source as float32 values from a scratch buffer.
  const viaFloat32 =
    data.dest === Dest.Half ||
    data.dest === Dest.BFloat16 ||
    data.dest === Dest.Complex ||
    (data.dest === Dest.Bool &&
      (data.source === Source.Float32 ||
        data.source === Source.Half ||
        data.source === Source.BFloat16 ||
        data.source === Source.Complex)) ||
    (data.dest === Dest.Int64 && data.source !== Source.Int && data.source !== Source.Uint32 && data.source !== Source.Float64);
  data.scratch = !data.copy && viaFloat32 ? context.requestScratchBufferInArena(4 * data.count) : -1;
  if (input.type === TensorType.FLOAT16) {
    data.half = halfToFloatTable();
    data.halfBits = halfBitsTable();
  }
}

let HALF_BITS: Int32Array | null = null;
/** float32 bit patterns of every half, by its bits (halfToFloat32Bits: NaN payloads kept), built once. */
function halfBitsTable(): Int32Array {
  if (!HALF_BITS) {
    HALF_BITS = new Int32Array(65536);
    for (let h = 0; h < 65536; h++) HALF_BITS[h] = halfToFloat32Bits(h);
  }
  return HALF_BITS;
}

/** A one-element float32 ↔ int32 alias: bits written as an int, read back as the float (inline, no call). */
const ALIAS_F32 = new Float32Array(1);
const ALIAS_I32 = new Int32Array(ALIAS_F32.buffer);

/**
 * The loops, one function per destination class with one loop per source kind: each reads its source
 * through one view, and half and bfloat16 values come from a table or a bit alias rather than from a
 * function returning a double, so no value is boxed whatever mix of types the kernel has seen.
 */
function castToInteger(s: Source, x: EvalTensor, y: EvalTensor, n: number, unsigned: boolean, half: Float32Array): void {
  const out = y.data as Int32Array;
  switch (s) {
    case Source.Int64:
    case Source.Uint32: {
      const w = x.words;
      const step = s === Source.Int64 ? 2 : 1;
      for (let i = 0; i < n; i++) out[i] = w[step * i]!;
      return;
    }
    case Source.Int: {
      const xd = x.data as Int32Array;
      for (let i = 0; i < n; i++) out[i] = xd[i]!;
      return;
    }
    case Source.Half: {
      const xd = x.data as Uint16Array;
      if (unsigned) for (let i = 0; i < n; i++) out[i] = floatToUint32X86(half[xd[i]!]!);
      else for (let i = 0; i < n; i++) out[i] = floatToInt32X86(half[xd[i]!]!);
      return;
    }
    case Source.BFloat16: {
      const xd = x.data as Uint16Array;
      for (let i = 0; i < n; i++) {
        ALIAS_I32[0] = xd[i]! << 16;
        out[i] = unsigned ? floatToUint32X86(ALIAS_F32[0]!) : floatToInt32X86(ALIAS_F32[0]!);
      }
      return;
    }
    case Source.Float64:
      return float64ToInteger(x.data as Float64Array, out, n, unsigned);
    default: {
      // float32 and complex64 (its real parts): x86's truncation of the float32 values.
      const xd = x.data as Float32Array;
      const step = s === Source.Complex ? 2 : 1;
      if (unsigned) for (let i = 0; i < n; i++) out[i] = floatToUint32X86(xd[step * i]!);
      else for (let i = 0; i < n; i++) out[i] = floatToInt32X86(xd[step * i]!);
    }
  }
}

/**
 * float64 to int32 / uint32 bits, the x86 conversion written inline: a float64 value passed to a call
 * V8 did not inline is boxed, and this loop sees values outside the Smi range (every uint32 above
 * 2^31), so it keeps each value in a register from load to store.
 */
function float64ToInteger(xd: Float64Array, out: Int32Array, n: number, unsigned: boolean): void {
  if (unsigned)
    for (let i = 0; i < n; i++) {
      const v = xd[i]!;
      out[i] = v > -TWO_POW_63 && v < TWO_POW_63 ? (Math.trunc(v) % TWO_POW_32) | 0 : 0;
    }
  else
    for (let i = 0; i < n; i++) {
      const v = xd[i]!;
      out[i] = v > -TWO_POW_31 - 1 && v < TWO_POW_31 ? v | 0 : -TWO_POW_31;
    }
}

/**
 * Fills `out` (a Float32Array or Float64Array: the store rounds) with the source values; int64 rounded
 * once to float32 (`int64ToFloat32`) or to float64 (`int64ToNumber`).
 */
function castToFloat(s: Source, x: EvalTensor, out: Float32Array | Float64Array, n: number, float32: boolean, half: Float32Array): void {
  switch (s) {
    case Source.Int64:
      if (float32) for (let i = 0; i < n; i++) out[i] = int64ToFloat32(x.words, 2 * i);
      else for (let i = 0; i < n; i++) out[i] = int64ToNumber(x.words, 2 * i);
      return;
    case Source.Uint32: {
      const w = x.words;
      for (let i = 0; i < n; i++) out[i] = w[i]! >>> 0;
      return;
    }
    case Source.Int: {
      const xd = x.data as Int32Array;
      for (let i = 0; i < n; i++) out[i] = xd[i]!;
      return;
    }
    case Source.Half: {
      const xd = x.data as Uint16Array;
      for (let i = 0; i < n; i++) out[i] = half[xd[i]!]!;
      return;
    }
    case Source.BFloat16: {
      const xd = x.data as Uint16Array;
      for (let i = 0; i < n; i++) {
        ALIAS_I32[0] = xd[i]! << 16;
        out[i] = ALIAS_F32[0]!;
      }
      return;
    }
    default: {
      const xd = x.data as Float32Array;
      const step = s === Source.Complex ? 2 : 1;
      for (let i = 0; i < n; i++) out[i] = xd[step * i]!;
    }
  }
}

/** To float16 or bfloat16 bits from the float32 values in `tmp` (TFLite: static_cast<float> first). */
function castToHalfLike(tmp: Int32Array, y: EvalTensor, n: number, bfloat: boolean): void {
  const out = y.data as Uint16Array;
  if (bfloat) for (let i = 0; i < n; i++) out[i] = bfloat16FromFloat32Bits(tmp[i]!);
  else for (let i = 0; i < n; i++) out[i] = halfFromFloat32Bits(tmp[i]!);
}

function castToBool(s: Source, x: EvalTensor, y: EvalTensor, n: number, tmp: Float32Array): void {
  const out = y.data as Uint8Array;
  if (s === Source.Int64) for (let i = 0; i < n; i++) out[i] = (x.words[2 * i]! | x.words[2 * i + 1]!) !== 0 ? 1 : 0;
  else if (s === Source.Uint32) for (let i = 0; i < n; i++) out[i] = x.words[i] !== 0 ? 1 : 0;
  else if (s === Source.Int) {
    const xd = x.data as Int32Array;
    for (let i = 0; i < n; i++) out[i] = xd[i] !== 0 ? 1 : 0;
  } else if (s === Source.Float64) {
    const xd = x.data as Float64Array;
    for (let i = 0; i < n; i++) out[i] = xd[i] !== 0 ? 1 : 0;
  } else for (let i = 0; i < n; i++) out[i] = tmp[i] !== 0 ? 1 : 0;
}

function castToInt64(s: Source, x: EvalTensor, y: EvalTensor, n: number, tmp: Float32Array): void {
  const out = y.words;
  switch (s) {
    case Source.Int: {
      const xd = x.data as Int32Array;
      for (let i = 0; i < n; i++) {
        const v = xd[i]!;
        out[2 * i] = v;
        out[2 * i + 1] = v < 0 ? -1 : 0;
      }
      return;
    }
    case Source.Uint32:
      for (let i = 0; i < n; i++) {
        out[2 * i] = x.words[i]!;
        out[2 * i + 1] = 0;
      }
      return;
    case Source.Float64: {
      const xd = x.data as Float64Array;
      for (let i = 0; i < n; i++) setInt64FromFloatX86(out, 2 * i, xd[i]!);
      return;
    }
    default:
      for (let i = 0; i < n; i++) setInt64FromFloatX86(out, 2 * i, tmp[i]!);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<CastOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!);
  const y = context.getEvalTensor(node.outputs[0]!);
  if (d.bounded) {
    d.count = numElements(x.dims);
    followActualShape(context, node, 0, 0);
  }
  const n = d.count;
  const s = d.source;
  if (d.copy) {
    if (x.bytes.byteOffset !== y.bytes.byteOffset || x.bytes.buffer !== y.bytes.buffer) y.bytes.set(x.bytes);
    return;
  }
  const half = d.half;
  // Destinations reached through float32 values get them in the scratch buffer first.
  let tmp: Float32Array | null = null;
  if (d.scratch >= 0) {
    const region = context.getScratchBuffer(d.scratch);
    tmp = region.f32;
    castToFloat(s, x, tmp, n, true, half);
  }
  switch (d.dest) {
    case Dest.SmallInt:
      return castToInteger(s, x, y, n, false, half);
    case Dest.Uint32:
      return castToInteger(s, x, y, n, true, half);
    case Dest.Float32:
      if (s === Source.Half) {
        const xd = x.data as Uint16Array;
        const bits = d.halfBits;
        const out = y.words;
        for (let i = 0; i < n; i++) out[i] = bits[xd[i]!]!;
        return;
      }
      return castToFloat(s, x, y.data as Float32Array, n, true, half);
    case Dest.Float64:
      return castToFloat(s, x, y.data as Float64Array, n, false, half);
    case Dest.Half:
      return castToHalfLike(context.getScratchBuffer(d.scratch).i32, y, n, false);
    case Dest.BFloat16:
      return castToHalfLike(context.getScratchBuffer(d.scratch).i32, y, n, true);
    case Dest.Bool:
      return castToBool(s, x, y, n, tmp!);
    case Dest.Complex: {
      const out = y.data as Float32Array;
      const t = tmp!;
      for (let i = 0; i < n; i++) {
        out[2 * i] = t[i]!;
        out[2 * i + 1] = 0;
      }
      return;
    }
    case Dest.Int64:
      return castToInt64(s, x, y, n, tmp!);
  }
}

/** CAST reference kernel: every pair of TFLite's cast types (see the file comment). */
export const CAST: Registration<CastOpData> = {
  builtinCode: BuiltinOperator.CAST,
  version: 6,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: 'CAST',
  dynamicInputShapes: true,
  init: () => ({
    source: Source.Int,
    dest: Dest.SmallInt,
    count: 0,
    bounded: false,
    copy: false,
    scratch: -1,
    half: new Float32Array(0),
    halfBits: new Int32Array(0),
  }),
  prepare,
  invoke,
};
