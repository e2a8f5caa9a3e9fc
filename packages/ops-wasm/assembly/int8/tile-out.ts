// The outputs of the int8 GEMM register tiles (conv.ts's dot_i16x8 tile and conv-relaxed.ts's relaxed-dot
// tile): requantization of the accumulators of a 4-pixel x 8-channel tile (or the 4-pixel x 4-channel tile
// of a last half group) and the stores of their int8 (`u8`: uint8) outputs, `np` pixels `stride` bytes
// apart, `n` channels of the group (fewer than eight in a last group).
import { narrow8, narrowClamp8, narrowClampU8, narrowU8, requantLanes, requantLanesRight, requantRightWith, rightBase, rightStep, roundWithZpV, storeBytes } from './requant';
import { RQ_M, RQ_SCALE, RQ_X_HI, RQ_X_LO } from '../generated/abi';

/** Requantized accumulator (per-lane parameters at `rq`) plus the output zero point. */
@inline export function requant(acc: v128, rq: usize, rightOnly: bool, zp: v128): v128 {
  return i32x4.add(rightOnly ? requantLanesRight(acc, rq) : requantLanes(acc, rq), zp);
}

/** Eight int8 (`u8`: uint8) outputs from two requantized vectors (requantLanesRight's are already within the activation range). */
@inline export function pack8(a: v128, b: v128, rightOnly: bool, lo: v128, hi: v128, u8: bool = false): v128 {
  if (u8) return rightOnly ? narrowU8(a, b) : narrowClampU8(a, b, lo, hi);
  return rightOnly ? narrow8(a, b) : narrowClamp8(a, b, lo, hi);
}

/** Stores the eight (or `n` < 8) int8 outputs of lanes 0-7 of `v` at `p`. */
@inline export function store8(p: usize, v: v128, n: i32): void {
  if (n >= 8) v128.store64_lane(p, v, 0);
  else storeBytes(p, v, n);
}

/**
 * Requantizes and stores a 4-pixel x 8-channel tile: accumulators `a*` (channels 0-3, blocks at `r`) and
 * `b*` (channels 4-7, at `rB`) of pixels 0-3, to `oc`. Right-only blocks (the constant `rightOnly`, see
 * requant.ts) load each block's vectors once for the four pixels.
 */
@inline export function storeTile8(a0: v128, a1: v128, a2: v128, a3: v128, b0: v128, b1: v128, b2: v128, b3: v128, r: usize, rB: usize, oc: usize, stride: usize, n: i32, np: i32, rightOnly: bool, lo: v128, hi: v128, zp: v128, u8: bool): void {
  if (rightOnly) {
    const zr = roundWithZpV(zp); // requantRightWith's round with zp
    let m = v128.load(r, RQ_M), xHi = v128.load(r, RQ_X_HI), xLo = v128.load(r, RQ_X_LO), scale = v128.load(r, RQ_SCALE);
    let base = rightBase(scale, zr), step = rightStep(scale);
    a0 = requantRightWith(a0, m, xHi, xLo, scale, base, step);
    a1 = requantRightWith(a1, m, xHi, xLo, scale, base, step);
    a2 = requantRightWith(a2, m, xHi, xLo, scale, base, step);
    a3 = requantRightWith(a3, m, xHi, xLo, scale, base, step);
    m = v128.load(rB, RQ_M);
    xHi = v128.load(rB, RQ_X_HI);
    xLo = v128.load(rB, RQ_X_LO);
    scale = v128.load(rB, RQ_SCALE);
    base = rightBase(scale, zr);
    step = rightStep(scale);
    b0 = requantRightWith(b0, m, xHi, xLo, scale, base, step);
    b1 = requantRightWith(b1, m, xHi, xLo, scale, base, step);
    b2 = requantRightWith(b2, m, xHi, xLo, scale, base, step);
    b3 = requantRightWith(b3, m, xHi, xLo, scale, base, step);
    store8(oc, pack8(a0, b0, true, lo, hi, u8), n);
    if (np > 1) store8(oc + stride, pack8(a1, b1, true, lo, hi, u8), n);
    if (np > 2) store8(oc + 2 * stride, pack8(a2, b2, true, lo, hi, u8), n);
    if (np > 3) store8(oc + 3 * stride, pack8(a3, b3, true, lo, hi, u8), n);
  } else {
    store8(oc, pack8(requant(a0, r, false, zp), requant(b0, rB, false, zp), false, lo, hi, u8), n);
    if (np > 1) store8(oc + stride, pack8(requant(a1, r, false, zp), requant(b1, rB, false, zp), false, lo, hi, u8), n);
    if (np > 2) store8(oc + 2 * stride, pack8(requant(a2, r, false, zp), requant(b2, rB, false, zp), false, lo, hi, u8), n);
    if (np > 3) store8(oc + 3 * stride, pack8(requant(a3, r, false, zp), requant(b3, rB, false, zp), false, lo, hi, u8), n);
  }
}

/** Requantizes and stores the 4-pixel x 4-channel tile of a last group of `n` (at most four) channels. */
@inline export function storeTile4(a0: v128, a1: v128, a2: v128, a3: v128, r: usize, oc: usize, stride: usize, n: i32, np: i32, rightOnly: bool, lo: v128, hi: v128, zp: v128, u8: bool): void {
  a0 = requant(a0, r, rightOnly, zp);
  storeBytes(oc, pack8(a0, a0, rightOnly, lo, hi, u8), n);
  if (np > 1) {
    a1 = requant(a1, r, rightOnly, zp);
    storeBytes(oc + stride, pack8(a1, a1, rightOnly, lo, hi, u8), n);
  }
  if (np > 2) {
    a2 = requant(a2, r, rightOnly, zp);
    storeBytes(oc + 2 * stride, pack8(a2, a2, rightOnly, lo, hi, u8), n);
  }
  if (np > 3) {
    a3 = requant(a3, r, rightOnly, zp);
    storeBytes(oc + 3 * stride, pack8(a3, a3, rightOnly, lo, hi, u8), n);
  }
}
