/**
 * arm_max_pool_s8 (DSP build): the first tap of each clipped window is copied to the output
 * (arm_memcpy_s8), each further tap is merged four channels per word (compare_and_replace_if_larger_q7:
 * one word load of each, four byte compares), and finally the whole output is clamped to the activation
 * range four bytes per word (clamp_output). No scratch.
 */
import type { SimdMachine } from '../machine.js';
import type { PoolParams } from './types-pool.js';

/** Fast mode. */
export function maxPoolS8Fast(p: PoolParams, src: Int8Array, dst: Int8Array): void {
  const ch = p.ch;
  const batchSize = p.inW * p.inH * ch;
  let out = 0;
  for (let b = 0; b < p.batches; b++) {
    const base = b * batchSize;
    const dstBase = out;
    for (let oy = 0, idxY = -p.padH; oy < p.outH; idxY += p.strideH, oy++) {
      for (let ox = 0, idxX = -p.padW; ox < p.outW; idxX += p.strideW, ox++) {
        const kyS = Math.max(0, -idxY);
        const kxS = Math.max(0, -idxX);
        const kyE = Math.min(p.kH, p.inH - idxY);
        const kxE = Math.min(p.kW, p.inW - idxX);
        let first = true;
        for (let ky = kyS; ky < kyE; ky++) {
          for (let kx = kxS; kx < kxE; kx++) {
            const start = base + ch * (kx + idxX + (ky + idxY) * p.inW);
            if (first) {
              for (let i = 0; i < ch; i++) dst[out + i] = src[start + i]!;
              first = false;
            } else {
              for (let i = 0; i < ch; i++) {
                const v = src[start + i]!;
                if (v > dst[out + i]!) dst[out + i] = v;
              }
            }
          }
        }
        out += ch;
      }
    }
    for (let i = dstBase; i < out; i++) {
      let v = dst[i]!;
      v = v > p.actMin ? v : p.actMin;
      dst[i] = v < p.actMax ? v : p.actMax;
    }
  }
}

/** Emulated mode. */
export function maxPoolS8Emu(m: SimdMachine, p: PoolParams, src: Int8Array, dst: Int8Array): void {
  m.call();
  m.alu(16);
  m.branch();
  const ch = p.ch;
  const batchSize = p.inW * p.inH * ch;
  let out = 0;
  for (let b = 0; b < p.batches; b++) {
    const base = b * batchSize;
    const dstBase = out;
    for (let oy = 0, idxY = -p.padH; oy < p.outH; idxY += p.strideH, oy++) {
      for (let ox = 0, idxX = -p.padW; ox < p.outW; idxX += p.strideW, ox++) {
        const kyS = m.max(0, -idxY);
        const kxS = m.max(0, -idxX);
        const kyE = m.min(p.kH, p.inH - idxY);
        const kxE = m.min(p.kW, p.inW - idxX);
        m.alu(4);
        let first = true;
        for (let ky = kyS; ky < kyE; ky++) {
          for (let kx = kxS; kx < kxE; kx++) {
            const start = base + ch * (kx + idxX + (ky + idxY) * p.inW);
            m.alu(4);
            m.branch();
            if (first) {
              m.memcpy8(dst, out, src, start, ch);
              first = false;
            } else {
              m.call(); // compare_and_replace_if_larger_q7
              let i = 0;
              for (; i + 4 <= ch; i += 4) {
                const ref = m.ldS8x4(dst, out + i);
                const cmp = m.ldS8x4(src, start + i);
                let word = ref;
                for (let k = 0; k < 4; k++) {
                  const shiftK = k * 8;
                  const rb = (ref << (24 - shiftK)) >> 24;
                  const cb = (cmp << (24 - shiftK)) >> 24;
                  m.alu(3); // extract, compare
                  m.branch();
                  if (cb > rb) {
                    word = (word & ~(0xff << shiftK)) | ((cb & 0xff) << shiftK);
                    m.alu(1); // byte insert (BFI)
                  }
                }
                m.stS8x4(dst, out + i, word);
                m.loop();
              }
              for (; i < ch; i++) {
                const v = m.ldS8(src, start + i);
                const d = m.ldS8(dst, out + i);
                m.alu(1);
                m.branch();
                if (v > d) m.stB(dst, out + i, v);
                m.loop();
              }
            }
            m.loop();
          }
          m.loop();
        }
        out += ch;
        m.alu(1);
        m.loop();
      }
      m.loop();
    }
    // clamp_output over the batch's output, word by word
    m.call();
    let i = dstBase;
    for (; i + 4 <= out; i += 4) {
      let word = m.ldS8x4(dst, i);
      for (let k = 0; k < 4; k++) {
        const shiftK = k * 8;
        let v = (word << (24 - shiftK)) >> 24;
        v = m.max(v, p.actMin);
        v = m.min(v, p.actMax);
        word = (word & ~(0xff << shiftK)) | ((v & 0xff) << shiftK);
        m.alu(2); // extract + insert
      }
      m.stS8x4(dst, i, word);
      m.loop();
    }
    for (; i < out; i++) {
      let v = m.ldS8(dst, i);
      v = m.max(v, p.actMin);
      v = m.min(v, p.actMax);
      m.stB(dst, i, v);
      m.loop();
    }
    m.alu(1);
    m.loop();
  }
}
