/**
 * arm_s8_to_s16_unordered_with_offset (DSP): widens int8 to int16 adding an offset, four at a time with
 * two SXTAB16 (bytes 0/2, then bytes 1/3 through ROR #8), so each block of four lands as `x0 x2 x1 x3`.
 * The tail (`n % 4`) is converted in order. Consumers read the block with read_and_pad_reordered weights.
 */
import type { SimdMachine } from '../machine.js';

/** Fast mode: same layout, plain JS. `src` and `dst` may share memory as in arm_convolve_s8's ping-pong. */
export function s8ToS16UnorderedFast(src: Int8Array, si: number, dst: Int16Array, di: number, n: number, offset: number): void {
  let blocks = n >> 2;
  while (blocks > 0) {
    const x0 = src[si]!;
    const x1 = src[si + 1]!;
    const x2 = src[si + 2]!;
    const x3 = src[si + 3]!;
    dst[di] = x0 + offset;
    dst[di + 1] = x2 + offset;
    dst[di + 2] = x1 + offset;
    dst[di + 3] = x3 + offset;
    si += 4;
    di += 4;
    blocks--;
  }
  let tail = n & 3;
  while (tail > 0) {
    dst[di++] = src[si++]! + offset;
    tail--;
  }
}

/** Emulated mode: PKHBT, LDR, SXTAB16, SXTAB16 ROR #8, two STR per block. */
export function s8ToS16UnorderedEmu(
  m: SimdMachine,
  src: Int8Array,
  si: number,
  dst: Int16Array,
  di: number,
  n: number,
  offset: number,
): void {
  m.call();
  const offsetX2 = m.pkhbt(offset, offset, 16);
  let blocks = n >> 2;
  while (blocks > 0) {
    const w = m.ldS8x4(src, si);
    const even = m.sxtab16(offsetX2, w);
    const odd = m.sxtab16Ror8(offsetX2, w);
    m.stQ15x2(dst, di, even);
    m.stQ15x2(dst, di + 2, odd);
    si += 4;
    di += 4;
    m.alu(2);
    m.loop();
    blocks--;
  }
  let tail = n & 3;
  while (tail > 0) {
    m.stH(dst, di++, m.add(m.ldS8(src, si++), offset));
    m.loop();
    tail--;
  }
}
