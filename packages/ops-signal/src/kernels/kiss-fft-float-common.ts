/**
 * KISS FFT in float32, as TFLM builds it for SignalRfft float (signal/src/rfft_float.cc ->
 * kiss_fft_float::kiss_fftr, kissfft v1.3.0 with TFLM's patch `HALF_OF(x) = x * (kiss_fft_scalar).5`).
 * Every operation is rounded to float32 (`Math.fround`), as C evaluates `float` expressions on x86-64
 * (SSE, no FMA contraction); twiddles are `(float)cos(phase)`, `(float)sin(phase)`. No scaling: the
 * result is the plain DFT.
 *
 * Same structure as the fixed-point version (kiss-fft-int16-common.ts): factors from `kissFactor`,
 * radices 2, 3, 4, 5. Built with `isInverse = true` it holds kiss_fftri's state (negated twiddle
 * phases, the radix-4 butterfly's inverse rotation) and `inverse()` returns the unscaled inverse
 * (SignalIrfft divides by the length afterwards, as TFLM's IrfftFloatApply does).
 */
import type { ArenaRegion } from '@micrort/core';
import { KISS_MAX_FACTORS, kissFactor, kissFftrUnsupportedReason } from './kiss-fft-int16-common.js';

const f = Math.fround;
const FACTOR_BYTES = 2 * KISS_MAX_FACTORS * 4;

/** Bytes of persistent state for a float RFFT of `fftLength` points. */
export function kissFftrFloatStateBytes(fftLength: number): number {
  const ncfft = fftLength >> 1;
  return FACTOR_BYTES + 8 * ncfft + 8 * (ncfft >> 1) + 8 * ncfft;
}

/** A real FFT (kiss_fftr, or kiss_fftri when `isInverse`) in float32 with its state in one persistent arena region. */
export class KissFftrFloat {
  readonly ncfft: number;
  private readonly factors: Int32Array;
  private readonly twiddles: Float32Array;
  private readonly superTwiddles: Float32Array;
  private readonly tmp: Float32Array;
  /** Where kf_work writes: `tmp` (forward) or the caller's time buffer (inverse), from element `fb`. */
  private F: Float32Array;
  private fb = 0;

  /** Builds the state in `region` (`kissFftrFloatStateBytes(fftLength)` bytes); `isInverse` builds kiss_fftri's. */
  constructor(
    readonly fftLength: number,
    region: ArenaRegion,
    readonly isInverse = false,
  ) {
    const reason = kissFftrUnsupportedReason(fftLength);
    if (reason) throw new RangeError(reason);
    const need = kissFftrFloatStateBytes(fftLength);
    if (region.size < need) throw new RangeError(`kiss_fftr state needs ${need} bytes, region has ${region.size}`);
    const ncfft = fftLength >> 1;
    this.ncfft = ncfft;
    let at = region.offset;
    this.factors = new Int32Array(region.buffer, at, 2 * KISS_MAX_FACTORS);
    at += FACTOR_BYTES;
    this.twiddles = new Float32Array(region.buffer, at, 2 * ncfft);
    at += 8 * ncfft;
    this.superTwiddles = new Float32Array(region.buffer, at, 2 * (ncfft >> 1));
    at += 8 * (ncfft >> 1);
    this.tmp = new Float32Array(region.buffer, at, 2 * ncfft);
    this.F = this.tmp;

    this.factors.fill(0);
    this.factors.set(kissFactor(ncfft));
    const sign = isInverse ? -1 : 1;
    for (let i = 0; i < ncfft; i++) {
      const phase = ((-2 * Math.PI * i) / ncfft) * sign;
      this.twiddles[2 * i] = Math.cos(phase);
      this.twiddles[2 * i + 1] = Math.sin(phase);
    }
    for (let i = 0; i < ncfft >> 1; i++) {
      const phase = -Math.PI * ((i + 1) / ncfft + 0.5) * sign;
      this.superTwiddles[2 * i] = Math.cos(phase);
      this.superTwiddles[2 * i + 1] = Math.sin(phase);
    }
    this.tmp.fill(0);
  }

  /** kiss_fftr: `fftLength` real samples to `ncfft + 1` complex bins at `freq[freqOffset ..]`. */
  forward(time: Float32Array, freq: Float32Array, freqOffset: number): void {
    if (this.isInverse) throw new RangeError('kiss_fftr: this state was built for the inverse transform');
    const ncfft = this.ncfft;
    const tmp = this.tmp;
    this.F = tmp;
    this.fb = 0;
    this.work(0, time, 0, 1, 0);
    const tdcR = tmp[0]!;
    const tdcI = tmp[1]!;
    freq[freqOffset] = tdcR + tdcI;
    freq[freqOffset + 1] = 0;
    freq[freqOffset + 2 * ncfft] = tdcR - tdcI;
    freq[freqOffset + 2 * ncfft + 1] = 0;
    const st = this.superTwiddles;
    const half = ncfft >> 1;
    for (let k = 1; k <= half; k++) {
      const pk = 2 * k;
      const pnk = 2 * (ncfft - k);
      const fpkR = tmp[pk]!;
      const fpkI = tmp[pk + 1]!;
      const fpnkR = tmp[pnk]!;
      const fpnkI = -tmp[pnk + 1]!;
      const f1kR = f(fpkR + fpnkR);
      const f1kI = f(fpkI + fpnkI);
      const f2kR = f(fpkR - fpnkR);
      const f2kI = f(fpkI - fpnkI);
      const twR = st[2 * k - 2]!;
      const twI = st[2 * k - 1]!;
      const tR = f(f(f2kR * twR) - f(f2kI * twI));
      const tI = f(f(f2kR * twI) + f(f2kI * twR));
      freq[freqOffset + pk] = f(f1kR + tR) * 0.5;
      freq[freqOffset + pk + 1] = f(f1kI + tI) * 0.5;
      freq[freqOffset + pnk] = f(f1kR - tR) * 0.5;
      freq[freqOffset + pnk + 1] = f(tI - f1kI) * 0.5;
    }
  }

  /**
   * kiss_fftri: `ncfft + 1` complex bins from `freq[freqOffset ..]` to `fftLength` real samples at
   * `time[timeOffset ..]`, unscaled (the plain inverse sum).
   */
  inverse(freq: Float32Array, freqOffset: number, time: Float32Array, timeOffset: number): void {
    if (!this.isInverse) throw new RangeError('kiss_fftri: this state was built for the forward transform');
    const ncfft = this.ncfft;
    const tmp = this.tmp;
    const f0 = freq[freqOffset]!;
    const fn = freq[freqOffset + 2 * ncfft]!;
    tmp[0] = f0 + fn;
    tmp[1] = f0 - fn;
    const st = this.superTwiddles;
    const half = ncfft >> 1;
    for (let k = 1; k <= half; k++) {
      const pk = 2 * k;
      const pnk = 2 * (ncfft - k);
      const fkR = freq[freqOffset + pk]!;
      const fkI = freq[freqOffset + pk + 1]!;
      const fnkcR = freq[freqOffset + pnk]!;
      const fnkcI = -freq[freqOffset + pnk + 1]!;
      const fekR = f(fkR + fnkcR);
      const fekI = f(fkI + fnkcI);
      const dR = f(fkR - fnkcR);
      const dI = f(fkI - fnkcI);
      const twR = st[2 * k - 2]!;
      const twI = st[2 * k - 1]!;
      const fokR = f(f(dR * twR) - f(dI * twI));
      const fokI = f(f(dR * twI) + f(dI * twR));
      tmp[pk] = fekR + fokR;
      tmp[pk + 1] = fekI + fokI;
      tmp[pnk] = fekR - fokR;
      tmp[pnk + 1] = -f(fekI - fokI);
    }
    this.F = time;
    this.fb = timeOffset;
    this.work(0, tmp, 0, 1, 0);
  }

  private work(out: number, fin: Float32Array, fIdx: number, fstride: number, fac: number): void {
    const F = this.F;
    const fb = this.fb;
    const p = this.factors[fac]!;
    const m = this.factors[fac + 1]!;
    const end = out + p * m;
    let o = out;
    let fi = fIdx;
    if (m === 1) {
      do {
        F[fb + 2 * o] = fin[2 * fi]!;
        F[fb + 2 * o + 1] = fin[2 * fi + 1]!;
        fi += fstride;
      } while (++o !== end);
    } else {
      do {
        this.work(o, fin, fi, fstride * p, fac + 2);
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
      const t = 2 * k * fstride;
      const tR = f(f(F[i1]! * tw[t]!) - f(F[i1 + 1]! * tw[t + 1]!));
      const tI = f(f(F[i1]! * tw[t + 1]!) + f(F[i1 + 1]! * tw[t]!));
      F[i1] = F[i0]! - tR;
      F[i1 + 1] = F[i0 + 1]! - tI;
      F[i0] = F[i0]! + tR;
      F[i0 + 1] = F[i0 + 1]! + tI;
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
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const s1R = f(f(F[i1]! * tw[t1]!) - f(F[i1 + 1]! * tw[t1 + 1]!));
      const s1I = f(f(F[i1]! * tw[t1 + 1]!) + f(F[i1 + 1]! * tw[t1]!));
      const s2R = f(f(F[i2]! * tw[t2]!) - f(F[i2 + 1]! * tw[t2 + 1]!));
      const s2I = f(f(F[i2]! * tw[t2 + 1]!) + f(F[i2 + 1]! * tw[t2]!));
      const s3R = f(s1R + s2R);
      const s3I = f(s1I + s2I);
      const s0R = f(f(s1R - s2R) * epi3I);
      const s0I = f(f(s1I - s2I) * epi3I);
      const g1R = f(F[i0]! - f(s3R * 0.5));
      const g1I = f(F[i0 + 1]! - f(s3I * 0.5));
      F[i0] = F[i0]! + s3R;
      F[i0 + 1] = F[i0 + 1]! + s3I;
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
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const t3 = 3 * t1;
      const s0R = f(f(F[i1]! * tw[t1]!) - f(F[i1 + 1]! * tw[t1 + 1]!));
      const s0I = f(f(F[i1]! * tw[t1 + 1]!) + f(F[i1 + 1]! * tw[t1]!));
      const s1R = f(f(F[i2]! * tw[t2]!) - f(F[i2 + 1]! * tw[t2 + 1]!));
      const s1I = f(f(F[i2]! * tw[t2 + 1]!) + f(F[i2 + 1]! * tw[t2]!));
      const s2R = f(f(F[i3]! * tw[t3]!) - f(F[i3 + 1]! * tw[t3 + 1]!));
      const s2I = f(f(F[i3]! * tw[t3 + 1]!) + f(F[i3 + 1]! * tw[t3]!));
      const s5R = f(F[i0]! - s1R);
      const s5I = f(F[i0 + 1]! - s1I);
      const f0R = f(F[i0]! + s1R);
      const f0I = f(F[i0 + 1]! + s1I);
      const s3R = f(s0R + s2R);
      const s3I = f(s0I + s2I);
      const s4R = f(s0R - s2R);
      const s4I = f(s0I - s2I);
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
      const s0R = F[i0]!;
      const s0I = F[i0 + 1]!;
      const t1 = 2 * u * fstride;
      const t2 = 2 * t1;
      const t3 = 3 * t1;
      const t4 = 4 * t1;
      const s1R = f(f(F[i1]! * tw[t1]!) - f(F[i1 + 1]! * tw[t1 + 1]!));
      const s1I = f(f(F[i1]! * tw[t1 + 1]!) + f(F[i1 + 1]! * tw[t1]!));
      const s2R = f(f(F[i2]! * tw[t2]!) - f(F[i2 + 1]! * tw[t2 + 1]!));
      const s2I = f(f(F[i2]! * tw[t2 + 1]!) + f(F[i2 + 1]! * tw[t2]!));
      const s3R = f(f(F[i3]! * tw[t3]!) - f(F[i3 + 1]! * tw[t3 + 1]!));
      const s3I = f(f(F[i3]! * tw[t3 + 1]!) + f(F[i3 + 1]! * tw[t3]!));
      const s4R = f(f(F[i4]! * tw[t4]!) - f(F[i4 + 1]! * tw[t4 + 1]!));
      const s4I = f(f(F[i4]! * tw[t4 + 1]!) + f(F[i4 + 1]! * tw[t4]!));
      const s7R = f(s1R + s4R);
      const s7I = f(s1I + s4I);
      const s10R = f(s1R - s4R);
      const s10I = f(s1I - s4I);
      const s8R = f(s2R + s3R);
      const s8I = f(s2I + s3I);
      const s9R = f(s2R - s3R);
      const s9I = f(s2I - s3I);
      F[i0] = s0R + f(s7R + s8R);
      F[i0 + 1] = s0I + f(s7I + s8I);
      const s5R = f(f(s0R + f(s7R * yaR)) + f(s8R * ybR));
      const s5I = f(f(s0I + f(s7I * yaR)) + f(s8I * ybR));
      const s6R = f(f(s10I * yaI) + f(s9I * ybI));
      const s6I = f(-f(s10R * yaI) - f(s9R * ybI));
      F[i1] = s5R - s6R;
      F[i1 + 1] = s5I - s6I;
      F[i4] = s5R + s6R;
      F[i4 + 1] = s5I + s6I;
      const s11R = f(f(s0R + f(s7R * ybR)) + f(s8R * yaR));
      const s11I = f(f(s0I + f(s7I * ybR)) + f(s8I * yaR));
      const s12R = f(-f(s10I * ybI) + f(s9I * yaI));
      const s12I = f(f(s10R * ybI) - f(s9R * yaI));
      F[i2] = s11R + s12R;
      F[i2 + 1] = s11I + s12I;
      F[i3] = s11R - s12R;
      F[i3 + 1] = s11I - s12I;
    }
  }
}
