// Relaxed-SIMD int8 CONV_2D / FULLY_CONNECTED tile (compiled into the relaxed builds only): the same
// 4-pixel x 8-channel register tile as conv.ts, over int8 operands without widening, with
// i32x4.relaxed_dot_i8x16_i7x16_add_s: each lane adds four products of four consecutive bytes, so a
// 16-value block meets a weight vector holding four channels x four values, and the block's four lane
// rotations (plain loads at +4r of its doubled copy) meet four weight vectors (XNNPACK's "c4s4").
//
// Exactness with the 7-bit operand: the instruction is exact for a second operand in [0, 127] only; its
// top bit is implementation-defined. The loader probes the engine once (src/wasm-module.ts) and takes
// this tile only where the probe shows exact 8-bit products without saturation: `usdot` (the second
// operand read unsigned, as x86 VNNI's vpdpbusd; W_DOT_MODE 1) or `sdot` (read signed, as Arm's SDOT;
// W_DOT_MODE 2). Activations are the second operand: for usdot they are biased to unsigned (x ^ 0x80 =
// x + 128, in [0, 255]) as they are copied into the rows, and prepare folds -128 * sum(w) into the bias;
// for sdot they are copied as they are. Everywhere else (Node 20's experimental lowering doubles the
// sum; a saturating pmaddubsw lowering) the relaxed build packs for conv.ts's dot_i16x8 tile.
//
// Packed weights (src/kernels/weight-pack.ts, packGemmRelaxed), per group of eight output channels:
//   [8 folded biases, int32]
//   then for each 16-value block, for each rotation r = 0..3: channels 0-3 then 4-7, lane j holding the
//   four bytes w[4g .. 4g+3] of the block with g = (j + r) mod 4 (128 bytes per block).
// A last group of at most four channels holds 4 biases and channels 0-3 only (64 bytes per block).
import { narrow8, requantRightWith, rightBase, rightStep, roundWithZpV, storeBytes } from './requant';
import { RQ_M, RQ_SCALE, RQ_X_HI, RQ_X_LO } from '../generated/abi';
import { narrowClamp8, requantLanes, requantLanesRight } from './requant';

/** Bytes of one block of the tile's four rows: four pixels x (16 bytes stored twice), as conv.ts's slices. */
const BLOCK_BYTES: usize = 128;

/**
 * Copies `blocks` 16-byte blocks from `x` into `e`, each stored twice and XORed with `bias` (0x80 or 0 per
 * byte), BLOCK_BYTES apart (the tile's four pixels interleaved per block: pixel i's at +32 i).
 */
@inline export function copyBlocks(x: usize, blocks: i32, e: usize, bias: v128): void {
  for (let k = 0; k < blocks; k++) {
    const v = v128.xor(v128.load(x), bias);
    v128.store(e, v);
    v128.store(e, v, 16);
    x += 16;
    e += BLOCK_BYTES;
  }
}

@inline function rqRight(acc: v128, m: v128, xHi: v128, xLo: v128, scale: v128, base: v128, step: v128): v128 {
  return requantRightWith(acc, m, xHi, xLo, scale, base, step);
}

@inline function requant(acc: v128, rq: usize, rightOnly: bool, zp: v128): v128 {
  return i32x4.add(rightOnly ? requantLanesRight(acc, rq) : requantLanes(acc, rq), zp);
}

@inline function pack8(a: v128, b: v128, rightOnly: bool, lo: v128, hi: v128): v128 {
  return rightOnly ? narrow8(a, b) : narrowClamp8(a, b, lo, hi);
}

@inline function store8(p: usize, v: v128, n: i32): void {
  if (n >= 8) v128.store64_lane(p, v, 0);
  else storeBytes(p, v, n);
}

/** One 4-pixel x 8-channel tile over `blocks` blocks; returns the weights' end. */
@inline function tile8r(w: usize, biasA: v128, biasB: v128, x0: usize, blocks: i32, r: usize, rB: usize, oc: usize, stride: usize, n: i32, np: i32, rightOnly: bool, lo: v128, hi: v128, zp: v128): usize {
  let a0 = biasA, a1 = biasA, a2 = biasA, a3 = biasA;
  let b0 = biasB, b1 = biasB, b2 = biasB, b3 = biasB;
  let x = x0;
  for (let k = 0; k < blocks; k++) {
    for (let j = 0; j < 4; j++) {
      const wa = v128.load(w);
      const wb = v128.load(w, 16);
      let v = v128.load(x);
      a0 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v, a0);
      b0 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wb, v, b0);
      v = v128.load(x, 32);
      a1 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v, a1);
      b1 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wb, v, b1);
      v = v128.load(x, 64);
      a2 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v, a2);
      b2 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wb, v, b2);
      v = v128.load(x, 96);
      a3 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v, a3);
      b3 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wb, v, b3);
      x += 4;
      w += 32;
    }
    x += BLOCK_BYTES - 16;
  }
  if (rightOnly) {
    const zr = roundWithZpV(zp); // requantRightWith's round with zp
    let m = v128.load(r, RQ_M), xHi = v128.load(r, RQ_X_HI), xLo = v128.load(r, RQ_X_LO), scale = v128.load(r, RQ_SCALE);
    let base = rightBase(scale, zr), step = rightStep(scale);
    a0 = rqRight(a0, m, xHi, xLo, scale, base, step);
    a1 = rqRight(a1, m, xHi, xLo, scale, base, step);
    a2 = rqRight(a2, m, xHi, xLo, scale, base, step);
    a3 = rqRight(a3, m, xHi, xLo, scale, base, step);
    m = v128.load(rB, RQ_M);
    xHi = v128.load(rB, RQ_X_HI);
    xLo = v128.load(rB, RQ_X_LO);
    scale = v128.load(rB, RQ_SCALE);
    base = rightBase(scale, zr);
    step = rightStep(scale);
    b0 = rqRight(b0, m, xHi, xLo, scale, base, step);
    b1 = rqRight(b1, m, xHi, xLo, scale, base, step);
    b2 = rqRight(b2, m, xHi, xLo, scale, base, step);
    b3 = rqRight(b3, m, xHi, xLo, scale, base, step);
    store8(oc, narrow8(a0, b0), n);
    if (np > 1) store8(oc + stride, narrow8(a1, b1), n);
    if (np > 2) store8(oc + 2 * stride, narrow8(a2, b2), n);
    if (np > 3) store8(oc + 3 * stride, narrow8(a3, b3), n);
  } else {
    store8(oc, pack8(requant(a0, r, false, zp), requant(b0, rB, false, zp), false, lo, hi), n);
    if (np > 1) store8(oc + stride, pack8(requant(a1, r, false, zp), requant(b1, rB, false, zp), false, lo, hi), n);
    if (np > 2) store8(oc + 2 * stride, pack8(requant(a2, r, false, zp), requant(b2, rB, false, zp), false, lo, hi), n);
    if (np > 3) store8(oc + 3 * stride, pack8(requant(a3, r, false, zp), requant(b3, rB, false, zp), false, lo, hi), n);
  }
  return w;
}

/** The 4-pixel x 4-channel tile of a last group of at most four channels. */
@inline function tile4r(w: usize, bias: v128, x0: usize, blocks: i32, r: usize, oc: usize, stride: usize, n: i32, np: i32, rightOnly: bool, lo: v128, hi: v128, zp: v128): void {
  let a0 = bias, a1 = bias, a2 = bias, a3 = bias;
  let x = x0;
  for (let k = 0; k < blocks; k++) {
    for (let j = 0; j < 4; j++) {
      const wa = v128.load(w);
      a0 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v128.load(x), a0);
      a1 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v128.load(x, 32), a1);
      a2 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v128.load(x, 64), a2);
      a3 = i32x4.relaxed_dot_i8x16_i7x16_add_s(wa, v128.load(x, 96), a3);
      x += 4;
      w += 16;
    }
    x += BLOCK_BYTES - 16;
  }
  a0 = requant(a0, r, rightOnly, zp);
  storeBytes(oc, pack8(a0, a0, rightOnly, lo, hi), n);
  if (np > 1) {
    a1 = requant(a1, r, rightOnly, zp);
    storeBytes(oc + stride, pack8(a1, a1, rightOnly, lo, hi), n);
  }
  if (np > 2) {
    a2 = requant(a2, r, rightOnly, zp);
    storeBytes(oc + 2 * stride, pack8(a2, a2, rightOnly, lo, hi), n);
  }
  if (np > 3) {
    a3 = requant(a3, r, rightOnly, zp);
    storeBytes(oc + 3 * stride, pack8(a3, a3, rightOnly, lo, hi), n);
  }
}

/** Every channel group's relaxed tile over one tile's rows at `ext`. */
@inline export function tileGroupsRelaxed(packed: usize, rq: usize, rqStride: usize, ext: usize, blocks: i32, full: i32, half: bool, outC: i32, o: usize, stride: usize, np: i32, rightOnly: bool, lo: v128, hi: v128, zp: v128): void {
  let w = packed;
  let r = rq;
  for (let g = 0; g < full; g++) {
    const rB = r + rqStride;
    w = tile8r(w + 32, v128.load(w), v128.load(w, 16), ext, blocks, r, rB, o + <usize>(g << 3), stride, outC - (g << 3), np, rightOnly, lo, hi, zp);
    r = rB + rqStride;
  }
  if (half) tile4r(w + 16, v128.load(w), ext, blocks, r, o + <usize>(full << 3), stride, outC - (full << 3), np, rightOnly, lo, hi, zp);
}
