// JavaScript's Math.exp and Math.tanh in WebAssembly, so that a kernel here computes the float32 sigmoid
// and tanh of ops-reference's recurrent cells (`1 / (1 + Math.exp(-x))` and `Math.tanh(x)` in double,
// rounded to float32) to the bit: fdlibm's exp (e_exp.c), expm1 (s_expm1.c) and tanh (s_tanh.c), the
// algorithms V8 runs for Math.exp and Math.tanh (src/base/ieee754.cc), each operation in double as there
// (WebAssembly's f64 arithmetic is IEEE's, with no contraction into fused multiply-adds). Scalar and
// table-free: the module has no data segment. The hybrid LSTM needs the bits, not only the tolerance:
// its output state is quantized again every step, so a last-bit difference in a gate can move a
// quantized value by a whole step.

const LN2_HI: f64 = 6.93147180369123816490e-1;
const LN2_LO: f64 = 1.90821492927058770002e-10;
const INV_LN2: f64 = 1.44269504088896338700e0;
const TWO_M1000: f64 = 9.33263618503218878990e-302; // 2^-1000

/** The high 32 bits of x. */
@inline function high(x: f64): u32 {
  return <u32>(reinterpret<u64>(x) >> 32);
}

/** 2^k for a normal exponent k (-1022 <= k <= 1023). */
@inline function pow2(k: i32): f64 {
  return reinterpret<f64>(<u64>(0x3ff + k) << 52);
}

/** y * 2^k by adding k to y's exponent (y in [0.5, 2), the result normal). */
@inline function scaleExponent(y: f64, k: i32): f64 {
  return reinterpret<f64>(reinterpret<u64>(y) + (<u64>k << 52));
}

/** fdlibm's exp: e^x, under 1 ulp (V8 returns Math.E for e^1, one ulp below fdlibm's). */
export function exp64(x: f64): f64 {
  if (x == 1.0) return 2.718281828459045;
  let hx = high(x);
  const neg = (hx >> 31) != 0;
  hx &= 0x7fffffff;
  if (hx >= 0x40862e42) {
    // |x| >= 709.78: NaN, infinities, overflow, underflow
    if (hx >= 0x7ff00000) return x != x ? x + x : neg ? 0 : x;
    if (x > 7.09782712893383973096e2) return Infinity;
    if (x < -7.45133219101941108420e2) return 0;
  }
  let hi: f64 = 0;
  let lo: f64 = 0;
  let k = 0;
  if (hx > 0x3fd62e42) {
    // |x| > ln2 / 2: x = k ln2 + r
    if (hx < 0x3ff0a2b2) {
      hi = neg ? x + LN2_HI : x - LN2_HI;
      lo = neg ? -LN2_LO : LN2_LO;
      k = neg ? -1 : 1;
    } else {
      k = <i32>(INV_LN2 * x + (neg ? -0.5 : 0.5));
      const t = <f64>k;
      hi = x - t * LN2_HI;
      lo = t * LN2_LO;
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {
    // |x| < 2^-28
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (1.66666666666666019037e-1 + t * (-2.77777777770155933842e-3 + t * (6.61375632143793436117e-5 + t * (-1.65339022054652515390e-6 + t * 4.13813679705723846039e-8))));
  if (k == 0) return 1 - ((x * c) / (c - 2.0) - x);
  const y = 1 - (lo - (x * c) / (2.0 - c) - hi);
  if (k >= -1021) return scaleExponent(y, k);
  return scaleExponent(y, k + 1000) * TWO_M1000;
}

/** fdlibm's expm1: e^x - 1, under 1 ulp. */
export function expm1_64(x: f64): f64 {
  let hx = high(x);
  const neg = (hx >> 31) != 0;
  hx &= 0x7fffffff;
  if (hx >= 0x4043687a) {
    // |x| >= 56 ln2
    if (hx >= 0x40862e42) {
      if (hx >= 0x7ff00000) return x != x ? x + x : neg ? -1 : x;
      if (x > 7.09782712893383973096e2) return Infinity;
    }
    if (neg) return -1;
  }
  let k = 0;
  let c: f64 = 0;
  if (hx > 0x3fd62e42) {
    // |x| > ln2 / 2
    let hi: f64;
    let lo: f64;
    if (hx < 0x3ff0a2b2) {
      hi = neg ? x + LN2_HI : x - LN2_HI;
      lo = neg ? -LN2_LO : LN2_LO;
      k = neg ? -1 : 1;
    } else {
      k = <i32>(INV_LN2 * x + (neg ? -0.5 : 0.5));
      const t = <f64>k;
      hi = x - t * LN2_HI;
      lo = t * LN2_LO;
    }
    x = hi - lo;
    c = hi - x - lo;
  } else if (hx < 0x3c900000) {
    // |x| < 2^-54
    return x;
  }
  const hfx = 0.5 * x;
  const hxs = x * hfx;
  const r1 = 1 + hxs * (-3.33333333333331316428e-2 + hxs * (1.58730158725481460165e-3 + hxs * (-7.93650757867487942473e-5 + hxs * (4.00821782732936239552e-6 + hxs * -2.01099218183624371326e-7))));
  let t = 3.0 - r1 * hfx;
  let e = hxs * ((r1 - t) / (6.0 - x * t));
  if (k == 0) return x - (x * e - hxs);
  e = x * (e - c) - c;
  e -= hxs;
  if (k == -1) return 0.5 * (x - e) - 0.5;
  if (k == 1) return x < -0.25 ? -2.0 * (e - (x + 0.5)) : 1 + 2.0 * (x - e);
  if (k <= -2 || k > 56) {
    let y = 1 - (e - x);
    y = k == 1024 ? y * 2.0 * 8.98846567431158e307 : y * pow2(k);
    return y - 1;
  }
  if (k < 20) {
    t = reinterpret<f64>(<u64>(0x3ff00000 - (0x200000 >> k)) << 32); // 1 - 2^-k
    return (t - (e - x)) * pow2(k);
  }
  t = reinterpret<f64>(<u64>((0x3ff - k) << 20) << 32); // 2^-k
  return (x - (e + t) + 1) * pow2(k);
}

/** fdlibm's tanh, under 1 ulp. */
export function tanh64(x: f64): f64 {
  const jx = high(x);
  const ix = jx & 0x7fffffff;
  const neg = (jx >> 31) != 0;
  if (ix >= 0x7ff00000) return x != x ? x : neg ? -1 : 1;
  let z: f64;
  if (ix < 0x40360000) {
    // |x| < 22
    if (ix < 0x3e300000) return x; // |x| < 2^-28
    if (ix >= 0x3ff00000) {
      // |x| >= 1
      const t = expm1_64(2.0 * abs<f64>(x));
      z = 1 - 2.0 / (t + 2.0);
    } else {
      const t = expm1_64(-2.0 * abs<f64>(x));
      z = -t / (t + 2.0);
    }
  } else z = 1;
  return neg ? -z : z;
}

/** `n` float32 values at `p`, in place: f32(1 / (1 + Math.exp(-v))). */
export function sigmoidExact(p: usize, n: i32): void {
  for (let i = 0; i < n; i++) {
    const at = p + (<usize>i << 2);
    store<f32>(at, <f32>(1.0 / (1.0 + exp64(-<f64>load<f32>(at)))));
  }
}

/** `n` float32 values from `src` to `dst` (may alias): f32(Math.tanh(v)). */
export function tanhExact(src: usize, dst: usize, n: i32): void {
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(dst + o, <f32>tanh64(<f64>load<f32>(src + o)));
  }
}
