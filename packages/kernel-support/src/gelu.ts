/**
 * GELU's arithmetic (TFLite activations.cc GeluPrepare / GeluEval, reference/gelu.h), shared by every kernel
 * package: x·Φ(x) exact (0.5·x·(1 + erf(x/√2)), TFLite 2.9's form: erf in double, the result rounded once to
 * float) or, with `approximate`, the tanh form 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) in float as TFLite
 * writes it; and the 256-entry table of the uint8 / int8 GELU (TFLite's PopulateLookupTable).
 */
import { lutPopulateBytes } from './lut.js';

const TWO_OVER_SQRT_PI = 1.1283791670955126;
const SQRT1_2 = 0.7071067811865476;
const SQRT_PI = 1.772453850905516;

/**
 * erf(x) in double precision (within a few ulps): the series 2/√π·e^{-x²}·Σ (2x²)^n·x/(2n+1)!! (all
 * terms positive) for |x| ≤ 2.5, 1 − erfc(|x|) from erfc's continued fraction beyond.
 */
export function erf(x: number): number {
  const a = Math.abs(x);
  if (a <= 2.5) {
    const x2 = 2 * x * x;
    let t = x;
    let s = x;
    for (let n = 1; n < 100; n++) {
      t *= x2 / (2 * n + 1);
      s += t;
      if (Math.abs(t) < Math.abs(s) * 1e-17) break;
    }
    return TWO_OVER_SQRT_PI * Math.exp(-x * x) * s;
  }
  let f = 0;
  for (let n = 50; n >= 1; n--) f = n / 2 / (a + f);
  const c = Math.exp(-a * a) / SQRT_PI / (a + f);
  return x > 0 ? 1 - c : c - 1;
}

/** √(2/π) and 0.044715 as the float32 constants of TFLite's GeluTransformApproximate. */
export const GELU_K_SQRT_2_OVER_PI = Math.fround(TWO_OVER_SQRT_PI * SQRT1_2);
export const GELU_K_CUBIC = Math.fround(0.044715);

/** TFLite 2.9's GeluTransform: 0.5f·x·(1 + erf(x·M_SQRT1_2)) evaluated in double (returned unrounded: the caller's float store rounds it once). */
export function geluExact(x: number): number {
  return 0.5 * x * (1 + erf(x * SQRT1_2));
}

/** TFLite's GeluTransformApproximate, in float: 0.5f·x·(1.f + tanhf(√(2/π)·(x + 0.044715f·x·x·x))). */
export function geluApproximate(x: number): number {
  const f = Math.fround;
  const cubic = f(f(f(GELU_K_CUBIC * x) * x) * x);
  const t = f(Math.tanh(f(GELU_K_SQRT_2_OVER_PI * f(x + cubic))));
  return f(f(0.5 * x) * f(1 + t));
}

/**
 * TFLite's PopulateLookupTable<T> for GELU (lut.ts's `lutPopulate8`, the float32 steps TFLite's 8-bit lookup
 * tables share), indexed by the input's byte: `table[byte of v]` = clamp(round(gelu(s_in·(v − zp_in)) / s_out)
 * + zp_out) for every int8 (`signed`) or uint8 value v.
 */
export function geluTable(
  table: Uint8Array,
  signed: boolean,
  inScale: number,
  inZp: number,
  outScale: number,
  outZp: number,
  approximate: boolean,
): void {
  lutPopulateBytes(table, signed, inScale, inZp, outScale, outZp, approximate ? geluApproximate : geluExact);
}
