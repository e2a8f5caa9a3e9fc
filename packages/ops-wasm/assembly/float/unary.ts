// float32 elementwise activations: the RELU family as a clamp, LOGISTIC, TANH, HARD_SWISH; ABS, NEG, SQRT, RSQRT, SQUARE, EXP, GELU, LOG, ELU. Four lanes per
// step; the last partial vector reads past the end (the arena has slack) and stores only its lanes.
// Output and input may be the same tensor (every element is read before it is written).
import { clamp, storeLanes } from './common';
import { U_COUNT, U_MAX, U_MIN, U_OP } from '../generated/abi';

// Parameter block U (scripts/abi.mjs), written by src/kernels/float/unary-common.ts.

@inline function put(o: usize, v: v128, left: i32): void {
  if (left >= 4) v128.store(o, v);
  else storeLanes(o, v, left);
}

/** min(max(x, lo), hi): RELU [0, inf), RELU6 [0, 6], RELU_N1_TO_1 [-1, 1], RELU_0_TO_1 [0, 1]. */
export function f32_clamp(pp: usize, input: usize, output: usize): void {
  const n = load<i32>(pp, U_COUNT);
  const lo = v128.load32_splat(pp, U_MIN);
  const hi = v128.load32_splat(pp, U_MAX);
  let i = 0;
  for (; i + 16 <= n; i += 16) {
    const k = <usize>(i << 2);
    const x0 = v128.load(input + k), x1 = v128.load(input + k, 16), x2 = v128.load(input + k, 32), x3 = v128.load(input + k, 48);
    v128.store(output + k, clamp(x0, lo, hi));
    v128.store(output + k, clamp(x1, lo, hi), 16);
    v128.store(output + k, clamp(x2, lo, hi), 32);
    v128.store(output + k, clamp(x3, lo, hi), 48);
  }
  for (; i < n; i += 4) {
    const k = <usize>(i << 2);
    put(output + k, clamp(v128.load(input + k), lo, hi), n - i);
  }
}

// exp(-z) for z >= 0: z = n ln2 - r with n = round(z log2 e) (ln2 split in two for an exact
// reduction), exp(-r) by its Taylor polynomial of degree 6 on |r| <= ln2 / 2 (relative error < 2e-7),
// times 2^-n built in the exponent bits. z is capped at 87 so that 2^-n stays a normal float.
const LOG2E: f32 = 1.4426950408889634;
const LN2_HI: f32 = 0.693145751953125;
const LN2_LO: f32 = 1.4286068203094172e-6;

/** exp(r) for |r| <= ln2 / 2 by its Taylor polynomial of degree 6 (relative error < 2e-7), Horner's order. */
@inline function expTaylor(r: v128): v128 {
  let p = f32x4.splat(<f32>(1.0 / 720.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(<f32>(1.0 / 120.0)));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(<f32>(1.0 / 24.0)));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(<f32>(1.0 / 6.0)));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(0.5));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
  return f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
}

@inline export function expNeg(z: v128): v128 {
  const zc = f32x4.min(z, f32x4.splat(87.0));
  const n = f32x4.nearest(f32x4.mul(zc, f32x4.splat(LOG2E)));
  // r = n ln2 - z, in [-ln2/2, ln2/2]; exp(-z) = 2^-n exp(r)
  const r = f32x4.sub(f32x4.add(f32x4.mul(n, f32x4.splat(LN2_HI)), f32x4.mul(n, f32x4.splat(LN2_LO))), zc);
  const p = expTaylor(r);
  const scale = i32x4.shl(i32x4.sub(i32x4.splat(127), i32x4.trunc_sat_f32x4_s(n)), 23);
  return f32x4.mul(p, scale);
}

/** 1 / (1 + exp(-x)) as (x >= 0 ? 1 : e) / (1 + e) with e = exp(-|x|): no cancellation either side. */
@inline function sigmoid(x: v128): v128 {
  const e = expNeg(f32x4.abs(x));
  const one = f32x4.splat(1.0);
  return f32x4.div(v128.bitselect(one, e, f32x4.ge(x, f32x4.splat(0))), f32x4.add(one, e));
}

export function f32_sigmoid(pp: usize, input: usize, output: usize): void {
  const n = load<i32>(pp, U_COUNT);
  for (let i = 0; i < n; i += 4) {
    const k = <usize>(i << 2);
    put(output + k, sigmoid(v128.load(input + k)), n - i);
  }
}

// tanh(x) = sign(x) * t(|x|): for |x| >= 1/4, t(a) = (1 - e) / (1 + e) with e = exp(-2a) <= exp(-1/2), where
// 1 - e >= 0.39 loses nothing to cancellation (relative error below 1e-6); below 1/4 the odd Taylor
// polynomial to x^9, whose first omitted term 1382/155925 a^11 < 2.1e-9 is below a float32 ulp of a.
// NaN stays NaN (the exp branch); |x| -> infinity gives +-1.
const TANH_C3: f32 = -1.0 / 3.0;
const TANH_C5: f32 = 2.0 / 15.0;
const TANH_C7: f32 = -17.0 / 315.0;
const TANH_C9: f32 = 62.0 / 2835.0;

@inline function tanh4(x: v128): v128 {
  const a = f32x4.abs(x);
  const one = f32x4.splat(1.0);
  const e = expNeg(f32x4.add(a, a));
  const big = f32x4.div(f32x4.sub(one, e), f32x4.add(one, e));
  const a2 = f32x4.mul(a, a);
  let p = f32x4.add(f32x4.mul(f32x4.splat(TANH_C9), a2), f32x4.splat(TANH_C7));
  p = f32x4.add(f32x4.mul(p, a2), f32x4.splat(TANH_C5));
  p = f32x4.add(f32x4.mul(p, a2), f32x4.splat(TANH_C3));
  const small = f32x4.add(a, f32x4.mul(f32x4.mul(a, a2), p));
  const t = v128.bitselect(small, big, f32x4.lt(a, f32x4.splat(0.25)));
  // the sign of x onto t (t >= 0 or NaN)
  return v128.or(t, v128.and(x, i32x4.splat(-2147483648)));
}

export function f32_tanh(pp: usize, input: usize, output: usize): void {
  const n = load<i32>(pp, U_COUNT);
  for (let i = 0; i < n; i += 4) {
    const k = <usize>(i << 2);
    put(output + k, tanh4(v128.load(input + k)), n - i);
  }
}

/** x * min(6, max(0, x + 3)) / 6, each step in float32 as TFLite's reference. */
export function f32_hardswish(pp: usize, input: usize, output: usize): void {
  const n = load<i32>(pp, U_COUNT);
  const three = f32x4.splat(3.0);
  const six = f32x4.splat(6.0);
  const zero = f32x4.splat(0);
  for (let i = 0; i < n; i += 4) {
    const k = <usize>(i << 2);
    const x = v128.load(input + k);
    const t = f32x4.pmin(six, f32x4.pmax(zero, f32x4.add(x, three)));
    put(output + k, f32x4.div(f32x4.mul(x, t), six), n - i);
  }
}

// ABS, NEG, SQRT, RSQRT (1 / sqrt(x), two float32 roundings as TFLite's 1.0f / std::sqrt) and SQUARE:
// each one IEEE float32 operation per step (a float32 computed in double and rounded once is the float32
// operation's result for these), so the outputs equal ops-reference's bit for bit, NaN payloads aside.
// EXP and GELU (both forms) are approximations within the float tolerance (see exp4 and gelu4).
const ABS = 0, NEG = 1, SQRT = 2, RSQRT = 3, SQUARE = 4, EXP = 5, GELU = 6, GELU_TANH = 7, LOG = 8, ELU = 9;

/**
 * exp(x): n = round(x log2 e), r = x - n ln2 (ln2 in two parts: the reduction is exact), exp(r) by its Taylor
 * polynomial of degree 6 on |r| <= ln2 / 2 (relative error < 2e-7), times 2^n as 2^(n >> 1) · 2^(n - (n >> 1)),
 * two normal powers for every n in [-150, 128], so exp overflows to +inf past 88.72 and goes through the
 * subnormals to 0 below -87.3 (x is clamped to [-104, 89] first; NaN stays NaN).
 */
@inline function exp4(x: v128): v128 {
  const xc = f32x4.pmin(f32x4.pmax(x, f32x4.splat(-104.0)), f32x4.splat(89.0));
  const n = f32x4.nearest(f32x4.mul(xc, f32x4.splat(LOG2E)));
  const r = f32x4.sub(f32x4.sub(xc, f32x4.mul(n, f32x4.splat(LN2_HI))), f32x4.mul(n, f32x4.splat(LN2_LO)));
  const p = expTaylor(r);
  const ni = i32x4.trunc_sat_f32x4_s(n);
  const n1 = i32x4.shr_s(ni, 1);
  const bias = i32x4.splat(127);
  const s1 = i32x4.shl(i32x4.add(n1, bias), 23);
  const s2 = i32x4.shl(i32x4.add(i32x4.sub(ni, n1), bias), 23);
  return f32x4.mul(f32x4.mul(p, s1), s2);
}

// erfc(z) for z >= 0 by Abramowitz and Stegun 7.1.26: t = 1 / (1 + P z), erfc(z) = t (A1 + t (A2 + ...)) e^(-z^2),
// absolute error below 1.5e-7.
const ERFC_P: f32 = 0.3275911;
const ERFC_A1: f32 = 0.254829592;
const ERFC_A2: f32 = -0.284496736;
const ERFC_A3: f32 = 1.421413741;
const ERFC_A4: f32 = -1.453152027;
const ERFC_A5: f32 = 1.061405429;
const SQRT1_2: f32 = 0.70710678118654752;

/**
 * GELU, exact form: x Φ(x) with Φ(x) = 1 - erfc(|x| / √2) / 2 for x >= 0, erfc(|x| / √2) / 2 below (no
 * cancellation for negative x); within 0.5 |x| 1.5e-7 of TFLite's double-precision form.
 */
@inline function gelu4(x: v128): v128 {
  const z = f32x4.mul(f32x4.abs(x), f32x4.splat(SQRT1_2));
  const one = f32x4.splat(1.0);
  const t = f32x4.div(one, f32x4.add(one, f32x4.mul(z, f32x4.splat(ERFC_P))));
  let q = f32x4.add(f32x4.mul(t, f32x4.splat(ERFC_A5)), f32x4.splat(ERFC_A4));
  q = f32x4.add(f32x4.mul(q, t), f32x4.splat(ERFC_A3));
  q = f32x4.add(f32x4.mul(q, t), f32x4.splat(ERFC_A2));
  q = f32x4.add(f32x4.mul(q, t), f32x4.splat(ERFC_A1));
  const half = f32x4.mul(f32x4.mul(f32x4.mul(q, t), expNeg(f32x4.mul(z, z))), f32x4.splat(0.5)); // erfc(z) / 2
  const phi = v128.bitselect(f32x4.sub(one, half), half, f32x4.ge(x, f32x4.splat(0)));
  return f32x4.mul(x, phi);
}

/** GELU, tanh form, in float32 as TFLite's GeluTransformApproximate: (0.5 x)(1 + tanh(√(2/π)(x + ((0.044715 x) x) x))). */
@inline function geluTanh4(x: v128): v128 {
  const cubic = f32x4.mul(f32x4.mul(f32x4.mul(f32x4.splat(GELU_K_CUBIC), x), x), x);
  const t = tanh4(f32x4.mul(f32x4.splat(GELU_K_SQRT_2_OVER_PI), f32x4.add(x, cubic)));
  return f32x4.mul(f32x4.mul(f32x4.splat(0.5), x), f32x4.add(f32x4.splat(1.0), t));
}
// TFLite's float32 constants (kernel-support's GELU_K_SQRT_2_OVER_PI, GELU_K_CUBIC)
const GELU_K_SQRT_2_OVER_PI: f32 = 0.7978845608028654;
const GELU_K_CUBIC: f32 = 0.044715;

/**
 * log(x) in float32 (musl's logf reduction): x = 2^k · m with m in [√½, √2) (subnormals scaled by 2^23
 * first), f = m − 1, s = f / (2 + f), log m = 2 (s + s³/3 + s⁵/5 + s⁷/7 + s⁹/9) (|s| ≤ 0.1716: the next term
 * is below 4e-10 of the sum), plus k · ln 2 in two parts. As logf: log ±0 = −inf, log of a negative number
 * or NaN is NaN, log +inf = +inf.
 */
@inline function log4(x: v128): v128 {
  const tiny = f32x4.lt(f32x4.abs(x), f32x4.splat(1.17549435e-38)); // subnormal or zero
  const xs = v128.bitselect(f32x4.mul(x, f32x4.splat(8388608.0)), x, tiny);
  const ix = i32x4.add(xs, i32x4.splat(0x3f800000 - 0x3f3504f3));
  const k = i32x4.sub(i32x4.sub(i32x4.shr_s(ix, 23), i32x4.splat(0x7f)), v128.and(tiny, i32x4.splat(23)));
  const m = i32x4.add(v128.and(ix, i32x4.splat(0x007fffff)), i32x4.splat(0x3f3504f3));
  const f = f32x4.sub(m, f32x4.splat(1.0));
  const s = f32x4.div(f, f32x4.add(f32x4.splat(2.0), f));
  const z = f32x4.mul(s, s);
  let p = f32x4.add(f32x4.mul(z, f32x4.splat(<f32>(1.0 / 9.0))), f32x4.splat(<f32>(1.0 / 7.0)));
  p = f32x4.add(f32x4.mul(p, z), f32x4.splat(<f32>(1.0 / 5.0)));
  p = f32x4.add(f32x4.mul(p, z), f32x4.splat(<f32>(1.0 / 3.0)));
  const logM = f32x4.mul(f32x4.splat(2.0), f32x4.add(s, f32x4.mul(f32x4.mul(s, z), p)));
  const kf = f32x4.convert_i32x4_s(k);
  let r = f32x4.add(f32x4.add(f32x4.mul(kf, f32x4.splat(LN2_LO)), logM), f32x4.mul(kf, f32x4.splat(LN2_HI)));
  const inf = f32x4.splat(Infinity);
  r = v128.bitselect(inf, r, f32x4.eq(x, inf));
  r = v128.bitselect(f32x4.neg(inf), r, f32x4.eq(x, f32x4.splat(0)));
  // negative numbers and NaN: NaN
  return v128.bitselect(f32x4.splat(NaN), r, v128.or(f32x4.lt(x, f32x4.splat(0)), f32x4.ne(x, x)));
}

/**
 * exp(x) − 1 without cancellation near 0: for |x| < 0.34, x · (1 + x/2 + x²/6 + … + x⁶/5040), the Taylor
 * series of (eˣ − 1)/x (the next term is below 2e-8 of the sum); beyond, exp4(x) − 1 (|eˣ − 1| ≥ 0.28 there,
 * so the subtraction loses at most two bits).
 */
@inline function expm1_4(x: v128): v128 {
  let p = f32x4.add(f32x4.mul(x, f32x4.splat(<f32>(1.0 / 5040.0))), f32x4.splat(<f32>(1.0 / 720.0)));
  p = f32x4.add(f32x4.mul(p, x), f32x4.splat(<f32>(1.0 / 120.0)));
  p = f32x4.add(f32x4.mul(p, x), f32x4.splat(<f32>(1.0 / 24.0)));
  p = f32x4.add(f32x4.mul(p, x), f32x4.splat(<f32>(1.0 / 6.0)));
  p = f32x4.add(f32x4.mul(p, x), f32x4.splat(0.5));
  const small = f32x4.mul(x, f32x4.add(f32x4.mul(p, x), f32x4.splat(1.0)));
  return v128.bitselect(small, f32x4.sub(exp4(x), f32x4.splat(1.0)), f32x4.lt(f32x4.abs(x), f32x4.splat(0.34)));
}

/** ELU: expm1(x) below zero (within the float tolerance; relative error about 1e-7), x elsewhere (−0 and NaN kept). */
@inline function elu4(x: v128): v128 {
  return v128.bitselect(expm1_4(x), x, f32x4.lt(x, f32x4.splat(0)));
}

@inline function math(op: i32, x: v128): v128 {
  if (op == ABS) return f32x4.abs(x);
  if (op == NEG) return f32x4.neg(x);
  if (op == SQRT) return f32x4.sqrt(x);
  if (op == RSQRT) return f32x4.div(f32x4.splat(1.0), f32x4.sqrt(x));
  if (op == EXP) return exp4(x);
  if (op == GELU) return gelu4(x);
  if (op == GELU_TANH) return geluTanh4(x);
  if (op == LOG) return log4(x);
  if (op == ELU) return elu4(x);
  return f32x4.mul(x, x);
}

@inline function mathRun(op: i32, n: i32, input: usize, output: usize): void {
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const k = <usize>(i << 2);
    const x0 = v128.load(input + k), x1 = v128.load(input + k, 16);
    v128.store(output + k, math(op, x0));
    v128.store(output + k, math(op, x1), 16);
  }
  for (; i < n; i += 4) {
    const k = <usize>(i << 2);
    put(output + k, math(op, v128.load(input + k)), n - i);
  }
}

/** The elementwise math op U_OP (ABS 0, NEG 1, SQRT 2, RSQRT 3, SQUARE 4, EXP 5, GELU 6, GELU's tanh form 7, LOG 8, ELU 9) over U_COUNT floats. */
export function f32_math(pp: usize, input: usize, output: usize): void {
  const n = load<i32>(pp, U_COUNT);
  const op = load<i32>(pp, U_OP);
  if (op == ABS) mathRun(ABS, n, input, output);
  else if (op == NEG) mathRun(NEG, n, input, output);
  else if (op == SQRT) mathRun(SQRT, n, input, output);
  else if (op == RSQRT) mathRun(RSQRT, n, input, output);
  else if (op == EXP) mathRun(EXP, n, input, output);
  else if (op == GELU) mathRun(GELU, n, input, output);
  else if (op == GELU_TANH) mathRun(GELU_TANH, n, input, output);
  else if (op == LOG) mathRun(LOG, n, input, output);
  else if (op == ELU) mathRun(ELU, n, input, output);
  else mathRun(SQUARE, n, input, output);
}
