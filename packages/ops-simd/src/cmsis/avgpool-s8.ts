/**
 * arm_avgpool_s8 (DSP build): for each output pixel the clipped window is summed per channel into an
 * int32 scratch row (first tap copied, later taps added with QADD), then every channel is divided by the
 * tap count with rounding half away from zero (`(sum +- count/2) / count`, C division) and clamped.
 *
 * Scratch (arm_avgpool_s8_get_buffer_size, DSP): `C` int32.
 */
import type { SimdMachine } from '../machine.js';
import { qadd } from '../intrinsics.js';
import type { PoolParams } from './types-pool.js';

/** Bytes of scratch arm_avgpool_s8 needs (DSP build). */
export function avgpoolS8BufferSize(ch: number): number {
  return ch * 4;
}

/** Fast mode. `buffer` is the int32 scratch row. */
export function avgpoolS8Fast(p: PoolParams, src: Int8Array, dst: Int8Array, buffer: Int32Array): void {
  const ch = p.ch;
  const batchSize = p.inW * p.inH * ch;
  let out = 0;
  for (let b = 0; b < p.batches; b++) {
    const base = b * batchSize;
    for (let oy = 0, idxY = -p.padH; oy < p.outH; idxY += p.strideH, oy++) {
      for (let ox = 0, idxX = -p.padW; ox < p.outW; idxX += p.strideW, ox++) {
        const kyS = Math.max(0, -idxY);
        const kxS = Math.max(0, -idxX);
        const kyE = Math.min(p.kH, p.inH - idxY);
        const kxE = Math.min(p.kW, p.inW - idxX);
        let count = 0;
        for (let ky = kyS; ky < kyE; ky++) {
          for (let kx = kxS; kx < kxE; kx++) {
            const start = base + ch * (kx + idxX + (ky + idxY) * p.inW);
            if (count === 0) for (let i = 0; i < ch; i++) buffer[i] = src[start + i]!;
            else for (let i = 0; i < ch; i++) buffer[i] = qadd(src[start + i]!, buffer[i]!);
            count++;
          }
        }
        const half = (count / 2) | 0;
        for (let i = 0; i < ch; i++) {
          const v = buffer[i]!;
          let sum = ((v > 0 ? v + half : v - half) / count) | 0;
          sum = sum > p.actMin ? sum : p.actMin;
          dst[out++] = sum < p.actMax ? sum : p.actMax;
        }
      }
    }
  }
}

/** Emulated mode. */
export function avgpoolS8Emu(m: SimdMachine, p: PoolParams, src: Int8Array, dst: Int8Array, buffer: Int32Array): void {
  m.call();
  m.alu(16);
  m.branch(2);
  const ch = p.ch;
  const batchSize = p.inW * p.inH * ch;
  let out = 0;
  for (let b = 0; b < p.batches; b++) {
    const base = b * batchSize;
    for (let oy = 0, idxY = -p.padH; oy < p.outH; idxY += p.strideH, oy++) {
      for (let ox = 0, idxX = -p.padW; ox < p.outW; idxX += p.strideW, ox++) {
        const kyS = m.max(0, -idxY);
        const kxS = m.max(0, -idxX);
        const kyE = m.min(p.kH, p.inH - idxY);
        const kxE = m.min(p.kW, p.inW - idxX);
        m.alu(4);
        let count = 0;
        for (let ky = kyS; ky < kyE; ky++) {
          for (let kx = kxS; kx < kxE; kx++) {
            const start = base + ch * (kx + idxX + (ky + idxY) * p.inW);
            m.alu(4);
            m.branch();
            if (count === 0) {
              for (let i = 0; i < ch; i++) {
                m.stW(buffer, i, m.ldS8(src, start + i));
                m.loop();
              }
            } else {
              for (let i = 0; i < ch; i++) {
                m.stW(buffer, i, m.qadd(m.ldS8(src, start + i), m.ldW(buffer, i)));
                m.loop();
              }
            }
            count++;
            m.alu(1);
            m.loop();
          }
          m.loop();
        }
        m.branch(); // count == 0 check
        m.call(); // scale_q31_to_q7_and_clamp
        const half = (count / 2) | 0;
        m.alu(2);
        for (let i = 0; i < ch; i++) {
          const v = m.ldW(buffer, i);
          m.alu(2); // compare, add or subtract half
          let sum = m.sdiv(v > 0 ? v + half : v - half, count);
          sum = m.max(sum, p.actMin);
          sum = m.min(sum, p.actMax);
          m.stB(dst, out++, sum);
          m.loop();
        }
        m.loop();
      }
      m.loop();
    }
    m.alu(1);
    m.loop();
  }
}
