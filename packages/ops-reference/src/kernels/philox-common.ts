/**
 * TFLite's random number generator (tsl/lib/random/philox_random.h, random_distributions_utils.h) for
 * RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL (TFLite random_ops.cc): Philox-4x32-10 keyed and
 * countered from the op's two 64-bit seeds (`PhiloxRandom(seed, seed2)`), each call returning four
 * uint32, and the conversions TFLite applies to them (Uint32ToFloat, BoxMullerFloat, Uint64ToDouble).
 * The generator's state lives in a Uint32Array kept in the node's op data, so it advances from one invoke
 * to the next as TFLite's does; 32×32-bit products are split in 16-bit halves (no BigInt, no allocation).
 */

const W32A = 0x9e3779b9;
const W32B = 0xbb67ae85;
const M4x32A = 0xd2511f53;
const M4x32B = 0xcd9e8d57;

/** Generator state: key[0..1] at 0–1, counter[0..3] at 2–5. */
export type PhiloxState = Uint32Array;

/** A state for seeds `seed` (key) and `seed2` (counter words 2–3), as `PhiloxRandom(seed, seed2)`. */
export function philoxState(seed: bigint, seed2: bigint): PhiloxState {
  const s = BigInt.asUintN(64, seed);
  const s2 = BigInt.asUintN(64, seed2);
  return Uint32Array.from([Number(s & 0xffffffffn), Number(s >> 32n), 0, 0, Number(s2 & 0xffffffffn), Number(s2 >> 32n)]);
}

/** The high 32 bits of a·b for uint32 a, b (the low ones are Math.imul). */
function mulHi(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const lh = a0 * b1;
  const hl = a1 * b0;
  const mid = ((a0 * b0) >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return (a1 * b1 + (lh >>> 16) + (hl >>> 16) + (mid >>> 16)) >>> 0;
}

/** One call of the generator: 10 rounds on a copy of the counter, written to `out` (4 uint32); the counter advances by one. */
export function philoxNext(state: PhiloxState, out: Uint32Array): void {
  let c0 = state[2]!;
  let c1 = state[3]!;
  let c2 = state[4]!;
  let c3 = state[5]!;
  let k0 = state[0]!;
  let k1 = state[1]!;
  for (let round = 0; round < 10; round++) {
    const hi0 = mulHi(M4x32A, c0);
    const lo0 = Math.imul(M4x32A, c0) >>> 0;
    const hi1 = mulHi(M4x32B, c2);
    const lo1 = Math.imul(M4x32B, c2) >>> 0;
    const n0 = (hi1 ^ c1 ^ k0) >>> 0;
    const n2 = (hi0 ^ c3 ^ k1) >>> 0;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 = (k0 + W32A) >>> 0;
    k1 = (k1 + W32B) >>> 0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
  // SkipOne
  for (let i = 2; i < 6; i++) {
    state[i] = (state[i]! + 1) >>> 0;
    if (state[i] !== 0) break;
  }
}

/** PhiloxRandom::Skip(count) for a count below 2^53. */
export function philoxSkip(state: PhiloxState, count: number): void {
  const lo = count >>> 0;
  let hi = Math.floor(count / 4294967296) >>> 0;
  const c0 = (state[2]! + lo) >>> 0;
  state[2] = c0;
  if (c0 < lo) hi = (hi + 1) >>> 0;
  const c1 = (state[3]! + hi) >>> 0;
  state[3] = c1;
  if (c1 < hi) {
    state[4] = (state[4]! + 1) >>> 0;
    if (state[4] === 0) state[5] = (state[5]! + 1) >>> 0;
  }
}

const F32_BITS = new Uint32Array(1);
const F32_VIEW = new Float32Array(F32_BITS.buffer);

/**
 * Uint32ToFloat of `samples[i]`: a float in [0, 1) from the low 23 bits. (The uint32 is read here rather
 * than passed: a value ≥ 2^31 is no small integer, and passing it to a call that is not inlined boxes it.)
 */
export function uint32ToFloat(samples: Uint32Array, i: number): number {
  F32_BITS[0] = (127 << 23) | (samples[i]! & 0x7fffff);
  return Math.fround(F32_VIEW[0]! - 1);
}

/** Uint64ToDouble of samples[i], samples[i + 1]: a double in [0, 1) from the low 20 bits of the first and all of the second. */
export function uint64ToDouble(samples: Uint32Array, i: number): number {
  return ((samples[i]! & 0xfffff) * 4294967296 + samples[i + 1]!) / 4503599627370496;
}

const TWO_PI_F = 2 * Math.PI;
const EPSILON = Math.fround(1e-7);

/** BoxMullerFloat (the Linux sincosf path) of samples[i], samples[i + 1]: two standard normal floats into out[at], out[at + 1] (when inside `out`). */
export function boxMullerFloat(samples: Uint32Array, i: number, out: Float32Array, at: number): void {
  const f = Math.fround;
  // Uint32ToFloat of both samples, written out here: a double returned by a call that is not inlined is boxed.
  F32_BITS[0] = (127 << 23) | (samples[i]! & 0x7fffff);
  let u1 = f(F32_VIEW[0]! - 1);
  F32_BITS[0] = (127 << 23) | (samples[i + 1]! & 0x7fffff);
  const u = f(F32_VIEW[0]! - 1);
  if (u1 < EPSILON) u1 = EPSILON;
  const v1 = f(TWO_PI_F * u);
  const u2 = f(Math.sqrt(f(-2 * f(Math.log(u1)))));
  out[at] = f(Math.sin(v1)) * u2;
  // TFLite writes the pair's second value past an odd-sized output; it is dropped here.
  if (at + 1 < out.length) out[at + 1] = f(Math.cos(v1)) * u2;
}

/** Seeds for an op whose seeds are both 0: TFLite draws them from the system's random source; so does this. */
export function unseeded(): [bigint, bigint] {
  const words = new Uint32Array(4);
  globalThis.crypto.getRandomValues(words);
  return [(BigInt(words[0]!) << 32n) | BigInt(words[1]!), (BigInt(words[2]!) << 32n) | BigInt(words[3]!)];
}
