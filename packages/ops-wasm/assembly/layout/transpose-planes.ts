// TRANSPOSE's SIMD paths for pixels of C = 2, 3 or 4 elements of 1, 2 or 4 bytes (transpose.ts picks them):
// interleave<C>x<es> gathers C planes (`stride` bytes apart) into C-element pixels (NCHW → NHWC), 16 bytes of
// each plane per step; deinterleave<C>x<es> splits packed C-element pixels into C planes (`plane` bytes apart,
// NHWC → NCHW), 16·C bytes per step. Output vector k of interleave holds bytes 16k … 16k + 15 of the pixel
// stream: stream byte j is byte j % es of element e = j / es, pixel e / C of plane e % C; deinterleave is
// the inverse. How the vectors are formed, by what V8 lowers well on x64 (measured):
// - C = 2 and 4: log2(C) rounds of whole-element unpacks, t[2i] = lo(r[i], r[i + C/2]), t[2i+1] = hi(…)
//   (interleave), or of even/odd unzips, t[i] = even(r[2i], r[2i+1]), t[i + C/2] = odd(…) (deinterleave);
// - C = 3, 1- and 2-byte elements: each vector the OR of one i8x16.swizzle per source vector with a constant
//   mask (0x80 where another source supplies the byte); a general two-source i8x16.shuffle rebuilds its mask
//   every time and was 2-4x slower;
// - C = 3, 4-byte elements: two i8x16.shuffle (whole 32-bit lanes), faster than the swizzles.
// The 2- and 4-plane paths are written once over the element size (zipLo/zipHi/evens/odds below); the
// 3-plane lane lists and swizzle masks are those rules written out, checked byte for byte against
// ops-reference by src/kernels/transpose.test.ts. The last pixels (fewer than 16 / es) go one at a time.

/** Elements 0-7/es of `a` and `b` interleaved, element by element (es bytes each; es a constant). */
@inline function zipLo(a: v128, b: v128, es: i32): v128 {
  if (es == 1) return i8x16.shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  if (es == 2) return i8x16.shuffle(a, b, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  return i8x16.shuffle(a, b, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
}

/** The upper halves' elements of `a` and `b` interleaved. */
@inline function zipHi(a: v128, b: v128, es: i32): v128 {
  if (es == 1) return i8x16.shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  if (es == 2) return i8x16.shuffle(a, b, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  return i8x16.shuffle(a, b, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
}

/** The even elements of `a` then of `b`. */
@inline function evens(a: v128, b: v128, es: i32): v128 {
  if (es == 1) return i8x16.shuffle(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  if (es == 2) return i8x16.shuffle(a, b, 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29);
  return i8x16.shuffle(a, b, 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27);
}

/** The odd elements of `a` then of `b`. */
@inline function odds(a: v128, b: v128, es: i32): v128 {
  if (es == 1) return i8x16.shuffle(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  if (es == 2) return i8x16.shuffle(a, b, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31);
  return i8x16.shuffle(a, b, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31);
}

/** Copies one element of `es` bytes. */
@inline function copyElement(dst: usize, src: usize, es: i32): void {
  if (es == 1) store<u8>(dst, load<u8>(src));
  else if (es == 2) store<u16>(dst, load<u16>(src));
  else store<u32>(dst, load<u32>(src));
}

/** 2 planes of es-byte elements → 2-element pixels, 16 / es pixels (32 bytes) per step. */
@inline function interleave2(src: usize, stride: usize, out: usize, pixels: i32, es: i32): void {
  const n = 16 / es;
  let p = 0;
  for (; p + n <= pixels; p += n) {
    const at = src + <usize>(p * es);
    const v0 = v128.load(at);
    const v1 = v128.load(at + stride);
    const o = out + <usize>(p * 2 * es);
    v128.store(o, zipLo(v0, v1, es));
    v128.store(o, zipHi(v0, v1, es), 16);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * es), o = out + <usize>(p * 2 * es);
    copyElement(o, at, es);
    copyElement(o + <usize>es, at + stride, es);
  }
}

/** 2-element pixels of es-byte elements → 2 planes (`plane` bytes apart), 16 / es pixels per step. */
@inline function deinterleave2(src: usize, out: usize, plane: usize, pixels: i32, es: i32): void {
  const n = 16 / es;
  let p = 0;
  for (; p + n <= pixels; p += n) {
    const at = src + <usize>(p * 2 * es);
    const u0 = v128.load(at);
    const u1 = v128.load(at, 16);
    const o = out + <usize>(p * es);
    v128.store(o, evens(u0, u1, es));
    v128.store(o + plane, odds(u0, u1, es));
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 2 * es), o = out + <usize>(p * es);
    copyElement(o, at, es);
    copyElement(o + plane, at + <usize>es, es);
  }
}

/** 4 planes of es-byte elements → 4-element pixels, 16 / es pixels (64 bytes) per step: two rounds of zips. */
@inline function interleave4(src: usize, stride: usize, out: usize, pixels: i32, es: i32): void {
  const n = 16 / es;
  let p = 0;
  for (; p + n <= pixels; p += n) {
    const at = src + <usize>(p * es);
    const v0 = v128.load(at);
    const v1 = v128.load(at + stride);
    const v2 = v128.load(at + 2 * stride);
    const v3 = v128.load(at + 3 * stride);
    const a0 = zipLo(v0, v2, es), a1 = zipHi(v0, v2, es);
    const a2 = zipLo(v1, v3, es), a3 = zipHi(v1, v3, es);
    const o = out + <usize>(p * 4 * es);
    v128.store(o, zipLo(a0, a2, es));
    v128.store(o, zipHi(a0, a2, es), 16);
    v128.store(o, zipLo(a1, a3, es), 32);
    v128.store(o, zipHi(a1, a3, es), 48);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * es), o = out + <usize>(p * 4 * es);
    for (let k = 0; k < 4; k++) copyElement(o + <usize>(k * es), at + <usize>k * stride, es);
  }
}

/** 4-element pixels of es-byte elements → 4 planes (`plane` bytes apart), 16 / es pixels per step: two rounds of unzips. */
@inline function deinterleave4(src: usize, out: usize, plane: usize, pixels: i32, es: i32): void {
  const n = 16 / es;
  let p = 0;
  for (; p + n <= pixels; p += n) {
    const at = src + <usize>(p * 4 * es);
    const u0 = v128.load(at);
    const u1 = v128.load(at, 16);
    const u2 = v128.load(at, 32);
    const u3 = v128.load(at, 48);
    const b0 = evens(u0, u1, es), b2 = odds(u0, u1, es);
    const b1 = evens(u2, u3, es), b3 = odds(u2, u3, es);
    const o = out + <usize>(p * es);
    v128.store(o, evens(b0, b1, es));
    v128.store(o + plane, evens(b2, b3, es));
    v128.store(o + 2 * plane, odds(b0, b1, es));
    v128.store(o + 3 * plane, odds(b2, b3, es));
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 4 * es), o = out + <usize>(p * es);
    for (let k = 0; k < 4; k++) copyElement(o + <usize>k * plane, at + <usize>(k * es), es);
  }
}

export function interleave2x1(src: usize, stride: usize, out: usize, pixels: i32): void {
  interleave2(src, stride, out, pixels, 1);
}
export function interleave2x2(src: usize, stride: usize, out: usize, pixels: i32): void {
  interleave2(src, stride, out, pixels, 2);
}
export function interleave2x4(src: usize, stride: usize, out: usize, pixels: i32): void {
  interleave2(src, stride, out, pixels, 4);
}
export function deinterleave2x1(src: usize, out: usize, plane: usize, pixels: i32): void {
  deinterleave2(src, out, plane, pixels, 1);
}
export function deinterleave2x2(src: usize, out: usize, plane: usize, pixels: i32): void {
  deinterleave2(src, out, plane, pixels, 2);
}
export function deinterleave2x4(src: usize, out: usize, plane: usize, pixels: i32): void {
  deinterleave2(src, out, plane, pixels, 4);
}
export function interleave4x1(src: usize, stride: usize, out: usize, pixels: i32): void {
  interleave4(src, stride, out, pixels, 1);
}
export function interleave4x2(src: usize, stride: usize, out: usize, pixels: i32): void {
  interleave4(src, stride, out, pixels, 2);
}
export function interleave4x4(src: usize, stride: usize, out: usize, pixels: i32): void {
  interleave4(src, stride, out, pixels, 4);
}
export function deinterleave4x1(src: usize, out: usize, plane: usize, pixels: i32): void {
  deinterleave4(src, out, plane, pixels, 1);
}
export function deinterleave4x2(src: usize, out: usize, plane: usize, pixels: i32): void {
  deinterleave4(src, out, plane, pixels, 2);
}
export function deinterleave4x4(src: usize, out: usize, plane: usize, pixels: i32): void {
  deinterleave4(src, out, plane, pixels, 4);
}

// 3 planes of 1-byte elements → 3-element pixels, 16 pixels (48 bytes) per step
export function interleave3x1(src: usize, stride: usize, out: usize, pixels: i32): void {
  const m0 = i8x16(0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128, 5);
  const m1 = i8x16(-128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128);
  const m2 = i8x16(-128, -128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128);
  const m3 = i8x16(-128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10, -128);
  const m4 = i8x16(5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10);
  const m5 = i8x16(-128, 5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128);
  const m6 = i8x16(-128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128, -128);
  const m7 = i8x16(-128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128);
  const m8 = i8x16(10, -128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15);
  let p = 0;
  for (; p + 16 <= pixels; p += 16) {
    const at = src + <usize>(p * 1);
    const v0 = v128.load(at);
    const v1 = v128.load(at + stride);
    const v2 = v128.load(at + 2 * stride);
    const o0 = v128.or(v128.or(i8x16.swizzle(v0, m0), i8x16.swizzle(v1, m1)), i8x16.swizzle(v2, m2));
    const o1 = v128.or(v128.or(i8x16.swizzle(v0, m3), i8x16.swizzle(v1, m4)), i8x16.swizzle(v2, m5));
    const o2 = v128.or(v128.or(i8x16.swizzle(v0, m6), i8x16.swizzle(v1, m7)), i8x16.swizzle(v2, m8));
    const o = out + <usize>(p * 3);
    v128.store(o, o0);
    v128.store(o, o1, 16);
    v128.store(o, o2, 32);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 1), o = out + <usize>(p * 3);
    store<u8>(o, load<u8>(at), 0);
    store<u8>(o, load<u8>(at + stride), 1);
    store<u8>(o, load<u8>(at + 2 * stride), 2);
  }
}

// 3-element pixels of 1-byte elements → 3 planes (`plane` bytes apart), 16 pixels per step
export function deinterleave3x1(src: usize, out: usize, plane: usize, pixels: i32): void {
  const m0 = i8x16(0, 3, 6, 9, 12, 15, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128);
  const m1 = i8x16(-128, -128, -128, -128, -128, -128, 2, 5, 8, 11, 14, -128, -128, -128, -128, -128);
  const m2 = i8x16(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 1, 4, 7, 10, 13);
  const m3 = i8x16(1, 4, 7, 10, 13, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128);
  const m4 = i8x16(-128, -128, -128, -128, -128, 0, 3, 6, 9, 12, 15, -128, -128, -128, -128, -128);
  const m5 = i8x16(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 2, 5, 8, 11, 14);
  const m6 = i8x16(2, 5, 8, 11, 14, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128);
  const m7 = i8x16(-128, -128, -128, -128, -128, 1, 4, 7, 10, 13, -128, -128, -128, -128, -128, -128);
  const m8 = i8x16(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 0, 3, 6, 9, 12, 15);
  let p = 0;
  for (; p + 16 <= pixels; p += 16) {
    const at = src + <usize>(p * 3);
    const u0 = v128.load(at);
    const u1 = v128.load(at, 16);
    const u2 = v128.load(at, 32);
    const q0 = v128.or(v128.or(i8x16.swizzle(u0, m0), i8x16.swizzle(u1, m1)), i8x16.swizzle(u2, m2));
    const q1 = v128.or(v128.or(i8x16.swizzle(u0, m3), i8x16.swizzle(u1, m4)), i8x16.swizzle(u2, m5));
    const q2 = v128.or(v128.or(i8x16.swizzle(u0, m6), i8x16.swizzle(u1, m7)), i8x16.swizzle(u2, m8));
    const o = out + <usize>(p * 1);
    v128.store(o, q0);
    v128.store(o + plane, q1);
    v128.store(o + 2 * plane, q2);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 3), o = out + <usize>(p * 1);
    store<u8>(o, load<u8>(at, 0));
    store<u8>(o + plane, load<u8>(at, 1));
    store<u8>(o + 2 * plane, load<u8>(at, 2));
  }
}

// 3 planes of 2-byte elements → 3-element pixels, 8 pixels (48 bytes) per step
export function interleave3x2(src: usize, stride: usize, out: usize, pixels: i32): void {
  const m0 = i8x16(0, 1, -128, -128, -128, -128, 2, 3, -128, -128, -128, -128, 4, 5, -128, -128);
  const m1 = i8x16(-128, -128, 0, 1, -128, -128, -128, -128, 2, 3, -128, -128, -128, -128, 4, 5);
  const m2 = i8x16(-128, -128, -128, -128, 0, 1, -128, -128, -128, -128, 2, 3, -128, -128, -128, -128);
  const m3 = i8x16(-128, -128, 6, 7, -128, -128, -128, -128, 8, 9, -128, -128, -128, -128, 10, 11);
  const m4 = i8x16(-128, -128, -128, -128, 6, 7, -128, -128, -128, -128, 8, 9, -128, -128, -128, -128);
  const m5 = i8x16(4, 5, -128, -128, -128, -128, 6, 7, -128, -128, -128, -128, 8, 9, -128, -128);
  const m6 = i8x16(-128, -128, -128, -128, 12, 13, -128, -128, -128, -128, 14, 15, -128, -128, -128, -128);
  const m7 = i8x16(10, 11, -128, -128, -128, -128, 12, 13, -128, -128, -128, -128, 14, 15, -128, -128);
  const m8 = i8x16(-128, -128, 10, 11, -128, -128, -128, -128, 12, 13, -128, -128, -128, -128, 14, 15);
  let p = 0;
  for (; p + 8 <= pixels; p += 8) {
    const at = src + <usize>(p * 2);
    const v0 = v128.load(at);
    const v1 = v128.load(at + stride);
    const v2 = v128.load(at + 2 * stride);
    const o0 = v128.or(v128.or(i8x16.swizzle(v0, m0), i8x16.swizzle(v1, m1)), i8x16.swizzle(v2, m2));
    const o1 = v128.or(v128.or(i8x16.swizzle(v0, m3), i8x16.swizzle(v1, m4)), i8x16.swizzle(v2, m5));
    const o2 = v128.or(v128.or(i8x16.swizzle(v0, m6), i8x16.swizzle(v1, m7)), i8x16.swizzle(v2, m8));
    const o = out + <usize>(p * 6);
    v128.store(o, o0);
    v128.store(o, o1, 16);
    v128.store(o, o2, 32);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 2), o = out + <usize>(p * 6);
    store<u16>(o, load<u16>(at), 0);
    store<u16>(o, load<u16>(at + stride), 2);
    store<u16>(o, load<u16>(at + 2 * stride), 4);
  }
}

// 3-element pixels of 2-byte elements → 3 planes (`plane` bytes apart), 8 pixels per step
export function deinterleave3x2(src: usize, out: usize, plane: usize, pixels: i32): void {
  const m0 = i8x16(0, 1, 6, 7, 12, 13, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128);
  const m1 = i8x16(-128, -128, -128, -128, -128, -128, 2, 3, 8, 9, 14, 15, -128, -128, -128, -128);
  const m2 = i8x16(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 4, 5, 10, 11);
  const m3 = i8x16(2, 3, 8, 9, 14, 15, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128);
  const m4 = i8x16(-128, -128, -128, -128, -128, -128, 4, 5, 10, 11, -128, -128, -128, -128, -128, -128);
  const m5 = i8x16(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 0, 1, 6, 7, 12, 13);
  const m6 = i8x16(4, 5, 10, 11, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128);
  const m7 = i8x16(-128, -128, -128, -128, 0, 1, 6, 7, 12, 13, -128, -128, -128, -128, -128, -128);
  const m8 = i8x16(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, 2, 3, 8, 9, 14, 15);
  let p = 0;
  for (; p + 8 <= pixels; p += 8) {
    const at = src + <usize>(p * 6);
    const u0 = v128.load(at);
    const u1 = v128.load(at, 16);
    const u2 = v128.load(at, 32);
    const q0 = v128.or(v128.or(i8x16.swizzle(u0, m0), i8x16.swizzle(u1, m1)), i8x16.swizzle(u2, m2));
    const q1 = v128.or(v128.or(i8x16.swizzle(u0, m3), i8x16.swizzle(u1, m4)), i8x16.swizzle(u2, m5));
    const q2 = v128.or(v128.or(i8x16.swizzle(u0, m6), i8x16.swizzle(u1, m7)), i8x16.swizzle(u2, m8));
    const o = out + <usize>(p * 2);
    v128.store(o, q0);
    v128.store(o + plane, q1);
    v128.store(o + 2 * plane, q2);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 6), o = out + <usize>(p * 2);
    store<u16>(o, load<u16>(at, 0));
    store<u16>(o + plane, load<u16>(at, 2));
    store<u16>(o + 2 * plane, load<u16>(at, 4));
  }
}

// 3 planes of 4-byte elements → 3-element pixels, 4 pixels (48 bytes) per step
export function interleave3x4(src: usize, stride: usize, out: usize, pixels: i32): void {
  let p = 0;
  for (; p + 4 <= pixels; p += 4) {
    const at = src + <usize>(p * 4);
    const v0 = v128.load(at);
    const v1 = v128.load(at + stride);
    const v2 = v128.load(at + 2 * stride);
    const o0a = i8x16.shuffle(v0, v1, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 4, 5, 6, 7);
    const o0 = i8x16.shuffle(o0a, v2, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 12, 13, 14, 15);
    const o1a = i8x16.shuffle(v0, v1, 20, 21, 22, 23, 4, 5, 6, 7, 8, 9, 10, 11, 24, 25, 26, 27);
    const o1 = i8x16.shuffle(o1a, v2, 0, 1, 2, 3, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15);
    const o2a = i8x16.shuffle(v0, v1, 0, 1, 2, 3, 12, 13, 14, 15, 28, 29, 30, 31, 12, 13, 14, 15);
    const o2 = i8x16.shuffle(o2a, v2, 24, 25, 26, 27, 4, 5, 6, 7, 8, 9, 10, 11, 28, 29, 30, 31);
    const o = out + <usize>(p * 12);
    v128.store(o, o0);
    v128.store(o, o1, 16);
    v128.store(o, o2, 32);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 4), o = out + <usize>(p * 12);
    store<u32>(o, load<u32>(at), 0);
    store<u32>(o, load<u32>(at + stride), 4);
    store<u32>(o, load<u32>(at + 2 * stride), 8);
  }
}

// 3-element pixels of 4-byte elements → 3 planes (`plane` bytes apart), 4 pixels per step
export function deinterleave3x4(src: usize, out: usize, plane: usize, pixels: i32): void {
  let p = 0;
  for (; p + 4 <= pixels; p += 4) {
    const at = src + <usize>(p * 12);
    const u0 = v128.load(at);
    const u1 = v128.load(at, 16);
    const u2 = v128.load(at, 32);
    const q0a = i8x16.shuffle(u0, u1, 0, 1, 2, 3, 12, 13, 14, 15, 24, 25, 26, 27, 12, 13, 14, 15);
    const q0 = i8x16.shuffle(q0a, u2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 20, 21, 22, 23);
    const q1a = i8x16.shuffle(u0, u1, 4, 5, 6, 7, 16, 17, 18, 19, 28, 29, 30, 31, 12, 13, 14, 15);
    const q1 = i8x16.shuffle(q1a, u2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 24, 25, 26, 27);
    const q2a = i8x16.shuffle(u0, u1, 8, 9, 10, 11, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15);
    const q2 = i8x16.shuffle(q2a, u2, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 28, 29, 30, 31);
    const o = out + <usize>(p * 4);
    v128.store(o, q0);
    v128.store(o + plane, q1);
    v128.store(o + 2 * plane, q2);
  }
  for (; p < pixels; p++) {
    const at = src + <usize>(p * 12), o = out + <usize>(p * 4);
    store<u32>(o, load<u32>(at, 0));
    store<u32>(o + plane, load<u32>(at, 4));
    store<u32>(o + 2 * plane, load<u32>(at, 8));
  }
}
