/**
 * arm_depthwise_conv_s8: the generic depthwise path (depth multiplier other than 1, dilation, or batch > 1).
 * CMSIS-NN has no DSP-instruction version of it; it is plain C with two variants:
 * - depthwise_conv_s8_mult_4 when the depth multiplier is a multiple of 4 (batch 1, no dilation): four
 *   output channels of one input channel share each input load;
 * - depthwise_conv_s8_generic otherwise: one output channel at a time, with the dilated window clipped to
 *   the image (`ker_x_start`, `ker_x_end`, ... computed with C integer division).
 * Scalar MLAs throughout. No scratch.
 */
import { requantizeClamp } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';
import type { ConvParams } from './types.js';
import type { WordOperands } from './word-view.js';

/** Whether arm_depthwise_conv_s8 takes its depthwise_conv_s8_mult_4 variant. */
export function usesMult4(p: ConvParams): boolean {
  return p.chMult % 4 === 0 && p.batches === 1 && p.dilW === 1 && p.dilH === 1;
}

/** Kernel window clipped to the image along one axis (C integer division as CMSIS-NN). */
function windowStart(base: number, dil: number): number {
  return dil > 1 ? Math.max(0, Math.trunc((-base + dil - 1) / dil)) : Math.max(0, -base);
}
function windowEnd(base: number, dil: number, size: number, k: number): number {
  return dil > 1 ? Math.min(k, Math.trunc((size - base + dil - 1) / dil)) : Math.min(k, size - base);
}

/**
 * Fast mode. The mult-4 variant reads its four weights per tap as one word when the weights are viewable
 * (`w.wBase >= 0`).
 */
export function depthwiseConvS8Fast(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  w: WordOperands,
): void {
  const inX = p.inW;
  const inY = p.inH;
  const inC = p.inC;
  const outC = p.outC;
  const chMult = p.chMult;
  const off = p.inputOffset;
  const multiplier = p.multiplier;
  const shift = p.shift;
  const outOff = p.outputOffset;
  const actMin = p.actMin;
  const actMax = p.actMax;
  if (usesMult4(p) && w.wBase >= 0) {
    mult4Words(p, input, bias, output, w);
    return;
  }
  if (usesMult4(p)) {
    let outIdx = 0;
    for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
      const kerHStart = Math.max(0, -inH);
      const kerHEnd = Math.min(p.kH, inY - inH);
      for (let inW = -p.padW, ox = 0; ox < p.outW; inW += p.strideW, ox++) {
        const kerWStart = Math.max(0, -inW);
        const kerWEnd = Math.min(p.kW, inX - inW);
        let b = 0;
        for (let ic = 0, oc = 0; oc < outC; ic++, oc += chMult) {
          for (let tile = 0; tile < chMult; tile += 4) {
            let o0 = 0;
            let o1 = 0;
            let o2 = 0;
            let o3 = 0;
            if (bias !== null) {
              o0 = bias[b]!;
              o1 = bias[b + 1]!;
              o2 = bias[b + 2]!;
              o3 = bias[b + 3]!;
            }
            for (let kh = kerHStart; kh < kerHEnd; kh++) {
              let k = kh * (outC * p.kW) + kerWStart * outC + oc + tile;
              const inIdx = (inH + kh) * (inC * inX) + inW * inC + ic;
              for (let kw = kerWStart; kw < kerWEnd; kw++, k += outC) {
                const v = input[inIdx + kw * inC]! + off;
                o0 = (o0 + v * kernel[k]!) | 0;
                o1 = (o1 + v * kernel[k + 1]!) | 0;
                o2 = (o2 + v * kernel[k + 2]!) | 0;
                o3 = (o3 + v * kernel[k + 3]!) | 0;
              }
            }
            output[outIdx++] = requantizeClamp(o0, multiplier[b]!, shift[b]!, outOff, actMin, actMax);
            output[outIdx++] = requantizeClamp(o1, multiplier[b + 1]!, shift[b + 1]!, outOff, actMin, actMax);
            output[outIdx++] = requantizeClamp(o2, multiplier[b + 2]!, shift[b + 2]!, outOff, actMin, actMax);
            output[outIdx++] = requantizeClamp(o3, multiplier[b + 3]!, shift[b + 3]!, outOff, actMin, actMax);
            b += 4;
          }
        }
      }
    }
    return;
  }
  let outIdx = 0;
  for (let batch = 0; batch < p.batches; batch++) {
    const inBase = batch * inX * inY * inC;
    for (let oy = 0; oy < p.outH; oy++) {
      const baseY = oy * p.strideH - p.padH;
      for (let ox = 0; ox < p.outW; ox++) {
        const baseX = ox * p.strideW - p.padW;
        for (let ic = 0; ic < inC; ic++) {
          for (let mIdx = 0; mIdx < chMult; mIdx++) {
            const oc = mIdx + ic * chMult;
            const kxS = windowStart(baseX, p.dilW);
            const kxE = windowEnd(baseX, p.dilW, inX, p.kW);
            const kyS = windowStart(baseY, p.dilH);
            const kyE = windowEnd(baseY, p.dilH, inY, p.kH);
            let acc = bias !== null ? bias[oc]! : 0;
            for (let ky = kyS; ky < kyE; ky++) {
              const y = baseY + p.dilH * ky;
              for (let kx = kxS; kx < kxE; kx++) {
                const x = baseX + p.dilW * kx;
                acc = (acc + (input[inBase + (y * inX + x) * inC + ic]! + off) * kernel[(ky * p.kW + kx) * (inC * chMult) + oc]!) | 0;
              }
            }
            output[outIdx++] = requantizeClamp(acc, multiplier[oc]!, shift[oc]!, outOff, actMin, actMax);
          }
        }
      }
    }
  }
}

/** depthwise_conv_s8_mult_4 with the four weights of a tap read as one word (arm_nn_read_s8x4). */
function mult4Words(p: ConvParams, input: Int8Array, bias: Int32Array | null, output: Int8Array, w: WordOperands): void {
  const kv = w.wView!;
  const kb = w.wBase;
  const inX = p.inW;
  const inY = p.inH;
  const inC = p.inC;
  const outC = p.outC;
  const chMult = p.chMult;
  const kW = p.kW;
  const off = p.inputOffset;
  const multiplier = p.multiplier;
  const shift = p.shift;
  const outOff = p.outputOffset;
  const actMin = p.actMin;
  const actMax = p.actMax;
  let outIdx = 0;
  for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
    const kerHStart = Math.max(0, -inH);
    const kerHEnd = Math.min(p.kH, inY - inH);
    for (let inW = -p.padW, ox = 0; ox < p.outW; inW += p.strideW, ox++) {
      const kerWStart = Math.max(0, -inW);
      const kerWEnd = Math.min(kW, inX - inW);
      let b = 0;
      for (let ic = 0, oc = 0; oc < outC; ic++, oc += chMult) {
        for (let tile = 0; tile < chMult; tile += 4) {
          let o0 = 0;
          let o1 = 0;
          let o2 = 0;
          let o3 = 0;
          if (bias !== null) {
            o0 = bias[b]!;
            o1 = bias[b + 1]!;
            o2 = bias[b + 2]!;
            o3 = bias[b + 3]!;
          }
          for (let kh = kerHStart; kh < kerHEnd; kh++) {
            let k = kb + kh * (outC * kW) + kerWStart * outC + oc + tile;
            let i = (inH + kh) * (inC * inX) + (inW + kerWStart) * inC + ic;
            for (let kw = kerWStart; kw < kerWEnd; kw++, k += outC, i += inC) {
              const v = (input[i]! + off) | 0;
              const f = kv.getInt32(k, true);
              o0 = (o0 + Math.imul(v, (f << 24) >> 24)) | 0;
              o1 = (o1 + Math.imul(v, (f << 16) >> 24)) | 0;
              o2 = (o2 + Math.imul(v, (f << 8) >> 24)) | 0;
              o3 = (o3 + Math.imul(v, f >> 24)) | 0;
            }
          }
          output[outIdx++] = requantizeClamp(o0, multiplier[b]!, shift[b]!, outOff, actMin, actMax);
          output[outIdx++] = requantizeClamp(o1, multiplier[b + 1]!, shift[b + 1]!, outOff, actMin, actMax);
          output[outIdx++] = requantizeClamp(o2, multiplier[b + 2]!, shift[b + 2]!, outOff, actMin, actMax);
          output[outIdx++] = requantizeClamp(o3, multiplier[b + 3]!, shift[b + 3]!, outOff, actMin, actMax);
          b += 4;
        }
      }
    }
  }
}

function storeEmu(m: SimdMachine, p: ConvParams, acc: number, ch: number, output: Int8Array, idx: number): void {
  let r = m.add(m.requantize(acc, m.ldW(p.multiplier, ch), m.ldW(p.shift, ch)), p.outputOffset);
  r = m.max(r, p.actMin);
  r = m.min(r, p.actMax);
  m.stB(output, idx, r);
}

/** Emulated mode. `acc` is a 4-element scratch of the node. */
export function depthwiseConvS8Emu(
  m: SimdMachine,
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  acc: Int32Array,
): void {
  m.call();
  m.alu(6);
  m.branch();
  const inX = p.inW;
  const inY = p.inH;
  const inC = p.inC;
  const outC = p.outC;
  const chMult = p.chMult;
  const off = p.inputOffset;
  if (usesMult4(p)) {
    m.call();
    let outIdx = 0;
    for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
      const kerHStart = Math.max(0, -inH);
      const kerHEnd = Math.min(p.kH, inY - inH);
      m.alu(5);
      for (let inW = -p.padW, ox = 0; ox < p.outW; inW += p.strideW, ox++) {
        const kerWStart = Math.max(0, -inW);
        const kerWEnd = Math.min(p.kW, inX - inW);
        m.alu(8);
        let b = 0;
        for (let ic = 0, oc = 0; oc < outC; ic++, oc += chMult) {
          for (let tile = 0; tile < chMult; tile += 4) {
            acc[0] = acc[1] = acc[2] = acc[3] = 0;
            m.branch();
            if (bias !== null) {
              acc[0] = m.ldcW(bias, b);
              acc[1] = m.ldcW(bias, b + 1);
              acc[2] = m.ldcW(bias, b + 2);
              acc[3] = m.ldcW(bias, b + 3);
            }
            for (let kh = kerHStart; kh < kerHEnd; kh++) {
              let k = kh * (outC * p.kW) + kerWStart * outC + oc + tile;
              const inIdx = (inH + kh) * (inC * inX) + inW * inC + ic;
              m.alu(8);
              for (let kw = kerWStart; kw < kerWEnd; kw++, k += outC) {
                const v = m.add(m.ldS8(input, inIdx + kw * inC), off);
                acc[0] = m.mla(v, m.ldcS8(kernel, k), acc[0]!);
                acc[1] = m.mla(v, m.ldcS8(kernel, k + 1), acc[1]!);
                acc[2] = m.mla(v, m.ldcS8(kernel, k + 2), acc[2]!);
                acc[3] = m.mla(v, m.ldcS8(kernel, k + 3), acc[3]!);
                m.alu(3);
                m.loop();
              }
              m.loop();
            }
            storeEmu(m, p, acc[0]!, b, output, outIdx++);
            storeEmu(m, p, acc[1]!, b + 1, output, outIdx++);
            storeEmu(m, p, acc[2]!, b + 2, output, outIdx++);
            storeEmu(m, p, acc[3]!, b + 3, output, outIdx++);
            b += 4;
            m.loop();
          }
          m.loop();
        }
        m.loop();
      }
      m.loop();
    }
    return;
  }
  m.call();
  let outIdx = 0;
  for (let batch = 0; batch < p.batches; batch++) {
    const inBase = batch * inX * inY * inC;
    for (let oy = 0; oy < p.outH; oy++) {
      const baseY = oy * p.strideH - p.padH;
      m.alu(2);
      for (let ox = 0; ox < p.outW; ox++) {
        const baseX = ox * p.strideW - p.padW;
        m.alu(2);
        for (let ic = 0; ic < inC; ic++) {
          for (let mIdx = 0; mIdx < chMult; mIdx++) {
            const oc = mIdx + ic * chMult;
            m.alu(2);
            m.branch(2);
            if (p.dilW > 1) {
              m.sdiv(-baseX + p.dilW - 1, p.dilW);
              m.sdiv(inX - baseX + p.dilW - 1, p.dilW);
              m.alu(8);
            } else m.alu(6);
            if (p.dilH > 1) {
              m.sdiv(-baseY + p.dilH - 1, p.dilH);
              m.sdiv(inY - baseY + p.dilH - 1, p.dilH);
              m.alu(8);
            } else m.alu(6);
            const kxS = windowStart(baseX, p.dilW);
            const kxE = windowEnd(baseX, p.dilW, inX, p.kW);
            const kyS = windowStart(baseY, p.dilH);
            const kyE = windowEnd(baseY, p.dilH, inY, p.kH);
            let a = 0;
            m.branch();
            if (bias !== null) a = m.ldcW(bias, oc);
            for (let ky = kyS; ky < kyE; ky++) {
              const y = baseY + p.dilH * ky;
              m.mla(p.dilH, ky, baseY);
              for (let kx = kxS; kx < kxE; kx++) {
                const x = baseX + p.dilW * kx;
                m.mla(p.dilW, kx, baseX);
                m.alu(4); // input and kernel indices
                const v = m.add(m.ldS8(input, inBase + (y * inX + x) * inC + ic), off);
                a = m.mla(v, m.ldcS8(kernel, (ky * p.kW + kx) * (inC * chMult) + oc), a);
                m.loop();
              }
              m.loop();
            }
            storeEmu(m, p, a, oc, output, outIdx++);
            m.loop();
          }
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
