import { describe, expect, it } from 'vitest';
import { HASH, fingerprint64 } from './farmhash.js';

/**
 * A straight BigInt transcription of farmhashna::Hash64 (google/farmhash), as the reference the
 * word-pair implementation is checked against (BigInt is fine in a test).
 */
const M64 = (1n << 64n) - 1n;
const k0 = 0xc3a5c85c97cb3127n;
const k1 = 0xb492b66fbe98f273n;
const k2 = 0x9ae16a3b2f90404fn;
const w = (x: bigint) => x & M64;
const rot = (v: bigint, s: number) => (s === 0 ? v : w((v >> BigInt(s)) | (v << BigInt(64 - s))));
const mix = (v: bigint) => v ^ (v >> 47n);
function fetch(s: Uint8Array, p: number): bigint {
  let v = 0n;
  for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(s[p + k]!);
  return v;
}
function fetch32(s: Uint8Array, p: number): bigint {
  let v = 0n;
  for (let k = 3; k >= 0; k--) v = (v << 8n) | BigInt(s[p + k]!);
  return v;
}
function hashLen16(u: bigint, v: bigint, mul: bigint): bigint {
  let a = w((u ^ v) * mul);
  a ^= a >> 47n;
  let b = w((v ^ a) * mul);
  b ^= b >> 47n;
  return w(b * mul);
}
function reference(s: Uint8Array): bigint {
  const len = s.length;
  const L = BigInt(len);
  if (len <= 16) {
    if (len >= 8) {
      const mul = w(k2 + L * 2n);
      const a = w(fetch(s, 0) + k2);
      const b = fetch(s, len - 8);
      const c = w(w(rot(b, 37) * mul) + a);
      const d = w(w(rot(a, 25) + b) * mul);
      return hashLen16(c, d, mul);
    }
    if (len >= 4) {
      const mul = w(k2 + L * 2n);
      return hashLen16(w(L + (fetch32(s, 0) << 3n)), fetch32(s, len - 4), mul);
    }
    if (len > 0) {
      const y = BigInt((s[0]! + (s[len >> 1]! << 8)) >>> 0);
      const z = BigInt((len + (s[len - 1]! << 2)) >>> 0);
      return w(mix(w(y * k2) ^ w(z * k0)) * k2);
    }
    return k2;
  }
  if (len <= 32) {
    const mul = w(k2 + L * 2n);
    const a = w(fetch(s, 0) * k1);
    const b = fetch(s, 8);
    const c = w(fetch(s, len - 8) * mul);
    const d = w(fetch(s, len - 16) * k2);
    return hashLen16(w(rot(w(a + b), 43) + rot(c, 30) + d), w(a + rot(w(b + k2), 18) + c), mul);
  }
  if (len <= 64) {
    const mul = w(k2 + L * 2n);
    const a = w(fetch(s, 0) * k2);
    const b = fetch(s, 8);
    const c = w(fetch(s, len - 8) * mul);
    const d = w(fetch(s, len - 16) * k2);
    const y = w(rot(w(a + b), 43) + rot(c, 30) + d);
    const z = hashLen16(y, w(a + rot(w(b + k2), 18) + c), mul);
    const e = w(fetch(s, 16) * mul);
    const f = fetch(s, 24);
    const g = w(w(y + fetch(s, len - 32)) * mul);
    const h = w(w(z + fetch(s, len - 24)) * mul);
    return hashLen16(w(rot(w(e + f), 43) + rot(g, 30) + h), w(e + rot(w(f + a), 18) + g), mul);
  }
  const weak = (p: number, a0: bigint, b0: bigint): [bigint, bigint] => {
    let a = w(a0 + fetch(s, p));
    let b = rot(w(b0 + a + fetch(s, p + 24)), 21);
    const c = a;
    a = w(a + fetch(s, p + 8));
    a = w(a + fetch(s, p + 16));
    b = w(b + rot(a, 44));
    return [w(a + fetch(s, p + 24)), w(b + c)];
  };
  let x = 81n;
  let y = w(81n * k1 + 113n);
  let z = w(mix(w(y * k2 + 113n)) * k2);
  let v: [bigint, bigint] = [0n, 0n];
  let ww: [bigint, bigint] = [0n, 0n];
  x = w(x * k2 + fetch(s, 0));
  const end = Math.floor((len - 1) / 64) * 64;
  const last64 = end + ((len - 1) & 63) - 63;
  let p = 0;
  do {
    x = w(rot(w(x + y + v[0] + fetch(s, p + 8)), 37) * k1);
    y = w(rot(w(y + v[1] + fetch(s, p + 48)), 42) * k1);
    x ^= ww[1];
    y = w(y + v[0] + fetch(s, p + 40));
    z = w(rot(w(z + ww[0]), 33) * k1);
    v = weak(p, w(v[1] * k1), w(x + ww[0]));
    ww = weak(p + 32, w(z + ww[1]), w(y + fetch(s, p + 16)));
    [z, x] = [x, z];
    p += 64;
  } while (p !== end);
  const mul = w(k1 + ((z & 0xffn) << 1n));
  p = last64;
  ww[0] = w(ww[0] + BigInt((len - 1) & 63));
  v[0] = w(v[0] + ww[0]);
  ww[0] = w(ww[0] + v[0]);
  x = w(rot(w(x + y + v[0] + fetch(s, p + 8)), 37) * mul);
  y = w(rot(w(y + v[1] + fetch(s, p + 48)), 42) * mul);
  x ^= w(ww[1] * 9n);
  y = w(y + w(v[0] * 9n) + fetch(s, p + 40));
  z = w(rot(w(z + ww[0]), 33) * mul);
  v = weak(p, w(v[1] * mul), w(x + ww[0]));
  ww = weak(p + 32, w(z + ww[1]), w(y + fetch(s, p + 16)));
  [z, x] = [x, z];
  return hashLen16(w(hashLen16(v[0], ww[0], mul) + w(mix(y) * k0) + z), w(hashLen16(v[1], ww[1], mul) + x), mul);
}

describe('farmhash Fingerprint64 on int32 word pairs', () => {
  it('equals a BigInt transcription of farmhashna::Hash64 for every length 0 … 300', () => {
    let seed = 12345;
    for (let len = 0; len <= 300; len++) {
      const s = Uint8Array.from({ length: len + 3 }, () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
      fingerprint64(s, 3, len);
      const got = (BigInt(HASH[1]! >>> 0) << 32n) | BigInt(HASH[0]! >>> 0);
      expect(got, `length ${len}`).toBe(reference(s.subarray(3)));
    }
  });
});
