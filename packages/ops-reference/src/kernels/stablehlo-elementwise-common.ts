/**
 * LiteRT's StableHLO element-wise kernels (tflite/kernels/stablehlo_elementwise.h: STABLEHLO_ADD,
 * STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM, STABLEHLO_MINIMUM, STABLEHLO_AND), and the element types they
 * take: two inputs of the same type and the same shape (no broadcasting), one output of that shape.
 *
 * The C++ arithmetic, element by element:
 * - float32/float64: IEEE; `std::max(a, b)` is `a < b ? b : a` and `std::min(a, b)` is `b < a ? b : a`
 *   (so a NaN in `a` is kept, one in `b` is not);
 * - float16 (Eigen::half): computed in float32 and rounded to half (nearest, ties to even);
 * - integers wrap (two's complement), int64/uint64 included (done on 32-bit halves, no BigInt);
 * - bool: `a + b` and `max` are OR, `a * b`, `min` and `&` are AND.
 * STABLEHLO_AND takes integers and bool (bitwise) and refuses floats, as LiteRT does.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { expectSameType, opData, sameDims, setOutputShape, shapeText, TensorShapeError } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';

/** The computation of a StableHLO element-wise op. */
export const enum Computation {
  Add,
  Mul,
  Max,
  Min,
  And,
}

/** Element types of stablehlo_elementwise.h's ElementwiseEval (AND: all but the floats). */
export const STABLEHLO_ELEMENTWISE_TYPES: readonly TensorType[] = [
  TensorType.FLOAT16,
  TensorType.FLOAT32,
  TensorType.FLOAT64,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.UINT8,
  TensorType.UINT16,
  TensorType.UINT32,
  TensorType.UINT64,
  TensorType.BOOL,
];

// --- float16 -----------------------------------------------------------------------------------------

let halfTable: Float32Array | null = null;

/** The float32 value of every float16 bit pattern (built once, on first use). */
export function halfToFloatTable(): Float32Array {
  if (halfTable) return halfTable;
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    t[h] =
      e === 0 ? sign * m * 2 ** -24 : e === 31 ? (m ? Number.NaN : sign * Number.POSITIVE_INFINITY) : sign * (1 + m / 1024) * 2 ** (e - 15);
  }
  halfTable = t;
  return t;
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The float16 bits nearest to float32 `x` (ties to even; overflow to infinity; NaN to ±0x7e00), as Eigen::half(x). */
export function floatToHalf(x: number): number {
  F32[0] = x;
  const f = U32[0]!;
  const sign = (f >>> 16) & 0x8000;
  const e = (f >>> 23) & 0xff;
  const m = f & 0x7fffff;
  // Eigen's float_to_half_rtne: any NaN becomes the quiet NaN 0x7e00, keeping its sign.
  if (e === 0xff) return sign | (m ? 0x7e00 : 0x7c00);
  const he = e - 127 + 15;
  if (he >= 31) return sign | 0x7c00;
  if (he <= 0) {
    if (he < -10) return sign;
    // Subnormal half: shift the full mantissa (with its implicit 1) and round to nearest even.
    const full = m | 0x800000;
    const shift = 14 - he;
    let r = full >>> shift;
    const rem = full & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && r & 1)) r++;
    return sign | r;
  }
  let r = (he << 10) | (m >>> 13);
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && r & 1)) r++;
  return sign | r;
}

/**
 * Eigen::half `a + b` or `a * b` on float16 bits: in float32, then rounded to half. A NaN operand is
 * propagated with its sign (the first one, as x86's SSE arithmetic does), and an invalid operation
 * (∞ − ∞, 0 × ∞) gives x86's default NaN, which is negative.
 */
export function halfArith(c: Computation, a: number, b: number): number {
  if ((a & 0x7c00) === 0x7c00 && a & 0x3ff) return (a & 0x8000) | 0x7e00;
  if ((b & 0x7c00) === 0x7c00 && b & 0x3ff) return (b & 0x8000) | 0x7e00;
  const t = halfToFloatTable();
  const r = c === Computation.Add ? t[a]! + t[b]! : t[a]! * t[b]!;
  return r !== r ? 0xfe00 : floatToHalf(r);
}

// --- int64 on 32-bit halves ----------------------------------------------------------------------------

/** Low and high words of the last 64-bit product (module scratch: no allocation per element). */
export let mulLo = 0;
export let mulHi = 0;

/** The low 64 bits of (ahi:alo) × (bhi:blo), in `mulLo`/`mulHi` (two's complement: the same for signed and unsigned). */
export function mul64(alo: number, ahi: number, blo: number, bhi: number): void {
  const a0 = alo & 0xffff;
  const a1 = alo >>> 16;
  const b0 = blo & 0xffff;
  const b1 = blo >>> 16;
  const p00 = a0 * b0;
  const mid = a1 * b0 + ((p00 >>> 16) & 0xffff) + ((a0 * b1) & 0xffff);
  const lo = ((mid & 0xffff) << 16) | (p00 & 0xffff);
  const carry = Math.floor(mid / 65536) + Math.floor((a0 * b1) / 65536) + a1 * b1;
  mulLo = lo | 0;
  mulHi = (carry + Math.imul(alo, bhi) + Math.imul(ahi, blo)) | 0;
}

/**
 * One element of a StableHLO computation in place: `a[ai] = c(a[ai], b[bi])` for the element type
 * `type` (views: the typed data, the bytes and, for int64/uint64, 32-bit words), with the arithmetic of
 * the element-wise kernels above. STABLEHLO_SCATTER applies its update computation this way.
 */
export function combineAt(c: Computation, type: TensorType, a: ElementViews, ai: number, b: ElementViews, bi: number): void {
  switch (type) {
    case TensorType.FLOAT16: {
      const t = halfToFloatTable();
      const ad = a.data as Uint16Array;
      const bd = b.data as Uint16Array;
      const x = t[ad[ai]!]!;
      const y = t[bd[bi]!]!;
      if (c === Computation.Add || c === Computation.Mul) ad[ai] = halfArith(c, ad[ai]!, bd[bi]!);
      else if (c === Computation.Max ? x < y : y < x) ad[ai] = bd[bi]!;
      return;
    }
    case TensorType.BOOL: {
      const or = c === Computation.Add || c === Computation.Max;
      a.bytes[ai] = or ? ((a.bytes[ai]! | b.bytes[bi]!) !== 0 ? 1 : 0) : (a.bytes[ai]! & b.bytes[bi]!) !== 0 ? 1 : 0;
      return;
    }
    case TensorType.INT64:
    case TensorType.UINT64:
      op64(c, a.words!, 2 * ai, b.words!, 2 * bi, a.words!, 2 * ai, type === TensorType.INT64);
      return;
    default: {
      const ad = a.data as Numbers;
      const x = ad[ai]!;
      const y = (b.data as Numbers)[bi]!;
      if (c === Computation.Add) ad[ai] = x + y;
      else if (c === Computation.Mul) ad[ai] = type === TensorType.INT32 || type === TensorType.UINT32 ? Math.imul(x, y) : x * y;
      else if (c === Computation.Max) ad[ai] = x < y ? y : x;
      else if (c === Computation.Min) ad[ai] = y < x ? y : x;
      else ad[ai] = x & y;
    }
  }
}

/** The views {@link combineAt} reads and writes. */
export interface ElementViews {
  data: Numbers | Uint16Array;
  bytes: Uint8Array;
  words: Int32Array | null;
}

// --- the kernels -------------------------------------------------------------------------------------

export interface ElementwiseOpData {
  computation: Computation;
  type: TensorType;
  count: number;
  a: EvalTensor | null;
  b: EvalTensor | null;
  out: EvalTensor | null;
  /** int64/uint64: 32-bit word views of a, b and out (made on the first invoke, once the data are bound). */
  words: (Int32Array | null)[];
}

/** A 32-bit word view of `t`'s bytes, reusing `cached` when it still views them. */
export function wordsOf(t: EvalTensor, cached: Int32Array | null): Int32Array {
  const b = t.bytes;
  if (cached && cached.buffer === b.buffer && cached.byteOffset === b.byteOffset && cached.length * 4 === b.byteLength) return cached;
  return new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
}

/** Checks two same-typed, same-shaped inputs and computes the output shape (ElementwisePrepare). */
export function prepareSameShapeBinary(op: string, context: TfLiteContext, node: Node, types: readonly TensorType[]): TensorType {
  if (node.inputs.length !== 2 || node.outputs.length !== 1)
    throw new KernelError(op, node.index, `expects 2 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const a = context.getTensor(node.inputs[0]!);
  const b = context.getTensor(node.inputs[1]!);
  if (!types.includes(a.type))
    throw new KernelError(op, node.index, `${tensorTypeName(a.type)} is not supported (takes ${types.map(tensorTypeName).join(', ')})`);
  expectSameType(op, node, 'input 0 and input 1', a, b);
  if (!sameDims(a.dims, b.dims))
    throw new TensorShapeError(
      op,
      node.index,
      'input 1',
      b.index,
      Array.from(b.dims),
      `inputs differ in shape: ${shapeText(a.dims)} and ${shapeText(b.dims)}`,
    );
  const out = setOutputShape(op, context, node, 0, a.dims);
  expectSameType(op, node, 'input 0 and output', a, out);
  return a.type;
}

function prepare(op: string, computation: Computation) {
  return (context: TfLiteContext, node: Node): void => {
    const types = computation === Computation.And ? STABLEHLO_ELEMENTWISE_TYPES.filter((t) => !isFloat(t)) : STABLEHLO_ELEMENTWISE_TYPES;
    const d = opData<ElementwiseOpData>(op, node);
    d.type = prepareSameShapeBinary(op, context, node, types);
    d.computation = computation;
    d.a = context.getEvalTensor(node.inputs[0]!);
    d.b = context.getEvalTensor(node.inputs[1]!);
    d.out = context.getEvalTensor(node.outputs[0]!);
    d.count = d.out.dims.reduce((p, x) => p * x, 1);
  };
}

function isFloat(t: TensorType): boolean {
  return t === TensorType.FLOAT16 || t === TensorType.FLOAT32 || t === TensorType.FLOAT64;
}

export type Numbers = Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array;

/** float32, float64 and the integers up to 32 bits (typed-array stores wrap, as C++'s narrowing does). */
function numeric(c: Computation, a: Numbers, b: Numbers, out: Numbers, n: number, int32: boolean): void {
  switch (c) {
    case Computation.Add:
      for (let i = 0; i < n; i++) out[i] = a[i]! + b[i]!;
      break;
    case Computation.Mul:
      if (int32) for (let i = 0; i < n; i++) out[i] = Math.imul(a[i]!, b[i]!);
      else for (let i = 0; i < n; i++) out[i] = a[i]! * b[i]!;
      break;
    case Computation.Max:
      for (let i = 0; i < n; i++) {
        const x = a[i]!;
        const y = b[i]!;
        out[i] = x < y ? y : x;
      }
      break;
    case Computation.Min:
      for (let i = 0; i < n; i++) {
        const x = a[i]!;
        const y = b[i]!;
        out[i] = y < x ? y : x;
      }
      break;
    default:
      for (let i = 0; i < n; i++) out[i] = a[i]! & b[i]!;
  }
}

function half(c: Computation, a: Uint16Array, b: Uint16Array, out: Uint16Array, n: number): void {
  const t = halfToFloatTable();
  for (let i = 0; i < n; i++) {
    const x = t[a[i]!]!;
    const y = t[b[i]!]!;
    if (c === Computation.Add || c === Computation.Mul) out[i] = halfArith(c, a[i]!, b[i]!);
    else if (c === Computation.Max) out[i] = x < y ? b[i]! : a[i]!;
    else out[i] = y < x ? b[i]! : a[i]!;
  }
}

function bool(c: Computation, a: Uint8Array, b: Uint8Array, out: Uint8Array, n: number): void {
  const or = c === Computation.Add || c === Computation.Max;
  for (let i = 0; i < n; i++) out[i] = or ? ((a[i]! | b[i]!) !== 0 ? 1 : 0) : (a[i]! & b[i]!) !== 0 ? 1 : 0;
}

/** One int64 (signed) or uint64 element on little-endian 32-bit word pairs: out[ko..] = c(a[ka..], b[kb..]). */
function op64(c: Computation, a: Int32Array, ka: number, b: Int32Array, kb: number, out: Int32Array, ko: number, signed: boolean): void {
  const alo = a[ka]!;
  const ahi = a[ka + 1]!;
  const blo = b[kb]!;
  const bhi = b[kb + 1]!;
  if (c === Computation.Add) {
    const lo = (alo >>> 0) + (blo >>> 0);
    out[ko] = lo | 0;
    out[ko + 1] = (ahi + bhi + (lo > 0xffffffff ? 1 : 0)) | 0;
  } else if (c === Computation.Mul) {
    mul64(alo, ahi, blo, bhi);
    out[ko] = mulLo;
    out[ko + 1] = mulHi;
  } else if (c === Computation.And) {
    out[ko] = alo & blo;
    out[ko + 1] = ahi & bhi;
  } else {
    const ah = signed ? ahi : ahi >>> 0;
    const bh = signed ? bhi : bhi >>> 0;
    const aLess = ah < bh || (ah === bh && alo >>> 0 < blo >>> 0);
    const bLess = bh < ah || (ah === bh && blo >>> 0 < alo >>> 0);
    const takeB = c === Computation.Max ? aLess : bLess;
    out[ko] = takeB ? blo : alo;
    out[ko + 1] = takeB ? bhi : ahi;
  }
}

/** int64 (signed) or uint64, element by element. */
function wide(c: Computation, a: Int32Array, b: Int32Array, out: Int32Array, n: number, signed: boolean): void {
  for (let k = 0; k < 2 * n; k += 2) op64(c, a, k, b, k, out, k, signed);
}

function invoke(op: string) {
  return (_context: TfLiteContext, node: Node): void => {
    const d = opData<ElementwiseOpData>(op, node);
    const a = d.a!;
    const b = d.b!;
    const out = d.out!;
    const n = d.count;
    switch (d.type) {
      case TensorType.FLOAT16:
        half(d.computation, a.data as Uint16Array, b.data as Uint16Array, out.data as Uint16Array, n);
        break;
      case TensorType.BOOL:
        bool(d.computation, a.bytes, b.bytes, out.bytes, n);
        break;
      case TensorType.INT64:
      case TensorType.UINT64: {
        const w = d.words;
        const wa = (w[0] = wordsOf(a, w[0]!));
        const wb = (w[1] = wordsOf(b, w[1]!));
        const wo = (w[2] = wordsOf(out, w[2]!));
        wide(d.computation, wa, wb, wo, n, d.type === TensorType.INT64);
        break;
      }
      default:
        numeric(
          d.computation,
          a.data as Numbers,
          b.data as Numbers,
          out.data as Numbers,
          n,
          d.type === TensorType.INT32 || d.type === TensorType.UINT32,
        );
    }
  };
}

/** A LiteRT StableHLO element-wise kernel. */
export function stablehloElementwise(code: BuiltinOperator, op: string, computation: Computation): Registration<ElementwiseOpData> {
  return {
    builtinCode: code,
    provider: PROVIDER,
    name: op,
    init: () => ({ computation, type: TensorType.FLOAT32, count: 0, a: null, b: null, out: null, words: [null, null, null] }),
    prepare: prepare(op, computation),
    invoke: invoke(op),
  };
}
