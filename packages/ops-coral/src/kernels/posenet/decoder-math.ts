/**
 * The float arithmetic of Coral's pose decoder (coral/posenet/posenet_decoder.cc), rounded as its C++
 * rounds it: every float operation's result goes through `Math.fround`, so sums and products round
 * exactly as single-precision operations do (a float32 sum or product computed in double and rounded
 * once is the correctly rounded float32 result). `logodds` is computed in double and rounded once,
 * because the C++ mixes in the double constant `1E-6` (with `Math.log`, whose last bit can differ from
 * glibc's `log`: the rounded float differed for 1 of 2,000,000 sampled thresholds); the sigmoid uses
 * glibc's `expf` algorithm, because the correctly rounded exp differs from it.
 *
 * Allocation: a JavaScript call that is not inlined boxes every non-integer number it passes or returns.
 * So the functions used in invoke take and return no floats: points, samples and weights travel in small
 * typed arrays (a `Bilinear` work area, a [y, x] point), and values are transformed in place. Only `clamp`
 * takes floats; it is small enough that V8 always inlines it.
 */
const f = Math.fround;

/** Coral's `clamp(v, lo, hi)`: `v < lo ? lo : hi < v ? hi : v` (a NaN passes through). */
export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : hi < v ? hi : v;
}

/** `Logodds(x) = -std::log(1.0f / (x + 1E-6) - 1.0f)`, in double (the C++ promotes at `+ 1E-6`), returned as float. */
export function logodds(x: number): number {
  return f(-Math.log(1 / (x + 1e-6) - 1));
}

/**
 * The table and constants of glibc's `expf` (sysdeps/ieee754/flt-32/e_expf.c, from Arm's
 * optimized-routines, also musl's): x·32/ln2 = k + r, 2^(k/32) from a 32-entry table of 2^(i/32) (as
 * bits, offset so that k's high bits add to the exponent), 2^(r/32) by a cubic, all in double without
 * FMA, rounded to float once. It is not always the correctly rounded exp (its error reaches 0.502 ULP),
 * and Coral's `Sigmoid` calls it, so keypoint scores follow it. Checked equal to glibc 2.36's `expf`
 * (x86-64) on 2,000,000 sampled floats in [-110, 110], where `Math.fround(Math.exp(x))` differs from it for
 * 1,026 (about 1 in 2,000); the oracle test keeps 4,096 such checks. High words of the table entries:
 */
const EXP2F_HI = Uint32Array.of(
  0x3ff00000,
  0x3fefd9b0,
  0x3fefb558,
  0x3fef9301,
  0x3fef72b8,
  0x3fef5487,
  0x3fef387a,
  0x3fef1e9d,
  0x3fef06fe,
  0x3feef1a7,
  0x3feedea6,
  0x3feece08,
  0x3feebfda,
  0x3feeb42b,
  0x3feeab07,
  0x3feea47e,
  0x3feea09e,
  0x3fee9f75,
  0x3feea114,
  0x3feea589,
  0x3feeace5,
  0x3feeb737,
  0x3feec491,
  0x3feed503,
  0x3feee89f,
  0x3feeff76,
  0x3fef199b,
  0x3fef3720,
  0x3fef5818,
  0x3fef7c97,
  0x3fefa4af,
  0x3fefd076,
);
/** Low words of the table entries (see EXP2F_HI). */
const EXP2F_LO = Uint32Array.of(
  0x00000000,
  0xd3158574,
  0x6cf9890f,
  0xd0125b51,
  0x3c7d517b,
  0x3168b9aa,
  0x6e756238,
  0xf51fdee1,
  0x0a31b715,
  0x373aa9cb,
  0x4c123422,
  0x6061892d,
  0xd5362a27,
  0x569d4f82,
  0xdd485429,
  0xb03a5585,
  0x667f3bcd,
  0xe8ec5f74,
  0x73eb0187,
  0x994cce13,
  0x422aa0db,
  0xb0cdc5e5,
  0x82a3f090,
  0xb23e255d,
  0x995ad3ad,
  0xf2fb5e47,
  0xdd85529c,
  0xdcef9069,
  0xdcfba487,
  0x337b9b5f,
  0xa2a490da,
  0x5b6e4540,
);
/** A double and its two 32-bit words (`words[LOW]`, `words[HIGH]`), to move bits between them. */
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
const LOW = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;
function fromBits(hi: number, lo: number): number {
  words[LOW] = lo;
  words[HIGH] = hi;
  return bits[0]!;
}
/** 32 / ln 2 (0x1.71547652b82fep+0 · 32). */
const INV_LN2_N = fromBits(0x3ff71547, 0x652b82fe) * 32;
/** 0x1.8p52: adding it rounds to an integer (ties to even) kept in the low bits. */
const ROUND_SHIFT = 6755399441055744;
/** The cubic's coefficients, scaled by 1/32^3, 1/32^2, 1/32. */
const EXPF_C0 = fromBits(0x3fac6af8, 0x4b912394) / 32768;
const EXPF_C1 = fromBits(0x3fcebfce, 0x50fac4f3) / 1024;
const EXPF_C2 = fromBits(0x3fe62e42, 0xff0c52d6) / 32;
/** 0x1.62e42ep6f: above it expf overflows. */
const EXPF_OVERFLOW = 88.72283172607421875;
/** -0x1.9fe368p6f: below it expf underflows to 0. */
const EXPF_UNDERFLOW = -103.972076416015625;

/** Replaces `values[from..to)` by glibc's `expf` of each (see the table's comment). */
export function expfInPlace(values: Float32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const x = values[i]!;
    if (!(Math.abs(x) < 88)) {
      // |x| >= 88 or NaN
      if (x === -Infinity || x < EXPF_UNDERFLOW) {
        values[i] = 0;
        continue;
      }
      if (x !== x || x > EXPF_OVERFLOW) {
        values[i] = x !== x ? x : Infinity;
        continue;
      }
    }
    const z = INV_LN2_N * x;
    const shifted = z + ROUND_SHIFT;
    bits[0] = shifted;
    const ki = words[LOW]!;
    const r = z - (shifted - ROUND_SHIFT);
    const t = ki & 31;
    // 2^(k/32): table entry t with k shifted into the exponent (k << 47 adds k << 15 to the high word)
    words[LOW] = EXP2F_LO[t]!;
    words[HIGH] = (EXP2F_HI[t]! + (ki << 15)) >>> 0;
    const s = bits[0]!;
    const p = EXPF_C0 * r + EXPF_C1;
    const y = p * (r * r) + (EXPF_C2 * r + 1);
    values[i] = y * s; // (float)(y * s)
  }
}

/** `Sigmoid(x) = 1.0f / (1.0f + std::exp(-x))` in float over `values[from..to)`, in place. */
export function sigmoidInPlace(values: Float32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) values[i] = -values[i]!;
  expfInPlace(values, from, to);
  for (let i = from; i < to; i++) values[i] = f(1 / f(1 + values[i]!));
}

/**
 * `BuildBilinearInterpolation`'s results and the samples blended with them: `corners` = element offsets
 * of the top-left, top-right, bottom-left and bottom-right neighbours (channel 0), `lerps` = [y weight,
 * x weight], `samples` = values written by `blend`.
 */
export interface Bilinear {
  readonly corners: Int32Array;
  readonly lerps: Float32Array;
  readonly samples: Float32Array;
}

/** A `Bilinear` work area with room for `samples` blended values. */
export function bilinear(samples = 2): Bilinear {
  return { corners: new Int32Array(4), lerps: new Float32Array(2), samples: new Float32Array(samples) };
}

/**
 * `BuildBilinearInterpolation` at the point ([y, x] in `point`) of a [height, width, numChannels] grid,
 * into `b`. Per axis (`BuildLinearInterpolation`): the cell edges around the coordinate clamped to
 * [0, n − 1], and the weight `x - floor` — from the unclamped coordinate, as Coral does, so it leaves
 * [0, 1] outside the grid.
 */
export function bilinearInterpolation(point: Float32Array, height: number, width: number, numChannels: number, b: Bilinear): void {
  const y = point[0]!;
  const x = point[1]!;
  const py = clamp(y, 0, f(height - 1));
  const px = clamp(x, 0, f(width - 1));
  const y0 = Math.floor(py) | 0;
  const y1 = Math.ceil(py) | 0;
  const x0 = Math.floor(px) | 0;
  const x1 = Math.ceil(px) | 0;
  b.lerps[0] = y - y0;
  b.lerps[1] = x - x0;
  const c = b.corners;
  c[0] = (y0 * width + x0) * numChannels;
  c[1] = (y0 * width + x1) * numChannels;
  c[2] = (y1 * width + x0) * numChannels;
  c[3] = (y1 * width + x1) * numChannels;
}

/**
 * One channel of a bilinear sample into `b.samples[slot]`:
 * `(1 - yl) * ((1 - xl) * t[tl + c] + xl * t[tr + c]) + yl * ((1 - xl) * t[bl + c] + xl * t[br + c])`,
 * every operation rounded to float.
 */
export function blend(t: Float32Array, b: Bilinear, c: number, slot: number): void {
  const k = b.corners;
  const yl = b.lerps[0]!;
  const xl = b.lerps[1]!;
  const oy = f(1 - yl);
  const ox = f(1 - xl);
  const top = f(f(ox * t[k[0]! + c]!) + f(xl * t[k[1]! + c]!));
  const bottom = f(f(ox * t[k[2]! + c]!) + f(xl * t[k[3]! + c]!));
  b.samples[slot] = f(oy * top) + f(yl * bottom);
}

/**
 * `SampleTensorAtMultipleChannels`: the [height, width, numChannels] tensor sampled bilinearly at
 * `point` ([y, x]) in channels `channels[0..n)`, into `b.samples[0..n)` (`SampleTensorAtSingleChannel`
 * is n = 1).
 */
export function sampleChannels(
  tensor: Float32Array,
  height: number,
  width: number,
  numChannels: number,
  point: Float32Array,
  channels: ArrayLike<number>,
  n: number,
  b: Bilinear,
): void {
  bilinearInterpolation(point, height, width, numChannels, b);
  for (let i = 0; i < n; i++) blend(tensor, b, channels[i]!, i);
}

/**
 * Samples channels `cy` and `cx` at `point` and moves the point by them, clamped to the grid:
 * `y = clamp(y + dy, 0, height - 1)`, `x = clamp(x + dx, 0, width - 1)`.
 */
export function followOffsets(
  offsets: Float32Array,
  height: number,
  width: number,
  numChannels: number,
  cy: number,
  cx: number,
  point: Float32Array,
  b: Bilinear,
): void {
  bilinearInterpolation(point, height, width, numChannels, b);
  blend(offsets, b, cy, 0);
  blend(offsets, b, cx, 1);
  point[0] = clamp(f(point[0]! + b.samples[0]!), 0, f(height - 1));
  point[1] = clamp(f(point[1]! + b.samples[1]!), 0, f(width - 1));
}

/**
 * `FindDisplacedPosition`: from `point` ([y, x]) follow edge `edgeId`'s mid-range offsets (channels
 * `edgeId` and `numEdges + edgeId` of the [height, width, 4·numEdges] mid offsets), then refine by the
 * target keypoint's short-range offsets (channels `targetId` and `numKeypoints + targetId`) `steps`
 * times. `point` receives the result.
 */
export function findDisplacedPosition(
  shortOffsets: Float32Array,
  midOffsets: Float32Array,
  height: number,
  width: number,
  numKeypoints: number,
  numEdges: number,
  edgeId: number,
  targetId: number,
  steps: number,
  point: Float32Array,
  b: Bilinear,
): void {
  followOffsets(midOffsets, height, width, 4 * numEdges, edgeId, numEdges + edgeId, point, b);
  for (let i = 0; i < steps; i++) followOffsets(shortOffsets, height, width, 2 * numKeypoints, targetId, numKeypoints + targetId, point, b);
}
