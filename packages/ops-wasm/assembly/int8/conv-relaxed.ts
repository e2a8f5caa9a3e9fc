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
import { storeTile4, storeTile8 } from './tile-out';

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
  storeTile8(a0, a1, a2, a3, b0, b1, b2, b3, r, rB, oc, stride, n, np, rightOnly, lo, hi, zp, false);
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
  storeTile4(a0, a1, a2, a3, r, oc, stride, n, np, rightOnly, lo, hi, zp, false);
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
