/**
 * KISS FFT in 16-bit fixed point (`FIXED_POINT 16`), as TFLM builds it for SignalRfft int16
 * (signal/src/rfft_int16.cc -> kiss_fft_fixed16::kiss_fftr, kissfft v1.3.0 with TFLM's patch), to the bit:
 *
 * - scalars are int16; every complex add/sub stores a truncated int16 (C_ADD, C_SUB, C_ADDTO);
 * - `sround(x) = (int16)((x + 2^14) >> 15)` on int32 products; `C_MUL(a, b)` rounds `ar*br - ai*bi` and
 *   `ar*bi + ai*br`; `S_MUL`/`C_MULBYSCALAR` round one product;
 * - every butterfly of radix p first divides its inputs by p: `DIVSCALAR(x, p) = sround(x * (32767 / p))`
 *   (integer division), so the transform is scaled by 1 / nfft;
 * - twiddles are `floor(0.5 + 32767 * cos(phase))`, `floor(0.5 + 32767 * sin(phase))` with
 *   `phase = -2 * pi * i / nfft`; the real-FFT super twiddles use `phase = -pi * ((i + 1) / ncfft + 0.5)`;
 * - `HALF_OF(x) = x >> 1`.
 *
 * The real FFT of length N runs a complex FFT of N/2 points on the even/odd samples packed as complex
 * numbers, then splits the result into N/2 + 1 bins. The inverse (kiss_fftri, for SignalIrfft) is built
 * with `isInverse = true`: twiddles and super twiddles use the negated phase, the radix-4 butterfly
 * swaps its rotation, and `inverse()` merges the N/2 + 1 bins into N/2 complex points (each bin divided
 * by 2) before the complex transform, whose butterflies again divide by their radix: 1 / N in all, so
 * the result is the normalized inverse DFT. Radices 4, 2, 3 and 5 are supported (kf_factor
 * picks 4s first, then 2s, then odd primes); other prime factors would need kissfft's generic butterfly,
 * whose temporary buffer TFLM's patched kissfft cannot allocate, so TFLM cannot run them either.
 */
import type { ArenaRegion } from '@micrort/core';

/** kissfft's MAXFACTORS: at most 32 stages. */
export const KISS_MAX_FACTORS = 32;

const FACTOR_BYTES = 2 * KISS_MAX_FACTORS * 4;

/**
 * kf_factor(n): the radix sequence kissfft uses for an n-point complex FFT, as pairs (p, n / p so far):
 * powers of 4 first, then 2, then odd numbers up to floor(sqrt(n)), then the remaining n itself.
 */
export function kissFactor(n: number): number[] {
  const out: number[] = [];
  let p = 4;
  const floorSqrt = Math.floor(Math.sqrt(n));
  do {
    while (n % p !== 0) {
      switch (p) {
        case 4:
          p = 2;
          break;
        case 2:
          p = 3;
          break;
        default:
          p += 2;
          break;
      }
      if (p > floorSqrt) p = n;
    }
    n /= p;
    out.push(p, n);
  } while (n > 1);
  return out;
}

/**
 * Why an RFFT of `fftLength` points cannot run on the fixed-point kissfft (odd or too short length, or
 * a radix other than 2, 3, 4, 5), or null when it can.
 */
export function kissFftrUnsupportedReason(fftLength: number): string | null {
  if (!Number.isInteger(fftLength) || fftLength < 4) return `fft_length ${fftLength} must be an integer >= 4`;
  if (fftLength % 2 !== 0) return `fft_length ${fftLength} must be even (kiss_fftr packs pairs of real samples)`;
  const factors = kissFactor(fftLength / 2);
  if (factors.length > 2 * KISS_MAX_FACTORS) return `fft_length ${fftLength} needs more than ${KISS_MAX_FACTORS} kissfft stages`;
  for (let i = 0; i < factors.length; i += 2) {
    const p = factors[i]!;
    if (p !== 2 && p !== 3 && p !== 4 && p !== 5)
      return `fft_length ${fftLength} = 2 * ${fftLength / 2} has the prime factor ${p}: only radices 2, 3, 4 and 5 are supported (kissfft's generic butterfly needs a temporary buffer TFLM's patched kissfft cannot allocate)`;
  }
  return null;
}

/** Bytes of persistent state for an RFFT of `fftLength` points (factors, twiddles, super twiddles, work buffer). */
export function kissFftrInt16StateBytes(fftLength: number): number {
  const ncfft = fftLength >> 1;
  return FACTOR_BYTES + 4 * ncfft + 4 * (ncfft >> 1) + 4 * ncfft;
}

/** Rounds `x * k / 2^15` as kissfft's `sround(smul(x, k))`, truncated to int16. */
function sround16(x: number, k: number): number {
  return (((x * k + 16384) >> 15) << 16) >> 16;
}

/** Truncates to int16 (the store into a `short` field). */
function i16(x: number): number {
  return (x << 16) >> 16;
}

/** Real part of kissfft's fixed-point C_MUL. */
function cmulR(ar: number, ai: number, br: number, bi: number): number {
  return (((ar * br - ai * bi + 16384) >> 15) << 16) >> 16;
}

/** Imaginary part of kissfft's fixed-point C_MUL. */
function cmulI(ar: number, ai: number, br: number, bi: number): number {
  return (((ar * bi + ai * br + 16384) >> 15) << 16) >> 16;
}

/** DIVSCALAR multipliers: SAMP_MAX / p in integer division. */
const DIV2 = (32767 / 2) | 0;
const DIV3 = (32767 / 3) | 0;
const DIV4 = (32767 / 4) | 0;
const DIV5 = (32767 / 5) | 0;

function fixedTwiddle(phase: number, out: Int16Array, index: number): void {
  out[2 * index] = Math.floor(0.5 + 32767 * Math.cos(phase));
  out[2 * index + 1] = Math.floor(0.5 + 32767 * Math.sin(phase));
}

/**
 * A forward real FFT (kiss_fftr) in int16 fixed point whose state lives in one persistent arena region.
 * Complex arrays are interleaved int16 (re, im). `forward()` allocates nothing.
 */
export class KissFftrInt16 {
  /** Points of the inner complex FFT (fftLength / 2). */
  readonly ncfft: number;
  private readonly factors: Int32Array;
  private readonly twiddles: Int16Array;
  private readonly superTwiddles: Int16Array;
  /** kiss_fftr's tmpbuf: the complex FFT's output (forward) or input (inverse). */
  private readonly tmp: Int16Array;
  /** Where kf_work writes: `tmp` (forward) or the caller's time buffer (inverse), from element `fb`. */
  private F: Int16Array;
  private fb = 0;

  /**
   * Builds the state (kiss_fftr_alloc) in `region`, which must hold `kissFftrInt16StateBytes(fftLength)`
   * bytes; `fftLength` must pass `kissFftrUnsupportedReason`. `isInverse` builds kiss_fftri's state.
   */
  constructor(
    readonly fftLength: number,
    region: ArenaRegion,
    readonly isInverse = false,
  ) {
    const reason = kissFftrUnsupportedReason(fftLength);
    if (reason) throw new RangeError(reason);
    const need = kissFftrInt16StateBytes(fftLength);
    if (region.size < need) throw new RangeError(`kiss_fftr state needs ${need} bytes, region has ${region.size}`);
    const ncfft = fftLength >> 1;
    this.ncfft = ncfft;
    let at = region.offset;
    this.factors = new Int32Array(region.buffer, at, 2 * KISS_MAX_FACTORS);
    at += FACTOR_BYTES;
    this.twiddles = new Int16Array(region.buffer, at, 2 * ncfft);
    at += 4 * ncfft;
    this.superTwiddles = new Int16Array(region.buffer, at, 2 * (ncfft >> 1));
    at += 4 * (ncfft >> 1);
    this.tmp = new Int16Array(region.buffer, at, 2 * ncfft);
    this.F = this.tmp;

    this.factors.fill(0);
    this.factors.set(kissFactor(ncfft));
    const sign = isInverse ? -1 : 1;
    for (let i = 0; i < ncfft; i++) fixedTwiddle(((-2 * Math.PI * i) / ncfft) * sign, this.twiddles, i);
    for (let i = 0; i < ncfft >> 1; i++) fixedTwiddle(-Math.PI * ((i + 1) / ncfft + 0.5) * sign, this.superTwiddles, i);
    this.tmp.fill(0);
  }

  /**
   * kiss_fftr: `fftLength` real samples from `time[0..fftLength)` to `ncfft + 1` complex bins written
   * to `freq[freqOffset .. freqOffset + fftLength + 2)`.
   */
  forward(time: Int16Array, freq: Int16Array, freqOffset: number): void {
    if (this.isInverse) throw new RangeError('kiss_fftr: this state was built for the inverse transform');
    const ncfft = this.ncfft;
    const tmp = this.tmp;
    this.F = tmp;
    this.fb = 0;
    this.work(0, time, 0, 1, 0);

    const tdcR = sround16(tmp[0]!, DIV2);
    const tdcI = sround16(tmp[1]!, DIV2);
    freq[freqOffset] = tdcR + tdcI;
    freq[freqOffset + 1] = 0;
    freq[freqOffset + 2 * ncfft] = tdcR - tdcI;
    freq[freqOffset + 2 * ncfft + 1] = 0;

    const st = this.superTwiddles;
    const half = ncfft >> 1;
    for (let k = 1; k <= half; k++) {
      const pk = 2 * k;
      const pnk = 2 * (ncfft - k);
      const fpkR = sround16(tmp[pk]!, DIV2);
      const fpkI = sround16(tmp[pk + 1]!, DIV2);
      const fpnkR = sround16(tmp[pnk]!, DIV2);
      const fpnkI = sround16(i16(-tmp[pnk + 1]!), DIV2);
      const f1kR = i16(fpkR + fpnkR);
      const f1kI = i16(fpkI + fpnkI);
      const f2kR = i16(fpkR - fpnkR);
      const f2kI = i16(fpkI - fpnkI);
      const twR = st[2 * k - 2]!;
      const twI = st[2 * k - 1]!;
      const tR = cmulR(f2kR, f2kI, twR, twI);
      const tI = cmulI(f2kR, f2kI, twR, twI);
      freq[freqOffset + pk] = (f1kR + tR) >> 1;
      freq[freqOffset + pk + 1] = (f1kI + tI) >> 1;
      freq[freqOffset + pnk] = (f1kR - tR) >> 1;
      freq[freqOffset + pnk + 1] = (tI - f1kI) >> 1;
    }
  }

  /**
   * kiss_fftri: `ncfft + 1` complex bins from `freq[freqOffset .. freqOffset + fftLength + 2)` to
   * `fftLength` real samples written to `time[timeOffset .. timeOffset + fftLength)`.
   */
  inverse(freq: Int16Array, freqOffset: number, time: Int16Array, timeOffset: number): void {
    if (!this.isInverse) throw new RangeError('kiss_fftri: this state was built for the forward transform');
    const ncfft = this.ncfft;
    const tmp = this.tmp;
    const f0 = freq[freqOffset]!;
    const fn = freq[freqOffset + 2 * ncfft]!;
    tmp[0] = sround16(i16(f0 + fn), DIV2);
    tmp[1] = sround16(i16(f0 - fn), DIV2);
    const st = this.superTwiddles;
    const half = ncfft >> 1;
    for (let k = 1; k <= half; k++) {
      const pk = 2 * k;
      const pnk = 2 * (ncfft - k);
      const fkR = sround16(freq[freqOffset + pk]!, DIV2);
      const fkI = sround16(freq[freqOffset + pk + 1]!, DIV2);
      const fnkcR = sround16(freq[freqOffset + pnk]!, DIV2);
      const fnkcI = sround16(i16(-freq[freqOffset + pnk + 1]!), DIV2);
      const fekR = i16(fkR + fnkcR);
      const fekI = i16(fkI + fnkcI);
      const dR = i16(fkR - fnkcR);
      const dI = i16(fkI - fnkcI);
      const twR = st[2 * k - 2]!;
      const twI = st[2 * k - 1]!;
      const fokR = cmulR(dR, dI, twR, twI);
      const fokI = cmulI(dR, dI, twR, twI);
      tmp[pk] = fekR + fokR;
      tmp[pk + 1] = fekI + fokI;
      tmp[pnk] = fekR - fokR;
      tmp[pnk + 1] = fekI - fokI;
      tmp[pnk + 1] = -tmp[pnk + 1]!;
    }
    this.F = time;
    this.fb = timeOffset;
    this.work(0, tmp, 0, 1, 0);
  }

  /**
   * kf_work: the decimation-in-time recursion over the factor list, writing `p * m` complex outputs
   * from `out` (complex index, into `this.F` from element `this.fb`) and reading inputs
   * `f[fIdx + j * fstride]`.
   */
  private work(out: number, f: Int16Array, fIdx: number, fstride: number, fac: number): void {
    const F = this.F;
    const fb = this.fb;
    const p = this.factors[fac]!;
    const m = this.factors[fac + 1]!;
    const end = out + p * m;
    let o = out;
    let fi = fIdx;
    if (m === 1) {
      do {
        F[fb + 2 * o] = f[2 * fi]!;
        F[fb + 2 * o + 1] = f[2 * fi + 1]!;
        fi += fstride;
      } while (++o !== end);
    } else {
      do {
        this.work(o, f, fi, fstride * p, fac + 2);
        fi += fstride;
      } while ((o += m) !== end);
    }
    switch (p) {
      case 2:
        this.bfly2(out, fstride, m);
        break;
      case 3:
        this.bfly3(out, fstride, m);
        break;
      case 4:
        this.bfly4(out, fstride, m);
        break;
      default:
        this.bfly5(out, fstride, m);
        break;
    }
  }

  private bfly2(start: number, fstride: number, m: number): void {
    const F = this.F;
    const fb = this.fb;
    const tw = this.twiddles;
    for (let k = 0; k < m; k++) {
      const i0 = fb + 2 * (start + k);
      const i1 = i0 + 2 * m;
      const f0R = sround16(F[i0]!, DIV2);
      const f0I = sround16(F[i0 + 1]!, DIV2);
      const f1R = sround16(F[i1]!, DIV2);
      const f1I = sround16(F[i1 + 1]!, DIV2);
      const t = 2 * k * fstride;
      const tR = cmulR(f1R, f1I, tw[t]!, tw[t + 1]!);
      const tI = cmulI(f1R, f1I, tw[t]!, tw[t + 1]!);
      F[i1] = f0R - tR;
      F[i1 + 1] = f0I - tI;
      F[i0] = f0R + tR;
      F[i0 + 1] = f0I + tI;
    }
  }

  private bfly3(start: number, fstride: number, m: number): void {
    const F = this.F;
    const fb = this.fb;
    const tw = this.twiddles;
    const epi3I = tw[2 * fstride * m + 1]!;
    for (let k = 0; k < m; k++) {
      const i0 = fb + 2 * (start + k);
      const i1 = i0 + 2 * m;
      const i2 = i1 + 2 * m;
      const f0R = sround16(F[i0]!, DIV3);
      const f0I = sround16(F[i0 + 1]!, DIV3);
      const f1R = sround16(F[i1]!, DIV3);
      const f1I = sround16(F[i1 + 1]!, DIV3);
      const f2R = sround16(F[i2]!, DIV3);
      const f2I = sround16(F[i2 + 1]!, DIV3);
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const s1R = cmulR(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s1I = cmulI(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s2R = cmulR(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s2I = cmulI(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s3R = i16(s1R + s2R);
      const s3I = i16(s1I + s2I);
      const s0R = sround16(i16(s1R - s2R), epi3I);
      const s0I = sround16(i16(s1I - s2I), epi3I);
      const g1R = i16(f0R - (s3R >> 1));
      const g1I = i16(f0I - (s3I >> 1));
      F[i0] = f0R + s3R;
      F[i0 + 1] = f0I + s3I;
      F[i2] = g1R + s0I;
      F[i2 + 1] = g1I - s0R;
      F[i1] = g1R - s0I;
      F[i1 + 1] = g1I + s0R;
    }
  }

  private bfly4(start: number, fstride: number, m: number): void {
    const F = this.F;
    const fb = this.fb;
    const tw = this.twiddles;
    const inverse = this.isInverse;
    for (let k = 0; k < m; k++) {
      const i0 = fb + 2 * (start + k);
      const i1 = i0 + 2 * m;
      const i2 = i1 + 2 * m;
      const i3 = i2 + 2 * m;
      let f0R = sround16(F[i0]!, DIV4);
      let f0I = sround16(F[i0 + 1]!, DIV4);
      const f1R = sround16(F[i1]!, DIV4);
      const f1I = sround16(F[i1 + 1]!, DIV4);
      const f2R = sround16(F[i2]!, DIV4);
      const f2I = sround16(F[i2 + 1]!, DIV4);
      const f3R = sround16(F[i3]!, DIV4);
      const f3I = sround16(F[i3 + 1]!, DIV4);
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const t3 = 3 * t1;
      const s0R = cmulR(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s0I = cmulI(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s1R = cmulR(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s1I = cmulI(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s2R = cmulR(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s2I = cmulI(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s5R = i16(f0R - s1R);
      const s5I = i16(f0I - s1I);
      f0R = i16(f0R + s1R);
      f0I = i16(f0I + s1I);
      const s3R = i16(s0R + s2R);
      const s3I = i16(s0I + s2I);
      const s4R = i16(s0R - s2R);
      const s4I = i16(s0I - s2I);
      F[i2] = f0R - s3R;
      F[i2 + 1] = f0I - s3I;
      F[i0] = f0R + s3R;
      F[i0 + 1] = f0I + s3I;
      if (inverse) {
        F[i1] = s5R - s4I;
        F[i1 + 1] = s5I + s4R;
        F[i3] = s5R + s4I;
        F[i3 + 1] = s5I - s4R;
      } else {
        F[i1] = s5R + s4I;
        F[i1 + 1] = s5I - s4R;
        F[i3] = s5R - s4I;
        F[i3 + 1] = s5I + s4R;
      }
    }
  }

  private bfly5(start: number, fstride: number, m: number): void {
    const F = this.F;
    const fb = this.fb;
    const tw = this.twiddles;
    const yaR = tw[2 * fstride * m]!;
    const yaI = tw[2 * fstride * m + 1]!;
    const ybR = tw[4 * fstride * m]!;
    const ybI = tw[4 * fstride * m + 1]!;
    for (let u = 0; u < m; u++) {
      const i0 = fb + 2 * (start + u);
      const i1 = i0 + 2 * m;
      const i2 = i1 + 2 * m;
      const i3 = i2 + 2 * m;
      const i4 = i3 + 2 * m;
      const s0R = sround16(F[i0]!, DIV5);
      const s0I = sround16(F[i0 + 1]!, DIV5);
      const f1R = sround16(F[i1]!, DIV5);
      const f1I = sround16(F[i1 + 1]!, DIV5);
      const f2R = sround16(F[i2]!, DIV5);
      const f2I = sround16(F[i2 + 1]!, DIV5);
      const f3R = sround16(F[i3]!, DIV5);
      const f3I = sround16(F[i3 + 1]!, DIV5);
      const f4R = sround16(F[i4]!, DIV5);
      const f4I = sround16(F[i4 + 1]!, DIV5);
      const t1 = 2 * u * fstride;
      const t2 = 2 * t1;
      const t3 = 3 * t1;
      const t4 = 4 * t1;
      const s1R = cmulR(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s1I = cmulI(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s2R = cmulR(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s2I = cmulI(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s3R = cmulR(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s3I = cmulI(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s4R = cmulR(f4R, f4I, tw[t4]!, tw[t4 + 1]!);
      const s4I = cmulI(f4R, f4I, tw[t4]!, tw[t4 + 1]!);
      const s7R = i16(s1R + s4R);
      const s7I = i16(s1I + s4I);
      const s10R = i16(s1R - s4R);
      const s10I = i16(s1I - s4I);
      const s8R = i16(s2R + s3R);
      const s8I = i16(s2I + s3I);
      const s9R = i16(s2R - s3R);
      const s9I = i16(s2I - s3I);
      F[i0] = s0R + s7R + s8R;
      F[i0 + 1] = s0I + s7I + s8I;
      const s5R = i16(s0R + sround16(s7R, yaR) + sround16(s8R, ybR));
      const s5I = i16(s0I + sround16(s7I, yaR) + sround16(s8I, ybR));
      const s6R = i16(sround16(s10I, yaI) + sround16(s9I, ybI));
      const s6I = i16(-sround16(s10R, yaI) - sround16(s9R, ybI));
      F[i1] = s5R - s6R;
      F[i1 + 1] = s5I - s6I;
      F[i4] = s5R + s6R;
      F[i4 + 1] = s5I + s6I;
      const s11R = i16(s0R + sround16(s7R, ybR) + sround16(s8R, yaR));
      const s11I = i16(s0I + sround16(s7I, ybR) + sround16(s8I, yaR));
      const s12R = i16(-sround16(s10I, ybI) + sround16(s9I, yaI));
      const s12I = i16(sround16(s10R, ybI) - sround16(s9R, yaI));
      F[i2] = s11R + s12R;
      F[i2 + 1] = s11I + s12I;
      F[i3] = s11R - s12R;
      F[i3 + 1] = s11I - s12I;
    }
  }
}
