/**
 * The fast mode's word paths (DataView reads of four int8, see word-view.ts) against its byte paths and
 * the emulated machine, on operands placed at unaligned offsets of shared buffers, as in a real arena.
 * Kernel tests through KernelHarness give every tensor its own buffer, so they exercise the byte paths.
 */
import { describe, expect, it } from 'vitest';
import { SimdMachine } from '../machine.js';
import { INSTR_CLASS_COUNT } from '../counters.js';
import { matMultNtTS8Emu, matMultNtTS8Fast, newMatMultNtTArgs, type MatMultNtTArgs } from './mat-mult-nt-t-s8.js';
import { depthwiseConv3x3Emu, depthwiseConv3x3Fast } from './depthwise-conv-3x3-s8.js';
import { depthwiseConvS8Emu, depthwiseConvS8Fast } from './depthwise-conv-s8.js';
import { emptyConvParams, type ConvParams } from './types.js';
import { bufferView, noWordOperands, viewBase, type WordOperands } from './word-view.js';

function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) | 0;
    return s >> 24; // int8
  };
}

/** `n` random int8 at byte `offset` of a fresh buffer with room around them. */
function placed(n: number, offset: number, rnd: () => number): Int8Array {
  const a = new Int8Array(new ArrayBuffer(n + offset + 8), offset, n);
  for (let i = 0; i < n; i++) a[i] = rnd();
  return a;
}

function words(input: Int8Array, weights: Int8Array): WordOperands {
  const w = noWordOperands();
  w.inView = bufferView(input.buffer);
  w.wView = bufferView(weights.buffer);
  w.inBase = viewBase(w.inView, input);
  w.wBase = viewBase(w.wView, weights);
  return w;
}

describe('viewBase', () => {
  it('is the byte offset in the viewed buffer, or -1 for another buffer or no view', () => {
    const buf = new ArrayBuffer(64);
    const v = bufferView(buf);
    expect(viewBase(v, new Int8Array(buf, 13, 4))).toBe(13);
    expect(viewBase(v, new Int8Array(8))).toBe(-1);
    expect(viewBase(null, new Int8Array(buf))).toBe(-1);
  });
});

describe('arm_nn_mat_mult_nt_t_s8 fast: word path = byte path = emulated', () => {
  const shapes: [string, number, number, number, number, number][] = [
    // name, lhsRows, rhsRows, rhsCols, lhsColsOffset, lhs offset in its buffer
    ['even rows and channels, cols % 4 = 0', 6, 4, 16, 16, 0],
    ['odd lhs rows, odd rhs rows, cols % 4 = 3', 5, 7, 11, 11, 3],
    ['strided lhs rows (1x1 stride 2), unaligned', 3, 6, 12, 24, 1],
    ['one column', 4, 3, 1, 1, 2],
  ];
  it.each(shapes)('%s', (_n, lhsRows, rhsRows, rhsCols, lco, lhsAt) => {
    const rnd = lcg(lhsRows * 131 + rhsCols);
    const lhs = placed((lhsRows - 1) * lco + rhsCols, lhsAt, rnd);
    const rhs = placed(rhsRows * rhsCols, 5, rnd);
    const bias = Int32Array.from({ length: rhsRows }, () => rnd() * 40);
    const q = {
      lhsOffset: 7,
      dstOffset: -4,
      actMin: -120,
      actMax: 110,
      multiplier: Int32Array.from({ length: rhsRows }, (_, i) => 1200000000 + i * 7654321),
      shift: Int32Array.from({ length: rhsRows }, (_, i) => -(i % 9) - 1),
    };
    const run = (mode: 'words' | 'bytes' | 'emu') => {
      const g: MatMultNtTArgs = newMatMultNtTArgs(q);
      Object.assign(g, {
        lhs,
        lhsBase: 0,
        rhs,
        bias,
        dst: new Int8Array(lhsRows * rhsRows),
        dstBase: 0,
        lhsRows,
        rhsRows,
        rhsCols,
        lhsColsOffset: lco,
      });
      if (mode === 'words') {
        const w = words(lhs, rhs);
        Object.assign(g, { lhsView: w.inView, lhsViewBase: w.inBase, rhsView: w.wView, rhsViewBase: w.wBase });
      }
      if (mode === 'emu') matMultNtTS8Emu(new SimdMachine(new Float64Array(INSTR_CLASS_COUNT)), g);
      else matMultNtTS8Fast(g);
      return Array.from(g.dst);
    };
    const emu = run('emu');
    expect(run('words')).toEqual(emu);
    expect(run('bytes')).toEqual(emu);
    expect(new Set(emu).size).toBeGreaterThan(2);
  });
});

function dwParams(inH: number, inW: number, inC: number, chMult: number, k: number, stride: number, pad: number): ConvParams {
  const p = emptyConvParams();
  const outC = inC * chMult;
  Object.assign(p, {
    batches: 1,
    inH,
    inW,
    inC,
    kH: k,
    kW: k,
    kC: 1,
    outC,
    chMult,
    strideH: stride,
    strideW: stride,
    padH: pad,
    padW: pad,
    outH: Math.floor((inH + 2 * pad - k) / stride) + 1,
    outW: Math.floor((inW + 2 * pad - k) / stride) + 1,
    inputOffset: 9,
    outputOffset: 3,
    actMin: -128,
    actMax: 127,
    multiplier: Int32Array.from({ length: outC }, (_, i) => 1100000000 + i * 3456789),
    shift: Int32Array.from({ length: outC }, (_, i) => -(i % 7) - 2),
  });
  return p;
}

describe('depthwise fast: word path = byte path = emulated', () => {
  const cases: [string, number, number, number, number, number, number, number][] = [
    // name, inH, inW, inC, chMult, k, stride, pad
    ['3x3, 8 channels, padding 1', 5, 6, 8, 1, 3, 1, 1],
    ['3x3, 7 channels (block + remainder), stride 2, no padding', 7, 7, 7, 1, 3, 2, 0],
    ['mult-4 variant: 1 channel x 8, 3x3 stride 2, padding 1', 6, 6, 1, 8, 3, 2, 1],
    ['mult-4 variant: 3 channels x 4, 5x5', 6, 5, 3, 4, 5, 1, 2],
  ];
  it.each(cases)('%s', (_n, inH, inW, inC, chMult, k, stride, pad) => {
    const rnd = lcg(inH * 17 + inC);
    const p = dwParams(inH, inW, inC, chMult, k, stride, pad);
    const input = placed(inH * inW * inC, 3, rnd);
    const kernel = placed(k * k * p.outC, 1, rnd);
    const bias = Int32Array.from({ length: p.outC }, () => rnd() * 30);
    const n = p.outH * p.outW * p.outC;
    const three = k === 3 && chMult === 1;
    const run = (mode: 'words' | 'bytes' | 'emu') => {
      const out = new Int8Array(n);
      const w = mode === 'words' ? words(input, kernel) : noWordOperands();
      if (mode === 'emu') {
        const m = new SimdMachine(new Float64Array(INSTR_CLASS_COUNT));
        if (three) depthwiseConv3x3Emu(m, p, input, kernel, bias, out, new Int32Array(4));
        else depthwiseConvS8Emu(m, p, input, kernel, bias, out, new Int32Array(4));
      } else if (three) depthwiseConv3x3Fast(p, input, kernel, bias, out, w);
      else depthwiseConvS8Fast(p, input, kernel, bias, out, w);
      return Array.from(out);
    };
    const emu = run('emu');
    expect(run('words')).toEqual(emu);
    expect(run('bytes')).toEqual(emu);
    expect(new Set(emu).size).toBeGreaterThan(2);
  });
});
