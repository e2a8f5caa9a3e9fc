/**
 * FarmHash's Fingerprint64 (farmhashna::Hash64 of google/farmhash, what TFLite's `util::Fingerprint64`
 * is; LSH_PROJECTION hashes with it) on little-endian bytes, computed on int32 word pairs: every uint64
 * variable of the C++ is a register of a small word file (`R`, register k at words 2k and 2k + 1, low
 * word first), and the 64-bit operations — wrapping add, sub and multiply (kernel-support's int64.ts),
 * xor, right rotation and shifts, little-endian loads — are written on the words. No BigInt, no
 * allocation: the result is left in the words `HASH[0]`, `HASH[1]`.
 */
import { add64, mul64 } from '@micrort/kernel-support';

/** The register file. */
const R = new Int32Array(64);
/** The last hash, as (low, high) words. */
export const HASH = new Int32Array(2);

// Registers of constants.
const K0 = 30;
const K1 = 29;
const K2 = 28;
const KMUL = 27;
// Scratch registers.
const T0 = 26;
const T1 = 25;
const T2 = 24;
const T3 = 23;

function setConst(d: number, hi: number, lo: number): void {
  R[2 * d] = lo;
  R[2 * d + 1] = hi;
}
setConst(K0, 0xc3a5c85c, 0x97cb3127);
setConst(K1, 0xb492b66f, 0xbe98f273);
setConst(K2, 0x9ae16a3b, 0x2f90404f);
setConst(KMUL, 0x9ddfea08, 0xeb382d69);

const add = (d: number, a: number, b: number): void => add64(R, 2 * d, R, 2 * a, R, 2 * b);
const mul = (d: number, a: number, b: number): void => mul64(R, 2 * d, R, 2 * a, R, 2 * b);
const copy = (d: number, a: number): void => {
  R[2 * d] = R[2 * a]!;
  R[2 * d + 1] = R[2 * a + 1]!;
};
const xor = (d: number, a: number, b: number): void => {
  R[2 * d] = R[2 * a]! ^ R[2 * b]!;
  R[2 * d + 1] = R[2 * a + 1]! ^ R[2 * b + 1]!;
};
/** d = a >> s (logical), 0 < s < 64. */
function shr(d: number, a: number, s: number): void {
  const lo = R[2 * a]! >>> 0;
  const hi = R[2 * a + 1]! >>> 0;
  if (s >= 32) {
    R[2 * d] = hi >>> (s - 32);
    R[2 * d + 1] = 0;
  } else {
    R[2 * d] = (lo >>> s) | (hi << (32 - s));
    R[2 * d + 1] = hi >>> s;
  }
}
/** d = a << s, 0 < s < 64. */
function shl(d: number, a: number, s: number): void {
  const lo = R[2 * a]! >>> 0;
  const hi = R[2 * a + 1]! >>> 0;
  if (s >= 32) {
    R[2 * d + 1] = lo << (s - 32);
    R[2 * d] = 0;
  } else {
    R[2 * d + 1] = (hi << s) | (lo >>> (32 - s));
    R[2 * d] = lo << s;
  }
}
/** d = Rotate64(a, s): right rotation, 0 < s < 64. */
function rot(d: number, a: number, s: number): void {
  shr(T3, a, s);
  shl(d, a, 64 - s);
  R[2 * d] = R[2 * d]! | R[2 * T3]!;
  R[2 * d + 1] = R[2 * d + 1]! | R[2 * T3 + 1]!;
}
/** d = a small non-negative integer. */
function setInt(d: number, v: number): void {
  R[2 * d] = v;
  R[2 * d + 1] = 0;
}
function u32At(s: Uint8Array, p: number): number {
  return s[p]! | (s[p + 1]! << 8) | (s[p + 2]! << 16) | (s[p + 3]! << 24);
}
/** d = Fetch64(s + p). */
function fetch(d: number, s: Uint8Array, p: number): void {
  R[2 * d] = u32At(s, p);
  R[2 * d + 1] = u32At(s, p + 4);
}
/** d = Fetch32(s + p), zero-extended. */
function fetch32(d: number, s: Uint8Array, p: number): void {
  R[2 * d] = u32At(s, p);
  R[2 * d + 1] = 0;
}
/** d ^= d >> 47 (ShiftMix in place of a copy). */
function shiftMix(d: number, a: number): void {
  shr(T3, a, 47);
  xor(d, a, T3);
}

/** d = HashLen16(u, v, mul) (the Murmur-inspired mix; Hash128to64 with mul = kMul). */
function hashLen16(d: number, u: number, v: number, m: number): void {
  xor(T0, u, v);
  mul(T0, T0, m);
  shiftMix(T0, T0);
  xor(T1, v, T0);
  mul(T1, T1, m);
  shiftMix(T1, T1);
  mul(d, T1, m);
}

// Variable registers.
const A = 0,
  B = 1,
  C = 2,
  D = 3,
  E = 4,
  F = 5,
  G = 6,
  H = 7,
  M = 8,
  X = 9,
  Y = 10,
  Z = 11,
  V1 = 12,
  V2 = 13,
  W1 = 14,
  W2 = 15,
  U = 16,
  Q = 17,
  S1 = 18,
  S2 = 19;

/** M = k2 + len * 2. */
function mulOfLength(len: number): void {
  setInt(T2, len * 2);
  add(M, K2, T2);
}

function hashLen0to16(s: Uint8Array, p: number, len: number, d: number): void {
  if (len >= 8) {
    mulOfLength(len);
    fetch(A, s, p);
    add(A, A, K2);
    fetch(B, s, p + len - 8);
    rot(C, B, 37);
    mul(C, C, M);
    add(C, C, A);
    rot(D, A, 25);
    add(D, D, B);
    mul(D, D, M);
    hashLen16(d, C, D, M);
    return;
  }
  if (len >= 4) {
    mulOfLength(len);
    fetch32(A, s, p);
    shl(A, A, 3);
    setInt(T2, len);
    add(A, A, T2);
    fetch32(B, s, p + len - 4);
    hashLen16(d, A, B, M);
    return;
  }
  if (len > 0) {
    const a = s[p]!;
    const b = s[p + (len >> 1)]!;
    const c = s[p + len - 1]!;
    setInt(Y, (a + (b << 8)) >>> 0);
    setInt(Z, (len + (c << 2)) >>> 0);
    mul(Y, Y, K2);
    mul(Z, Z, K0);
    xor(Y, Y, Z);
    shiftMix(Y, Y);
    mul(d, Y, K2);
    return;
  }
  copy(d, K2);
}

function hashLen17to32(s: Uint8Array, p: number, len: number, d: number): void {
  mulOfLength(len);
  fetch(A, s, p);
  mul(A, A, K1);
  fetch(B, s, p + 8);
  fetch(C, s, p + len - 8);
  mul(C, C, M);
  fetch(D, s, p + len - 16);
  mul(D, D, K2);
  // u = Rotate(a + b, 43) + Rotate(c, 30) + d; v = a + Rotate(b + k2, 18) + c
  add(E, A, B);
  rot(E, E, 43);
  rot(F, C, 30);
  add(E, E, F);
  add(E, E, D);
  add(F, B, K2);
  rot(F, F, 18);
  add(F, F, A);
  add(F, F, C);
  hashLen16(d, E, F, M);
}

function hashLen33to64(s: Uint8Array, p: number, len: number, d: number): void {
  mulOfLength(len);
  fetch(A, s, p);
  mul(A, A, K2);
  fetch(B, s, p + 8);
  fetch(C, s, p + len - 8);
  mul(C, C, M);
  fetch(D, s, p + len - 16);
  mul(D, D, K2);
  // y = Rotate(a + b, 43) + Rotate(c, 30) + d
  add(Y, A, B);
  rot(Y, Y, 43);
  rot(T2, C, 30);
  add(Y, Y, T2);
  add(Y, Y, D);
  // z = HashLen16(y, a + Rotate(b + k2, 18) + c, mul)
  add(Q, B, K2);
  rot(Q, Q, 18);
  add(Q, Q, A);
  add(Q, Q, C);
  hashLen16(Z, Y, Q, M);
  fetch(E, s, p + 16);
  mul(E, E, M);
  fetch(F, s, p + 24);
  fetch(G, s, p + len - 32);
  add(G, Y, G);
  mul(G, G, M);
  fetch(H, s, p + len - 24);
  add(H, Z, H);
  mul(H, H, M);
  // HashLen16(Rotate(e + f, 43) + Rotate(g, 30) + h, e + Rotate(f + a, 18) + g, mul)
  add(S1, E, F);
  rot(S1, S1, 43);
  rot(T2, G, 30);
  add(S1, S1, T2);
  add(S1, S1, H);
  add(S2, F, A);
  rot(S2, S2, 18);
  add(S2, S2, E);
  add(S2, S2, G);
  hashLen16(d, S1, S2, M);
}

/**
 * (out1, out2) = WeakHashLen32WithSeeds(Fetch(s), Fetch(s+8), Fetch(s+16), Fetch(s+24), a, b):
 * a += w; b = Rotate(b + a + z, 21); c = a; a += x; a += y; b += Rotate(a, 44); return (a + z, b + c).
 */
function weakHashLen32WithSeeds(s: Uint8Array, p: number, a: number, b: number, out1: number, out2: number): void {
  fetch(T0, s, p); // w
  add(A, a, T0);
  fetch(T1, s, p + 24); // z
  add(B, b, A);
  add(B, B, T1);
  rot(B, B, 21);
  copy(C, A);
  fetch(T0, s, p + 8); // x
  add(A, A, T0);
  fetch(T0, s, p + 16); // y
  add(A, A, T0);
  rot(T2, A, 44);
  add(B, B, T2);
  add(out1, A, T1);
  add(out2, B, C);
}

/** Fingerprint64 of `len` bytes of `s` from `p`; the result is in `HASH`. */
export function fingerprint64(s: Uint8Array, p: number, len: number): void {
  const out = 31;
  if (len <= 16) hashLen0to16(s, p, len, out);
  else if (len <= 32) hashLen17to32(s, p, len, out);
  else if (len <= 64) hashLen33to64(s, p, len, out);
  else hashLong(s, p, len, out);
  HASH[0] = R[2 * out]!;
  HASH[1] = R[2 * out + 1]!;
}

/** Hash64 of more than 64 bytes: the 64-byte loop, then the last 64 bytes. */
function hashLong(s: Uint8Array, p: number, len: number, d: number): void {
  // x = seed; y = seed * k1 + 113; z = ShiftMix(y * k2 + 113) * k2; v = w = (0, 0); x = x * k2 + Fetch(s)
  setInt(X, 81);
  setInt(T2, 113);
  mul(Y, X, K1);
  add(Y, Y, T2);
  mul(Z, Y, K2);
  add(Z, Z, T2);
  shiftMix(Z, Z);
  mul(Z, Z, K2);
  setInt(V1, 0);
  setInt(V2, 0);
  setInt(W1, 0);
  setInt(W2, 0);
  mul(X, X, K2);
  fetch(T2, s, p);
  add(X, X, T2);
  const end = p + Math.floor((len - 1) / 64) * 64;
  const last64 = end + ((len - 1) & 63) - 63;
  let q = p;
  do {
    // x = Rotate(x + y + v.first + Fetch(s + 8), 37) * k1
    add(X, X, Y);
    add(X, X, V1);
    fetch(T2, s, q + 8);
    add(X, X, T2);
    rot(X, X, 37);
    mul(X, X, K1);
    // y = Rotate(y + v.second + Fetch(s + 48), 42) * k1
    add(Y, Y, V2);
    fetch(T2, s, q + 48);
    add(Y, Y, T2);
    rot(Y, Y, 42);
    mul(Y, Y, K1);
    xor(X, X, W2);
    // y += v.first + Fetch(s + 40)
    fetch(T2, s, q + 40);
    add(T2, V1, T2);
    add(Y, Y, T2);
    // z = Rotate(z + w.first, 33) * k1
    add(Z, Z, W1);
    rot(Z, Z, 33);
    mul(Z, Z, K1);
    // v = WeakHashLen32WithSeeds(s, v.second * k1, x + w.first)
    mul(S1, V2, K1);
    add(S2, X, W1);
    weakHashLen32WithSeeds(s, q, S1, S2, V1, V2);
    // w = WeakHashLen32WithSeeds(s + 32, z + w.second, y + Fetch(s + 16))
    add(S1, Z, W2);
    fetch(T2, s, q + 16);
    add(S2, Y, T2);
    weakHashLen32WithSeeds(s, q + 32, S1, S2, W1, W2);
    // swap(z, x)
    copy(U, Z);
    copy(Z, X);
    copy(X, U);
    q += 64;
  } while (q !== end);
  // mul = k1 + ((z & 0xff) << 1)
  setInt(T2, (R[2 * Z]! & 0xff) << 1);
  add(M, K1, T2);
  q = last64;
  // w.first += ((len - 1) & 63); v.first += w.first; w.first += v.first
  setInt(T2, (len - 1) & 63);
  add(W1, W1, T2);
  add(V1, V1, W1);
  add(W1, W1, V1);
  // x = Rotate(x + y + v.first + Fetch(s + 8), 37) * mul
  add(X, X, Y);
  add(X, X, V1);
  fetch(T2, s, q + 8);
  add(X, X, T2);
  rot(X, X, 37);
  mul(X, X, M);
  // y = Rotate(y + v.second + Fetch(s + 48), 42) * mul
  add(Y, Y, V2);
  fetch(T2, s, q + 48);
  add(Y, Y, T2);
  rot(Y, Y, 42);
  mul(Y, Y, M);
  // x ^= w.second * 9
  setInt(T2, 9);
  mul(T2, W2, T2);
  xor(X, X, T2);
  // y += v.first * 9 + Fetch(s + 40)
  setInt(T2, 9);
  mul(T2, V1, T2);
  fetch(U, s, q + 40);
  add(T2, T2, U);
  add(Y, Y, T2);
  // z = Rotate(z + w.first, 33) * mul
  add(Z, Z, W1);
  rot(Z, Z, 33);
  mul(Z, Z, M);
  // v = WeakHashLen32WithSeeds(s, v.second * mul, x + w.first)
  mul(S1, V2, M);
  add(S2, X, W1);
  weakHashLen32WithSeeds(s, q, S1, S2, V1, V2);
  // w = WeakHashLen32WithSeeds(s + 32, z + w.second, y + Fetch(s + 16))
  add(S1, Z, W2);
  fetch(T2, s, q + 16);
  add(S2, Y, T2);
  weakHashLen32WithSeeds(s, q + 32, S1, S2, W1, W2);
  // swap(z, x)
  copy(U, Z);
  copy(Z, X);
  copy(X, U);
  // HashLen16(HashLen16(v.first, w.first, mul) + ShiftMix(y) * k0 + z, HashLen16(v.second, w.second, mul) + x, mul)
  hashLen16(S1, V1, W1, M);
  shiftMix(Q, Y);
  mul(Q, Q, K0);
  add(S1, S1, Q);
  add(S1, S1, Z);
  hashLen16(S2, V2, W2, M);
  add(S2, S2, X);
  hashLen16(d, S1, S2, M);
}
