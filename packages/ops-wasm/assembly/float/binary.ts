// float32 ADD, MUL, PRELU (x >= 0 ? x : x * alpha, TFLite's reference: the product rounded once to
// float32, -0 and NaN kept as x), SUB, DIV, MAXIMUM (x > y ? x : y, so a NaN in x gives y, as TFLM),
// MINIMUM (x < y ? x : y) and SQUARED_DIFFERENCE ((x - y) rounded to float32, then squared) with
// broadcasting, the fused activation clamped before the store (a NaN stays NaN). Each is one IEEE
// float32 operation per step, as TFLite's reference computes it, so the results equal ops-reference's
// bit for bit. The TypeScript
// side collapses the shapes at prepare into at most three outer dimensions (each input has a byte stride
// per dimension, 0 where it is broadcast) around one inner run that is contiguous in the output: both
// inputs contiguous along it, or one of them a single value repeated over it.
import { clamp, storeLanes } from './common';
import { B_ACT_MAX, B_ACT_MIN, B_INNER, B_MODE, B_N, B_OP, B_S1, B_S2 } from '../generated/abi';

// Parameter block B (scripts/abi.mjs), written by src/kernels/float/binary-common.ts.

// Operation codes (BinaryOp in src/kernels/float/binary-common.ts).
const ADD = 0, MUL = 1, PRELU = 2, SUB = 3, DIV = 4, MAXIMUM = 5, MINIMUM = 6, SQUARED_DIFFERENCE = 7;

@inline function apply(op: i32, x: v128, y: v128): v128 {
  if (op == ADD) return f32x4.add(x, y);
  if (op == MUL) return f32x4.mul(x, y);
  if (op == SUB) return f32x4.sub(x, y);
  if (op == DIV) return f32x4.div(x, y);
  if (op == MAXIMUM) return v128.bitselect(x, y, f32x4.gt(x, y));
  if (op == MINIMUM) return v128.bitselect(x, y, f32x4.lt(x, y));
  if (op == SQUARED_DIFFERENCE) {
    const d = f32x4.sub(x, y);
    return f32x4.mul(d, d);
  }
  // PRELU: lanes where x >= 0 (false for NaN, whose product is NaN too) keep x
  return v128.bitselect(x, f32x4.mul(x, y), f32x4.ge(x, f32x4.splat(0)));
}

/** One inner run of `n` elements (a and b advance by `da`, `db` bytes per element: 4, or 0 when repeated). */
@inline function run(op: i32, a: usize, b: usize, o: usize, n: i32, mode: i32, lo: v128, hi: v128): void {
  let i = 0;
  if (mode == 0) {
    for (; i + 8 <= n; i += 8) {
      const k = <usize>(i << 2);
      v128.store(o + k, clamp(apply(op, v128.load(a + k), v128.load(b + k)), lo, hi));
      v128.store(o + k, clamp(apply(op, v128.load(a + k, 16), v128.load(b + k, 16)), lo, hi), 16);
    }
    for (; i < n; i += 4) {
      const k = <usize>(i << 2);
      const v = clamp(apply(op, v128.load(a + k), v128.load(b + k)), lo, hi);
      if (n - i >= 4) v128.store(o + k, v);
      else storeLanes(o + k, v, n - i);
    }
  } else if (mode == 1) {
    const s = v128.load32_splat(a);
    for (; i < n; i += 4) {
      const k = <usize>(i << 2);
      const v = clamp(apply(op, s, v128.load(b + k)), lo, hi);
      if (n - i >= 4) v128.store(o + k, v);
      else storeLanes(o + k, v, n - i);
    }
  } else {
    const s = v128.load32_splat(b);
    for (; i < n; i += 4) {
      const k = <usize>(i << 2);
      const v = clamp(apply(op, v128.load(a + k), s), lo, hi);
      if (n - i >= 4) v128.store(o + k, v);
      else storeLanes(o + k, v, n - i);
    }
  }
}

export function f32_binary(pp: usize, in1: usize, in2: usize, output: usize): void {
  const op = load<i32>(pp, B_OP);
  const n0 = load<i32>(pp, B_N), n1 = load<i32>(pp, (B_N + 4)), n2 = load<i32>(pp, (B_N + 8));
  const a0 = <usize>load<u32>(pp, B_S1), a1 = <usize>load<u32>(pp, (B_S1 + 4)), a2 = <usize>load<u32>(pp, (B_S1 + 8));
  const b0 = <usize>load<u32>(pp, B_S2), b1 = <usize>load<u32>(pp, (B_S2 + 4)), b2 = <usize>load<u32>(pp, (B_S2 + 8));
  const inner = load<i32>(pp, B_INNER);
  const mode = load<i32>(pp, B_MODE);
  const lo = v128.load32_splat(pp, B_ACT_MIN);
  const hi = v128.load32_splat(pp, B_ACT_MAX);
  const runBytes = <usize>(inner << 2);
  let o = output;
  for (let i0 = 0; i0 < n0; i0++) {
    for (let i1 = 0; i1 < n1; i1++) {
      let a = in1 + <usize>i0 * a0 + <usize>i1 * a1;
      let b = in2 + <usize>i0 * b0 + <usize>i1 * b1;
      for (let i2 = 0; i2 < n2; i2++) {
        // a constant op per call, so each inlined run is specialised
        if (op == ADD) run(ADD, a, b, o, inner, mode, lo, hi);
        else if (op == MUL) run(MUL, a, b, o, inner, mode, lo, hi);
        else if (op == SUB) run(SUB, a, b, o, inner, mode, lo, hi);
        else if (op == DIV) run(DIV, a, b, o, inner, mode, lo, hi);
        else if (op == MAXIMUM) run(MAXIMUM, a, b, o, inner, mode, lo, hi);
        else if (op == MINIMUM) run(MINIMUM, a, b, o, inner, mode, lo, hi);
        else if (op == SQUARED_DIFFERENCE) run(SQUARED_DIFFERENCE, a, b, o, inner, mode, lo, hi);
        else run(PRELU, a, b, o, inner, mode, lo, hi);
        a += a2;
        b += b2;
        o += runBytes;
      }
    }
  }
}
