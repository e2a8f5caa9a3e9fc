// TRANSPOSE's SIMD tile transposes (transpose.ts picks them): tile<es> transposes a (16/es)×(16/es) tile of
// es-byte elements, one 16-byte row per vector, in log2(16/es) rounds of t[2i] = lo(r[i], r[i + n/2]),
// t[2i+1] = hi(r[i], r[i + n/2]) (interleaving whole es-byte elements): after the rounds vector i holds
// column i. Reads row i at src + i·sstride, writes column i at dst + i·dstride.

// 16x16 tile of 1-byte elements: row i of the tile at src + i·sstride → column i at dst (rows dstride apart)
@inline export function tile1(src: usize, sstride: usize, dst: usize, dstride: usize): void {
  let r0 = v128.load(src + 0 * sstride);
  let r1 = v128.load(src + 1 * sstride);
  let r2 = v128.load(src + 2 * sstride);
  let r3 = v128.load(src + 3 * sstride);
  let r4 = v128.load(src + 4 * sstride);
  let r5 = v128.load(src + 5 * sstride);
  let r6 = v128.load(src + 6 * sstride);
  let r7 = v128.load(src + 7 * sstride);
  let r8 = v128.load(src + 8 * sstride);
  let r9 = v128.load(src + 9 * sstride);
  let r10 = v128.load(src + 10 * sstride);
  let r11 = v128.load(src + 11 * sstride);
  let r12 = v128.load(src + 12 * sstride);
  let r13 = v128.load(src + 13 * sstride);
  let r14 = v128.load(src + 14 * sstride);
  let r15 = v128.load(src + 15 * sstride);
  const t0_0 = i8x16.shuffle(r0, r8, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_1 = i8x16.shuffle(r0, r8, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t0_2 = i8x16.shuffle(r1, r9, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_3 = i8x16.shuffle(r1, r9, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t0_4 = i8x16.shuffle(r2, r10, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_5 = i8x16.shuffle(r2, r10, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t0_6 = i8x16.shuffle(r3, r11, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_7 = i8x16.shuffle(r3, r11, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t0_8 = i8x16.shuffle(r4, r12, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_9 = i8x16.shuffle(r4, r12, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t0_10 = i8x16.shuffle(r5, r13, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_11 = i8x16.shuffle(r5, r13, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t0_12 = i8x16.shuffle(r6, r14, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_13 = i8x16.shuffle(r6, r14, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t0_14 = i8x16.shuffle(r7, r15, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t0_15 = i8x16.shuffle(r7, r15, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_0 = i8x16.shuffle(t0_0, t0_8, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_1 = i8x16.shuffle(t0_0, t0_8, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_2 = i8x16.shuffle(t0_1, t0_9, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_3 = i8x16.shuffle(t0_1, t0_9, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_4 = i8x16.shuffle(t0_2, t0_10, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_5 = i8x16.shuffle(t0_2, t0_10, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_6 = i8x16.shuffle(t0_3, t0_11, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_7 = i8x16.shuffle(t0_3, t0_11, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_8 = i8x16.shuffle(t0_4, t0_12, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_9 = i8x16.shuffle(t0_4, t0_12, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_10 = i8x16.shuffle(t0_5, t0_13, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_11 = i8x16.shuffle(t0_5, t0_13, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_12 = i8x16.shuffle(t0_6, t0_14, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_13 = i8x16.shuffle(t0_6, t0_14, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t1_14 = i8x16.shuffle(t0_7, t0_15, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t1_15 = i8x16.shuffle(t0_7, t0_15, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_0 = i8x16.shuffle(t1_0, t1_8, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_1 = i8x16.shuffle(t1_0, t1_8, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_2 = i8x16.shuffle(t1_1, t1_9, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_3 = i8x16.shuffle(t1_1, t1_9, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_4 = i8x16.shuffle(t1_2, t1_10, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_5 = i8x16.shuffle(t1_2, t1_10, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_6 = i8x16.shuffle(t1_3, t1_11, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_7 = i8x16.shuffle(t1_3, t1_11, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_8 = i8x16.shuffle(t1_4, t1_12, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_9 = i8x16.shuffle(t1_4, t1_12, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_10 = i8x16.shuffle(t1_5, t1_13, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_11 = i8x16.shuffle(t1_5, t1_13, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_12 = i8x16.shuffle(t1_6, t1_14, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_13 = i8x16.shuffle(t1_6, t1_14, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t2_14 = i8x16.shuffle(t1_7, t1_15, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t2_15 = i8x16.shuffle(t1_7, t1_15, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_0 = i8x16.shuffle(t2_0, t2_8, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_1 = i8x16.shuffle(t2_0, t2_8, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_2 = i8x16.shuffle(t2_1, t2_9, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_3 = i8x16.shuffle(t2_1, t2_9, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_4 = i8x16.shuffle(t2_2, t2_10, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_5 = i8x16.shuffle(t2_2, t2_10, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_6 = i8x16.shuffle(t2_3, t2_11, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_7 = i8x16.shuffle(t2_3, t2_11, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_8 = i8x16.shuffle(t2_4, t2_12, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_9 = i8x16.shuffle(t2_4, t2_12, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_10 = i8x16.shuffle(t2_5, t2_13, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_11 = i8x16.shuffle(t2_5, t2_13, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_12 = i8x16.shuffle(t2_6, t2_14, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_13 = i8x16.shuffle(t2_6, t2_14, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const t3_14 = i8x16.shuffle(t2_7, t2_15, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const t3_15 = i8x16.shuffle(t2_7, t2_15, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  v128.store(dst + 0 * dstride, t3_0);
  v128.store(dst + 1 * dstride, t3_1);
  v128.store(dst + 2 * dstride, t3_2);
  v128.store(dst + 3 * dstride, t3_3);
  v128.store(dst + 4 * dstride, t3_4);
  v128.store(dst + 5 * dstride, t3_5);
  v128.store(dst + 6 * dstride, t3_6);
  v128.store(dst + 7 * dstride, t3_7);
  v128.store(dst + 8 * dstride, t3_8);
  v128.store(dst + 9 * dstride, t3_9);
  v128.store(dst + 10 * dstride, t3_10);
  v128.store(dst + 11 * dstride, t3_11);
  v128.store(dst + 12 * dstride, t3_12);
  v128.store(dst + 13 * dstride, t3_13);
  v128.store(dst + 14 * dstride, t3_14);
  v128.store(dst + 15 * dstride, t3_15);
}

// 8x8 tile of 2-byte elements: row i of the tile at src + i·sstride → column i at dst (rows dstride apart)
@inline export function tile2(src: usize, sstride: usize, dst: usize, dstride: usize): void {
  let r0 = v128.load(src + 0 * sstride);
  let r1 = v128.load(src + 1 * sstride);
  let r2 = v128.load(src + 2 * sstride);
  let r3 = v128.load(src + 3 * sstride);
  let r4 = v128.load(src + 4 * sstride);
  let r5 = v128.load(src + 5 * sstride);
  let r6 = v128.load(src + 6 * sstride);
  let r7 = v128.load(src + 7 * sstride);
  const t0_0 = i8x16.shuffle(r0, r4, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t0_1 = i8x16.shuffle(r0, r4, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t0_2 = i8x16.shuffle(r1, r5, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t0_3 = i8x16.shuffle(r1, r5, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t0_4 = i8x16.shuffle(r2, r6, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t0_5 = i8x16.shuffle(r2, r6, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t0_6 = i8x16.shuffle(r3, r7, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t0_7 = i8x16.shuffle(r3, r7, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t1_0 = i8x16.shuffle(t0_0, t0_4, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t1_1 = i8x16.shuffle(t0_0, t0_4, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t1_2 = i8x16.shuffle(t0_1, t0_5, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t1_3 = i8x16.shuffle(t0_1, t0_5, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t1_4 = i8x16.shuffle(t0_2, t0_6, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t1_5 = i8x16.shuffle(t0_2, t0_6, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t1_6 = i8x16.shuffle(t0_3, t0_7, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t1_7 = i8x16.shuffle(t0_3, t0_7, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t2_0 = i8x16.shuffle(t1_0, t1_4, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t2_1 = i8x16.shuffle(t1_0, t1_4, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t2_2 = i8x16.shuffle(t1_1, t1_5, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t2_3 = i8x16.shuffle(t1_1, t1_5, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t2_4 = i8x16.shuffle(t1_2, t1_6, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t2_5 = i8x16.shuffle(t1_2, t1_6, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  const t2_6 = i8x16.shuffle(t1_3, t1_7, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  const t2_7 = i8x16.shuffle(t1_3, t1_7, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  v128.store(dst + 0 * dstride, t2_0);
  v128.store(dst + 1 * dstride, t2_1);
  v128.store(dst + 2 * dstride, t2_2);
  v128.store(dst + 3 * dstride, t2_3);
  v128.store(dst + 4 * dstride, t2_4);
  v128.store(dst + 5 * dstride, t2_5);
  v128.store(dst + 6 * dstride, t2_6);
  v128.store(dst + 7 * dstride, t2_7);
}

// 4x4 tile of 4-byte elements: row i of the tile at src + i·sstride → column i at dst (rows dstride apart)
@inline export function tile4(src: usize, sstride: usize, dst: usize, dstride: usize): void {
  let r0 = v128.load(src + 0 * sstride);
  let r1 = v128.load(src + 1 * sstride);
  let r2 = v128.load(src + 2 * sstride);
  let r3 = v128.load(src + 3 * sstride);
  const t0_0 = i8x16.shuffle(r0, r2, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const t0_1 = i8x16.shuffle(r0, r2, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  const t0_2 = i8x16.shuffle(r1, r3, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const t0_3 = i8x16.shuffle(r1, r3, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  const t1_0 = i8x16.shuffle(t0_0, t0_2, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const t1_1 = i8x16.shuffle(t0_0, t0_2, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  const t1_2 = i8x16.shuffle(t0_1, t0_3, 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const t1_3 = i8x16.shuffle(t0_1, t0_3, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
  v128.store(dst + 0 * dstride, t1_0);
  v128.store(dst + 1 * dstride, t1_1);
  v128.store(dst + 2 * dstride, t1_2);
  v128.store(dst + 3 * dstride, t1_3);
}

// 2x2 tile of 8-byte elements: row i of the tile at src + i·sstride → column i at dst (rows dstride apart)
@inline export function tile8(src: usize, sstride: usize, dst: usize, dstride: usize): void {
  let r0 = v128.load(src + 0 * sstride);
  let r1 = v128.load(src + 1 * sstride);
  const t0_0 = i8x16.shuffle(r0, r1, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
  const t0_1 = i8x16.shuffle(r0, r1, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
  v128.store(dst + 0 * dstride, t0_0);
  v128.store(dst + 1 * dstride, t0_1);
}
