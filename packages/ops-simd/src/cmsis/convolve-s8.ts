/**
 * arm_convolve_s8 (DSP build): the general convolution path. For each output position it builds one
 * im2col column of `kH*kW*kC` int8 (taps outside the image are filled with the input zero point, so that
 * after adding the input offset they contribute 0), widens it to int16 with the input offset in
 * "unordered" order (arm_s8_to_s16_unordered_with_offset) and, once two columns are ready, runs the 2x2
 * blocked arm_nn_mat_mult_kernel_s8_s16 over all output channels of the group. An odd last position is
 * finished by a one-column dot product per channel. Grouped convolution runs the same per group.
 *
 * Scratch (arm_convolve_s8_get_buffer_size): `2 * aligned_rhs_cols` int16, where `aligned_rhs_cols`
 * rounds `rhs_cols = kH*kW*inC` up to a multiple of 4. The int8 im2col column is assembled at byte
 * offset `2 * aligned_rhs_cols` of the same buffer (a ping-pong with the second int16 column), exactly as
 * CMSIS-NN does, so `buf8` and `buf16` must view the same memory.
 */
import { requantizeClamp } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';
import { matMultKernelS8S16Emu, matMultKernelS8S16Fast, type MatMultKernelArgs } from './mat-mult-kernel-s8-s16.js';
import { s8ToS16UnorderedEmu, s8ToS16UnorderedFast } from './s8-to-s16-unordered.js';
import type { ConvParams } from './types.js';

/** Bytes of scratch arm_convolve_s8 needs (arm_convolve_s8_get_buffer_size, DSP). */
export function convolveS8BufferSize(inC: number, kH: number, kW: number): number {
  const rhsCols = kW * kH * inC;
  const rem = rhsCols % 4;
  const aligned = rem !== 0 ? rhsCols + 4 - rem : rhsCols;
  return 2 * aligned * 2;
}

/** Per-node working state: the parameter block, the scratch views and the reusable kernel arguments. */
export interface ConvolveS8Work {
  p: ConvParams;
  buf8: Int8Array;
  buf16: Int16Array;
  kernel: MatMultKernelArgs;
}

/** Creates the reusable kernel-argument block (once, in prepare). */
export function newMatMultKernelArgs(p: ConvParams): MatMultKernelArgs {
  const none8 = new Int8Array(0);
  return {
    a: none8,
    aBase: 0,
    b: new Int16Array(0),
    outCh: 0,
    chBase: 0,
    multiplier: p.multiplier,
    shift: p.shift,
    bias: null,
    outOffset: p.outputOffset,
    actMin: p.actMin,
    actMax: p.actMax,
    numColA: 0,
    alignedNumColA: 0,
    out: none8,
    out0: 0,
    out1: 0,
    aView: null,
    aViewBase: -1,
    bView: null,
    bViewBase: -1,
  };
}

/** Fast mode. */
export function convolveS8Fast(w: ConvolveS8Work, input: Int8Array, filter: Int8Array, bias: Int32Array | null, output: Int8Array): void {
  const p = w.p;
  const buf8 = w.buf8;
  const buf16 = w.buf16;
  const k = w.kernel;
  const inH = p.inH;
  const inW = p.inW;
  const inC = p.inC;
  const kH = p.kH;
  const kW = p.kW;
  const kC = p.kC;
  const outH = p.outH;
  const outW = p.outW;
  const outC = p.outC;
  const groups = (inC / kC) | 0;
  const cpg = (outC / groups) | 0;
  const rhsCols = kW * kH * kC;
  const rem = rhsCols % 4;
  const aligned = rem !== 0 ? rhsCols + 4 - rem : rhsCols;
  const inputOffset = p.inputOffset;
  const padValue = (-inputOffset << 24) >> 24;
  k.a = filter;
  k.b = buf16;
  k.bias = bias;
  k.out = output;
  k.outCh = cpg;
  k.numColA = rhsCols;
  k.alignedNumColA = aligned;
  for (let batch = 0; batch < p.batches; batch++) {
    const inBase = batch * inH * inW * inC;
    const outBase = batch * outH * outW * outC;
    for (let grp = 0; grp < groups; grp++) {
      let col8 = aligned * 2;
      let col16 = 0;
      let lhsRows = 0;
      let firstOut = 0;
      for (let oy = 0; oy < outH; oy++) {
        for (let ox = 0; ox < outW; ox++) {
          const baseY = p.strideH * oy - p.padH;
          const baseX = p.strideW * ox - p.padW;
          for (let ky = 0; ky < kH; ky++) {
            const y = baseY + p.dilH * ky;
            for (let kx = 0; kx < kW; kx++) {
              const x = baseX + p.dilW * kx;
              if (y < 0 || y >= inH || x < 0 || x >= inW) {
                buf8.fill(padValue, col8, col8 + kC);
              } else {
                const src = inBase + (y * inW + x) * inC + grp * kC;
                for (let c = 0; c < kC; c++) buf8[col8 + c] = input[src + c]!;
              }
              col8 += kC;
            }
          }
          lhsRows++;
          s8ToS16UnorderedFast(buf8, col8 - rhsCols, buf16, col16, rhsCols, inputOffset);
          col16 += aligned;
          const outIdx = outBase + (oy * outW + ox) * outC + grp * cpg;
          if (lhsRows === 2) {
            k.aBase = grp * cpg * rhsCols;
            k.chBase = grp * cpg;
            k.out0 = firstOut;
            k.out1 = outIdx;
            matMultKernelS8S16Fast(k);
            col16 = 0;
            col8 = aligned * 2;
            lhsRows = 0;
          } else {
            firstOut = outIdx;
          }
        }
      }
      if (lhsRows !== 0) oddPositionFast(p, k, grp * cpg, cpg, firstOut, filter, bias, buf16, output);
    }
  }
}

/**
 * The last column of an odd number of output positions against channels `ch0..ch0+n` (CMSIS-NN's
 * left-over loop): per four columns one weight word widened with read_and_pad (`(w0, w2)`, `(w1, w3)`)
 * and two halfword-pair words of the unordered column, then the in-order tail.
 */
function oddPositionFast(
  p: ConvParams,
  k: MatMultKernelArgs,
  ch0: number,
  n: number,
  out: number,
  filter: Int8Array,
  bias: Int32Array | null,
  buf16: Int16Array,
  output: Int8Array,
): void {
  const rhsCols = k.numColA;
  const words = k.aViewBase >= 0 && k.bViewBase >= 0;
  const av = k.aView!;
  const bv = k.bView!;
  let ia = ch0 * rhsCols;
  for (let i = 0; i < n; i++) {
    const ch = ch0 + i;
    let sum = bias !== null ? bias[ch]! : 0;
    let ib = 0;
    if (words) {
      for (let colCount = rhsCols >> 2, pa = k.aViewBase + ia, pb = k.bViewBase; colCount > 0; colCount--, pa += 4, pb += 8) {
        const w = av.getInt32(pa, true);
        const x = bv.getInt32(pb, true); // x0 | x2
        const y = bv.getInt32(pb + 4, true); // x1 | x3
        sum =
          (sum +
            ((w << 24) >> 24) * ((x << 16) >> 16) +
            ((w << 8) >> 24) * (x >> 16) +
            (((w << 16) >> 24) * ((y << 16) >> 16) + (w >> 24) * (y >> 16))) |
          0;
      }
      ia += rhsCols & ~3;
      ib = rhsCols & ~3;
    } else {
      for (let colCount = rhsCols >> 2; colCount > 0; colCount--, ia += 4, ib += 4) {
        sum =
          (sum +
            filter[ia]! * buf16[ib]! +
            filter[ia + 2]! * buf16[ib + 1]! +
            (filter[ia + 1]! * buf16[ib + 2]! + filter[ia + 3]! * buf16[ib + 3]!)) |
          0;
      }
    }
    for (let colCount = rhsCols & 3; colCount > 0; colCount--) sum = (sum + filter[ia++]! * buf16[ib++]!) | 0;
    output[out + i] = requantizeClamp(sum, p.multiplier[ch]!, p.shift[ch]!, p.outputOffset, p.actMin, p.actMax);
  }
}

/** Emulated mode. */
export function convolveS8Emu(
  m: SimdMachine,
  w: ConvolveS8Work,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  m.call();
  const p = w.p;
  const buf8 = w.buf8;
  const buf16 = w.buf16;
  const k = w.kernel;
  const inH = p.inH;
  const inW = p.inW;
  const inC = p.inC;
  const kH = p.kH;
  const kW = p.kW;
  const kC = p.kC;
  const outH = p.outH;
  const outW = p.outW;
  const outC = p.outC;
  const groups = (inC / kC) | 0;
  const cpg = (outC / groups) | 0;
  const rhsCols = kW * kH * kC;
  const rem = rhsCols % 4;
  const aligned = rem !== 0 ? rhsCols + 4 - rem : rhsCols;
  m.alu(8); // dims, groups, rhs_cols, aligned_rhs_cols
  m.sdiv(inC, kC);
  m.sdiv(outC, groups);
  const inputOffset = p.inputOffset;
  const padValue = (-inputOffset << 24) >> 24;
  k.a = filter;
  k.b = buf16;
  k.bias = bias;
  k.out = output;
  k.outCh = cpg;
  k.numColA = rhsCols;
  k.alignedNumColA = aligned;
  for (let batch = 0; batch < p.batches; batch++) {
    const inBase = batch * inH * inW * inC;
    const outBase = batch * outH * outW * outC;
    m.alu(2);
    for (let grp = 0; grp < groups; grp++) {
      let col8 = aligned * 2;
      let col16 = 0;
      let lhsRows = 0;
      let firstOut = 0;
      m.alu(6);
      for (let oy = 0; oy < outH; oy++) {
        for (let ox = 0; ox < outW; ox++) {
          const baseY = p.strideH * oy - p.padH;
          const baseX = p.strideW * ox - p.padW;
          m.alu(2);
          for (let ky = 0; ky < kH; ky++) {
            const y = baseY + p.dilH * ky;
            for (let kx = 0; kx < kW; kx++) {
              const x = baseX + p.dilW * kx;
              m.alu(6); // k_y, k_x, four bound compares
              m.branch();
              if (y < 0 || y >= inH || x < 0 || x >= inW) {
                m.memset8(buf8, col8, padValue, kC);
              } else {
                const src = inBase + (y * inW + x) * inC + grp * kC;
                m.alu(3);
                m.memcpy8(buf8, col8, input, src, kC);
              }
              col8 += kC;
              m.alu(1);
              m.loop();
            }
            m.loop();
          }
          lhsRows++;
          s8ToS16UnorderedEmu(m, buf8, col8 - rhsCols, buf16, col16, rhsCols, inputOffset);
          col16 += aligned;
          m.alu(3);
          const outIdx = outBase + (oy * outW + ox) * outC + grp * cpg;
          m.branch();
          if (lhsRows === 2) {
            k.aBase = grp * cpg * rhsCols;
            k.chBase = grp * cpg;
            k.out0 = firstOut;
            k.out1 = outIdx;
            matMultKernelS8S16Emu(m, k);
            col16 = 0;
            col8 = aligned * 2;
            lhsRows = 0;
            m.alu(3);
          } else {
            firstOut = outIdx;
          }
          m.loop();
        }
        m.loop();
      }
      m.branch();
      if (lhsRows !== 0) {
        let ia = grp * cpg * rhsCols;
        for (let i = 0; i < cpg; i++) {
          const ch = grp * cpg + i;
          let sum = 0;
          m.branch();
          if (bias !== null) sum = m.ldcW(bias, ch);
          let ib = 0;
          let colCount = rhsCols >> 2;
          m.alu(2);
          while (colCount > 0) {
            const wa = m.ldcS8x4(filter, ia);
            const a2 = m.sxtb16Ror8(wa);
            const a1 = m.sxtb16(wa);
            sum = m.smlad(a1, m.ldQ15x2(buf16, ib), sum);
            sum = m.smlad(a2, m.ldQ15x2(buf16, ib + 2), sum);
            ia += 4;
            ib += 4;
            m.loop();
            colCount--;
          }
          colCount = rhsCols & 3;
          while (colCount > 0) {
            sum = m.mla(m.ldcS8(filter, ia++), m.ldS16(buf16, ib++), sum);
            m.loop();
            colCount--;
          }
          let r = m.add(m.requantize(sum, m.ldW(p.multiplier, ch), m.ldW(p.shift, ch)), p.outputOffset);
          r = m.max(r, p.actMin);
          r = m.min(r, p.actMax);
          m.stB(output, firstOut + i, r);
          m.loop();
        }
      }
      m.alu(4); // advance filter/bias/multiplier/shift pointers to the next group
      m.loop();
    }
    m.loop();
  }
}
