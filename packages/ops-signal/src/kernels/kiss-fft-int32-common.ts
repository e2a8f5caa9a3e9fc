/**
 * KISS FFT in 32-bit fixed point (`FIXED_POINT 32`), as TFLM builds it for SignalRfft and SignalIrfft
 * int32 (signal/src/rfft_int32.cc, irfft_int32.cc -> kiss_fft_fixed32, kissfft v1.3.0), to the bit:
 *
 * - scalars are int32; every complex add/sub wraps to int32 (C int arithmetic);
 * - products are int64: `sround(x) = (int32)((x + 2^30) >> 31)`; `C_MUL(a, b)` rounds
 *   `ar*br - ai*bi` and `ar*bi + ai*br` as whole int64 sums; `S_MUL`/`C_MULBYSCALAR` round one product;
 * - every butterfly of radix p first divides its inputs by p: `DIVSCALAR(x, p) = sround(x * (2^31-1) / p)`
 *   with the integer quotient `(2^31 - 1) / p`, so the transforms are scaled by 1 / N (see
 *   kiss-fft-int16-common.ts for the structure, which is the same);
 * - twiddles are `floor(0.5 + (2^31 - 1) * cos(phase))`, `floor(0.5 + (2^31 - 1) * sin(phase))`;
 * - `HALF_OF(x) = x >> 1`.
 *
 * The int64 products are computed exactly without BigInt: each int32 is split into a signed high and an
 * unsigned low 16-bit half, so every partial product and partial sum fits a double's 53 bits, and the
 * shift by 31 is taken on the exact value (`mulShift31`).
 */
import type { ArenaRegion } from '@micrort/core';
import { KISS_MAX_FACTORS, kissFactor, kissFftrUnsupportedReason } from './kiss-fft-int16-common.js';

const FACTOR_BYTES = 2 * KISS_MAX_FACTORS * 4;
const TWO_POW_31 = 2147483648;
const ROUND = 1073741824;

/** Bytes of persistent state for an int32 real FFT of `fftLength` points (factors, twiddles, super twiddles, work buffer). */
export function kissFftrInt32StateBytes(fftLength: number): number {
  const ncfft = fftLength >> 1;
  return FACTOR_BYTES + 8 * ncfft + 8 * (ncfft >> 1) + 8 * ncfft;
}

/** kissfft's `sround(smul(a, b))` for FIXED_POINT 32: `(int32)((a * b + 2^30) >> 31)`, exact. */
export function mulShift31(a: number, b: number): number {
  const ah = a >> 16;
  const al = a & 0xffff;
  const bh = b >> 16;
  const bl = b & 0xffff;
  const t = (ah * bl + al * bh) * 65536 + al * bl + ROUND;
  return (2 * (ah * bh) + Math.floor(t / TWO_POW_31)) | 0;
}

/** Real part of kissfft's FIXED_POINT 32 C_MUL: `(int32)((ar*br - ai*bi + 2^30) >> 31)`, exact. */
export function cmulR32(ar: number, ai: number, br: number, bi: number): number {
  const arh = ar >> 16;
  const arl = ar & 0xffff;
  const aih = ai >> 16;
  const ail = ai & 0xffff;
  const brh = br >> 16;
  const brl = br & 0xffff;
  const bih = bi >> 16;
  const bil = bi & 0xffff;
  const hh = arh * brh - aih * bih;
  const t = (arh * brl + arl * brh - aih * bil - ail * bih) * 65536 + (arl * brl - ail * bil) + ROUND;
  return (2 * hh + Math.floor(t / TWO_POW_31)) | 0;
}

/** Imaginary part of kissfft's FIXED_POINT 32 C_MUL: `(int32)((ar*bi + ai*br + 2^30) >> 31)`, exact. */
export function cmulI32(ar: number, ai: number, br: number, bi: number): number {
  const arh = ar >> 16;
  const arl = ar & 0xffff;
  const aih = ai >> 16;
  const ail = ai & 0xffff;
  const brh = br >> 16;
  const brl = br & 0xffff;
  const bih = bi >> 16;
  const bil = bi & 0xffff;
  const hh = arh * bih + aih * brh;
  const t = (arh * bil + arl * bih + aih * brl + ail * brh) * 65536 + (arl * bil + ail * brl) + ROUND;
  return (2 * hh + Math.floor(t / TWO_POW_31)) | 0;
}

/** DIVSCALAR multipliers: SAMP_MAX / p in integer division. */
const DIV2 = Math.floor(2147483647 / 2);
const DIV3 = Math.floor(2147483647 / 3);
const DIV4 = Math.floor(2147483647 / 4);
const DIV5 = Math.floor(2147483647 / 5);

function fixedTwiddle(phase: number, out: Int32Array, index: number): void {
  out[2 * index] = Math.floor(0.5 + 2147483647 * Math.cos(phase));
  out[2 * index + 1] = Math.floor(0.5 + 2147483647 * Math.sin(phase));
}

/**
 * A real FFT (kiss_fftr) or inverse real FFT (kiss_fftri, `isInverse`) in int32 fixed point whose state
 * lives in one persistent arena region. Complex arrays are interleaved int32 (re, im). Neither transform
 * allocates.
 */
export class KissFftrInt32 {
  /** Points of the inner complex FFT (fftLength / 2). */
  readonly ncfft: number;
  private readonly factors: Int32Array;
  private readonly twiddles: Int32Array;
  private readonly superTwiddles: Int32Array;
  /** kiss_fftr's tmpbuf: the complex FFT's output (forward) or input (inverse). */
  private readonly tmp: Int32Array;
  /** Where kf_work writes: `tmp` (forward) or the caller's time buffer (inverse), from element `fb`. */
  private F: Int32Array;
  private fb = 0;

  /**
   * Builds the state (kiss_fftr_alloc) in `region`, which must hold `kissFftrInt32StateBytes(fftLength)`
   * bytes; `fftLength` must pass `kissFftrUnsupportedReason`. `isInverse` builds kiss_fftri's state.
   */
  constructor(
    readonly fftLength: number,
    region: ArenaRegion,
    readonly isInverse = false,
  ) {
    const reason = kissFftrUnsupportedReason(fftLength);
    if (reason) throw new RangeError(reason);
    const need = kissFftrInt32StateBytes(fftLength);
    if (region.size < need) throw new RangeError(`kiss_fftr state needs ${need} bytes, region has ${region.size}`);
    const ncfft = fftLength >> 1;
    this.ncfft = ncfft;
    let at = region.offset;
    this.factors = new Int32Array(region.buffer, at, 2 * KISS_MAX_FACTORS);
    at += FACTOR_BYTES;
    this.twiddles = new Int32Array(region.buffer, at, 2 * ncfft);
    at += 8 * ncfft;
    this.superTwiddles = new Int32Array(region.buffer, at, 2 * (ncfft >> 1));
    at += 8 * (ncfft >> 1);
    this.tmp = new Int32Array(region.buffer, at, 2 * ncfft);
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
  forward(time: Int32Array, freq: Int32Array, freqOffset: number): void {
    if (this.isInverse) throw new RangeError('kiss_fftr: this state was built for the inverse transform');
    const ncfft = this.ncfft;
    const tmp = this.tmp;
    this.F = tmp;
    this.fb = 0;
    this.work(0, time, 0, 1, 0);

    const tdcR = mulShift31(tmp[0]!, DIV2);
    const tdcI = mulShift31(tmp[1]!, DIV2);
    freq[freqOffset] = tdcR + tdcI;
    freq[freqOffset + 1] = 0;
    freq[freqOffset + 2 * ncfft] = tdcR - tdcI;
    freq[freqOffset + 2 * ncfft + 1] = 0;

    const st = this.superTwiddles;
    const half = ncfft >> 1;
    for (let k = 1; k <= half; k++) {
      const pk = 2 * k;
      const pnk = 2 * (ncfft - k);
      const fpkR = mulShift31(tmp[pk]!, DIV2);
      const fpkI = mulShift31(tmp[pk + 1]!, DIV2);
      const fpnkR = mulShift31(tmp[pnk]!, DIV2);
      const fpnkI = mulShift31(-tmp[pnk + 1]! | 0, DIV2);
      const f1kR = (fpkR + fpnkR) | 0;
      const f1kI = (fpkI + fpnkI) | 0;
      const f2kR = (fpkR - fpnkR) | 0;
      const f2kI = (fpkI - fpnkI) | 0;
      const twR = st[2 * k - 2]!;
      const twI = st[2 * k - 1]!;
      const tR = cmulR32(f2kR, f2kI, twR, twI);
      const tI = cmulI32(f2kR, f2kI, twR, twI);
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
  inverse(freq: Int32Array, freqOffset: number, time: Int32Array, timeOffset: number): void {
    if (!this.isInverse) throw new RangeError('kiss_fftri: this state was built for the forward transform');
    const ncfft = this.ncfft;
    const tmp = this.tmp;
    const f0 = freq[freqOffset]!;
    const fn = freq[freqOffset + 2 * ncfft]!;
    tmp[0] = mulShift31((f0 + fn) | 0, DIV2);
    tmp[1] = mulShift31((f0 - fn) | 0, DIV2);
    const st = this.superTwiddles;
    const half = ncfft >> 1;
    for (let k = 1; k <= half; k++) {
      const pk = 2 * k;
      const pnk = 2 * (ncfft - k);
      const fkR = mulShift31(freq[freqOffset + pk]!, DIV2);
      const fkI = mulShift31(freq[freqOffset + pk + 1]!, DIV2);
      const fnkcR = mulShift31(freq[freqOffset + pnk]!, DIV2);
      const fnkcI = mulShift31(-freq[freqOffset + pnk + 1]! | 0, DIV2);
      const fekR = (fkR + fnkcR) | 0;
      const fekI = (fkI + fnkcI) | 0;
      const dR = (fkR - fnkcR) | 0;
      const dI = (fkI - fnkcI) | 0;
      const twR = st[2 * k - 2]!;
      const twI = st[2 * k - 1]!;
      const fokR = cmulR32(dR, dI, twR, twI);
      const fokI = cmulI32(dR, dI, twR, twI);
      tmp[pk] = fekR + fokR;
      tmp[pk + 1] = fekI + fokI;
      tmp[pnk] = fekR - fokR;
      tmp[pnk + 1] = -((fekI - fokI) | 0);
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
  private work(out: number, f: Int32Array, fIdx: number, fstride: number, fac: number): void {
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
      const f0R = mulShift31(F[i0]!, DIV2);
      const f0I = mulShift31(F[i0 + 1]!, DIV2);
      const f1R = mulShift31(F[i1]!, DIV2);
      const f1I = mulShift31(F[i1 + 1]!, DIV2);
      const t = 2 * k * fstride;
      const tR = cmulR32(f1R, f1I, tw[t]!, tw[t + 1]!);
      const tI = cmulI32(f1R, f1I, tw[t]!, tw[t + 1]!);
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
      const f0R = mulShift31(F[i0]!, DIV3);
      const f0I = mulShift31(F[i0 + 1]!, DIV3);
      const f1R = mulShift31(F[i1]!, DIV3);
      const f1I = mulShift31(F[i1 + 1]!, DIV3);
      const f2R = mulShift31(F[i2]!, DIV3);
      const f2I = mulShift31(F[i2 + 1]!, DIV3);
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const s1R = cmulR32(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s1I = cmulI32(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s2R = cmulR32(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s2I = cmulI32(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s3R = (s1R + s2R) | 0;
      const s3I = (s1I + s2I) | 0;
      const s0R = mulShift31((s1R - s2R) | 0, epi3I);
      const s0I = mulShift31((s1I - s2I) | 0, epi3I);
      const g1R = (f0R - (s3R >> 1)) | 0;
      const g1I = (f0I - (s3I >> 1)) | 0;
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
      let f0R = mulShift31(F[i0]!, DIV4);
      let f0I = mulShift31(F[i0 + 1]!, DIV4);
      const f1R = mulShift31(F[i1]!, DIV4);
      const f1I = mulShift31(F[i1 + 1]!, DIV4);
      const f2R = mulShift31(F[i2]!, DIV4);
      const f2I = mulShift31(F[i2 + 1]!, DIV4);
      const f3R = mulShift31(F[i3]!, DIV4);
      const f3I = mulShift31(F[i3 + 1]!, DIV4);
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const t3 = 3 * t1;
      const s0R = cmulR32(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s0I = cmulI32(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s1R = cmulR32(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s1I = cmulI32(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s2R = cmulR32(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s2I = cmulI32(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s5R = (f0R - s1R) | 0;
      const s5I = (f0I - s1I) | 0;
      f0R = (f0R + s1R) | 0;
      f0I = (f0I + s1I) | 0;
      const s3R = (s0R + s2R) | 0;
      const s3I = (s0I + s2I) | 0;
      const s4R = (s0R - s2R) | 0;
      const s4I = (s0I - s2I) | 0;
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
      const s0R = mulShift31(F[i0]!, DIV5);
      const s0I = mulShift31(F[i0 + 1]!, DIV5);
      const f1R = mulShift31(F[i1]!, DIV5);
      const f1I = mulShift31(F[i1 + 1]!, DIV5);
      const f2R = mulShift31(F[i2]!, DIV5);
      const f2I = mulShift31(F[i2 + 1]!, DIV5);
      const f3R = mulShift31(F[i3]!, DIV5);
      const f3I = mulShift31(F[i3 + 1]!, DIV5);
      const f4R = mulShift31(F[i4]!, DIV5);
      const f4I = mulShift31(F[i4 + 1]!, DIV5);
      const t1 = 2 * u * fstride;
      const t2 = 2 * t1;
      const t3 = 3 * t1;
      const t4 = 4 * t1;
      const s1R = cmulR32(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s1I = cmulI32(f1R, f1I, tw[t1]!, tw[t1 + 1]!);
      const s2R = cmulR32(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s2I = cmulI32(f2R, f2I, tw[t2]!, tw[t2 + 1]!);
      const s3R = cmulR32(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s3I = cmulI32(f3R, f3I, tw[t3]!, tw[t3 + 1]!);
      const s4R = cmulR32(f4R, f4I, tw[t4]!, tw[t4 + 1]!);
      const s4I = cmulI32(f4R, f4I, tw[t4]!, tw[t4 + 1]!);
      const s7R = (s1R + s4R) | 0;
      const s7I = (s1I + s4I) | 0;
      const s10R = (s1R - s4R) | 0;
      const s10I = (s1I - s4I) | 0;
      const s8R = (s2R + s3R) | 0;
      const s8I = (s2I + s3I) | 0;
      const s9R = (s2R - s3R) | 0;
      const s9I = (s2I - s3I) | 0;
      F[i0] = s0R + ((s7R + s8R) | 0);
      F[i0 + 1] = s0I + ((s7I + s8I) | 0);
      const s5R = (((s0R + mulShift31(s7R, yaR)) | 0) + mulShift31(s8R, ybR)) | 0;
      const s5I = (((s0I + mulShift31(s7I, yaR)) | 0) + mulShift31(s8I, ybR)) | 0;
      const s6R = (mulShift31(s10I, yaI) + mulShift31(s9I, ybI)) | 0;
      const s6I = (-mulShift31(s10R, yaI) - mulShift31(s9R, ybI)) | 0;
      F[i1] = s5R - s6R;
      F[i1 + 1] = s5I - s6I;
      F[i4] = s5R + s6R;
      F[i4 + 1] = s5I + s6I;
      const s11R = (((s0R + mulShift31(s7R, ybR)) | 0) + mulShift31(s8R, yaR)) | 0;
      const s11I = (((s0I + mulShift31(s7I, ybR)) | 0) + mulShift31(s8I, yaR)) | 0;
      const s12R = (-mulShift31(s10I, ybI) + mulShift31(s9I, yaI)) | 0;
      const s12I = (mulShift31(s10R, ybI) - mulShift31(s9R, yaI)) | 0;
      F[i2] = s11R + s12R;
      F[i2 + 1] = s11I + s12I;
      F[i3] = s11R - s12R;
      F[i3 + 1] = s11I - s12I;
    }
  }
}
