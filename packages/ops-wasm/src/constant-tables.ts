/**
 * Constant tables the kernels read, kept in each arena memory past the arena (wasm-arena.ts writes them
 * when it creates the memory, and each node that reads them again at its prepare), so they cost no arena
 * bytes and no copy per invoke.
 *
 * Why not the module's own static data: the module has no data segment (wasm-module.ts checks it),
 * because the arena starts at offset 0 of its memory and core owns every byte of [0, arena size). The
 * bytes past the arena belong to the backing (core's ArenaBacking contract): after READ_SLACK bytes for
 * the kernels' over-reads, the last CONSTANT_TABLES_BYTES of the memory hold the tables. Every instance
 * over that memory reads them there: the relaxed-SIMD build the same, and with threads every worker,
 * since the memory is shared. No kernel writes past the arena.
 */
import { SIGMOID_TABLE_UINT16, type ArenaRegion } from '@micrort/core';

/** Bytes of the packed int16 sigmoid table: 256 words. */
export const SIGMOID16_TABLE_BYTES = 1024;

/** Bytes the tables take at the end of every arena memory (a multiple of 16). */
export const CONSTANT_TABLES_BYTES = SIGMOID16_TABLE_BYTES;

/**
 * Fills `words` (256 entries) with the table qs16_logistic / qs16_tanh and qs8_lstm read: entry i is the
 * int16 pair (SIGMOID_TABLE_UINT16[i] − 32768 in the low half, SIGMOID_TABLE_UINT16[i + 1] −
 * SIGMOID_TABLE_UINT16[i] in the high half), entry 255 (32767, 0): the table value and the interpolation
 * slope, so that the kernel's `i32x4.dot_i16x8_s` with (2^bits, fraction) is TFLM's interpolation less
 * 32768 · 2^bits.
 */
export function packSigmoid16Table(words: Int32Array): void {
  const t = SIGMOID_TABLE_UINT16;
  for (let i = 0; i < 256; i++) {
    const slope = i < 255 ? t[i + 1]! - t[i]! : 0;
    words[i] = ((t[i]! - 32768) & 0xffff) | (slope << 16);
  }
}

/** Writes the tables at the end of `buffer` (a new arena memory). */
export function writeConstantTables(buffer: ArrayBufferLike): void {
  packSigmoid16Table(new Int32Array(buffer, buffer.byteLength - CONSTANT_TABLES_BYTES, SIGMOID16_TABLE_BYTES >> 2));
}

/**
 * Memory offset of the packed int16 sigmoid table in the arena memory `region` lies in (only meaningful
 * once kernelsFor gave kernels), for a node's prepare: the tables are written again there (the same
 * bytes), so a memory whose bytes past the arena something else filled between its creation and the
 * allocation (the fuzzer's determinism check pre-fills the whole buffer) still holds them at invoke.
 */
export function sigmoid16TableAt(region: ArenaRegion): number {
  writeConstantTables(region.buffer);
  return region.buffer.byteLength - CONSTANT_TABLES_BYTES;
}
