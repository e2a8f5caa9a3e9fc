/**
 * TFLM's int8 ADD is a function of two bytes: out = F(A(x1) + B(x2)), three gemmlowp roundings (SUB the
 * same with B(x2) = −(x2's rounded contribution), decreasing in x2). At
 * prepare, {@link fitAffineAdd} looks for one affine rounding that gives the same byte for every one of
 * the 65,536 input pairs,
 *
 *   out = clamp(round_half_away(c1·(x1 − zp1) + c2·(x2 − zp2) + k, 2^s) + zp_out, act_min, act_max),
 *
 * which assembly/int8/add.ts runs with two i32x4.mul per four lanes. It computes TFLM's outputs for all
 * pairs, then for coefficients near the real multipliers (c = round(α·2^s), then neighbours) intersects
 * the interval of k that each pair allows; a non-empty intersection is a fit, checked pair by pair by
 * construction. No fit: the kernel runs the three roundings (Kind 1).
 */

/** The verified affine rounding (Kind 0 of the A block). */
export interface AffineAdd {
  c1: number;
  c2: number;
  /** k − c1·zp1 − c2·zp2 + zp_out·2^s + 2^(s−1): the kernel adds it to x1·c1 + x2·c2. */
  K: number;
  s: number;
  /** zp_out·2^s + 2^(s−1): sums below it are negative before the zero point and rounding offset. */
  T: number;
}

/**
 * One input's side: its zero point and TFLM's exact contribution A(x) for each byte x (index x + 128),
 * monotonic in x (nondecreasing for ADD's inputs and SUB's first, nonincreasing for SUB's second).
 */
export interface AddSide {
  zeroPoint: number;
  contribution: Int32Array;
}

/**
 * Finds an affine rounding equal to `out(A1[x1] + A2[x2])` (already clamped to [lo, hi], `outputOf`) for
 * every pair, with real coefficients near `alpha1` (> 0), `alpha2` (non-zero; negative for SUB's second
 * input) (output steps per input step). Returns null when none of the candidates fits or the sums could
 * overflow int32.
 */
export function fitAffineAdd(
  a: AddSide,
  b: AddSide,
  zpOut: number,
  lo: number,
  hi: number,
  alpha1: number,
  alpha2: number,
  outputOf: (sum: number) => number,
): AffineAdd | null {
  if (!(alpha1 > 0 && alpha2 !== 0 && Number.isFinite(alpha1) && Number.isFinite(alpha2))) return null;
  // an empty clamp range (an output zero point outside int8 under RELU): ops-wasm declines such nodes
  if (!(lo <= hi && lo >= -128 && hi <= 127)) return null;
  // TFLM's output for every pair, row by row (x1 major). outputOf is monotonic in the sum, and each
  // input's contribution is monotonic in its byte, so each row, walked in the order of increasing sums
  // (x2 up, or down when its contribution decreases), passes the thresholds once: tau[v - lo] is the
  // smallest sum whose output is at least v.
  const ca = a.contribution;
  const cb = b.contribution;
  const tau = new Float64Array(hi - lo + 1);
  let aMin = Infinity,
    aMax = -Infinity,
    bMin = Infinity,
    bMax = -Infinity;
  for (let x = 0; x < 256; x++) {
    aMin = Math.min(aMin, ca[x]!);
    aMax = Math.max(aMax, ca[x]!);
    bMin = Math.min(bMin, cb[x]!);
    bMax = Math.max(bMax, cb[x]!);
  }
  const sMin = aMin + bMin;
  const sMax = aMax + bMax;
  const up = cb[255]! >= cb[0]!;
  for (let v = lo + 1; v <= hi; v++) {
    let l = sMin;
    let h = sMax + 1; // outputOf(h) >= v is assumed past the range
    while (l < h) {
      const m = Math.floor((l + h) / 2);
      if (outputOf(m) >= v) h = m;
      else l = m + 1;
    }
    tau[v - lo] = l;
  }
  const t = new Int16Array(65536);
  for (let i = 0; i < 256; i++) {
    let v = lo;
    for (let n = 0; n < 256; n++) {
      const j = up ? n : 255 - n;
      const sum = ca[i]! + cb[j]!;
      while (v < hi && sum >= tau[v + 1 - lo]!) v++;
      t[(i << 8) | j] = v;
    }
  }
  // the largest s for which |x1·c1 + x2·c2 + K| stays below 2^31 (|x − zp| <= 255, the output zero
  // point times 2^s beside), then one less
  const s0 = Math.min(30, Math.floor(Math.log2(2 ** 31 / (255 * (alpha1 + Math.abs(alpha2)) + 130))));
  const d1 = new Int32Array(256);
  const d2 = new Int32Array(256);
  for (let x = 0; x < 256; x++) {
    d1[x] = x - 128 - a.zeroPoint;
    d2[x] = x - 128 - b.zeroPoint;
  }
  // candidates in order of distance from the rounded coefficients
  const offsets: [number, number][] = [];
  for (let r = 0; r <= 2; r++)
    for (let u = -r; u <= r; u++) for (let v = -r; v <= r; v++) if (Math.max(Math.abs(u), Math.abs(v)) === r) offsets.push([u, v]);
  for (let s = s0; s >= Math.max(1, s0 - 1); s--) {
    const half = 2 ** (s - 1);
    for (const [u, v] of offsets) {
      const c1 = Math.round(alpha1 * 2 ** s) + u;
      const c2 = Math.round(alpha2 * 2 ** s) + v;
      let kLo = -Infinity;
      let kHi = Infinity;
      for (let i = 0; i < 256 && kLo <= kHi; i++) {
        const n1 = c1 * d1[i]!;
        for (let j = 0; j < 256; j++) {
          const sum = n1 + c2 * d2[j]!;
          const out = t[(i << 8) | j]!;
          const q = out - zpOut;
          // round_half_away(N, 2^s) >= q iff N >= q·2^s − 2^(s−1) + [q <= 0]; <= q iff N <= q·2^s + 2^(s−1) − [q >= 0]
          if (out > lo) kLo = Math.max(kLo, q * 2 ** s - half + (q <= 0 ? 1 : 0) - sum);
          if (out < hi) kHi = Math.min(kHi, q * 2 ** s + half - (q >= 0 ? 1 : 0) - sum);
        }
      }
      if (kLo > kHi) continue;
      const k = Math.max(kLo, Math.min(kHi, 0));
      const T = zpOut * 2 ** s + half;
      const K = k - c1 * a.zeroPoint - c2 * b.zeroPoint + T;
      // the kernel's sums x1·c1 + x2·c2 + K, at the corners of the input square, stay within int32
      let fits = Math.abs(T) < 2 ** 31;
      for (const x1 of [-128, 127]) for (const x2 of [-128, 127]) fits &&= Math.abs(x1 * c1 + x2 * c2 + K) < 2 ** 31;
      if (fits) return { c1, c2, K, s, T };
    }
  }
  return null;
}
