/**
 * Fast mode and emulated mode share one algorithm: for each CMSIS-NN port both must visit the output in
 * the same tiles and order (the sequence of output stores) and, where the fast mode reads words, read the
 * same words in the same order (which pins the register blocking, e.g. 2 x 2 rows x channels in
 * arm_nn_mat_mult_nt_t_s8, and the column steps and tails). Shapes are odd on purpose so that every tail
 * (odd lhs row, odd rhs row, columns % 16, % 4, leftover channels, odd output position) is hit.
 */
import { describe, expect, it } from 'vitest';
import {
  lcg,
  newTrace,
  placed,
  tracedOutput,
  tracedView,
  TracingMachine,
  type AccessTrace,
  type TracedArray,
} from '../__tests__/access-trace.js';
import { convolveS8BufferSize, convolveS8Emu, convolveS8Fast, newMatMultKernelArgs, type ConvolveS8Work } from './convolve-s8.js';
import { depthwiseConv3x3Emu, depthwiseConv3x3Fast } from './depthwise-conv-3x3-s8.js';
import { depthwiseConvS8OptBufferSize, depthwiseConvS8OptEmu, depthwiseConvS8OptFast } from './depthwise-conv-s8-opt.js';
import { depthwiseConvS8Emu, depthwiseConvS8Fast } from './depthwise-conv-s8.js';
import { fullyConnectedS8Emu, fullyConnectedS8Fast, type FullyConnectedArgs } from './fully-connected-s8.js';
import { matMultNtTS8Emu, matMultNtTS8Fast, newMatMultNtTArgs, type MatMultNtTArgs } from './mat-mult-nt-t-s8.js';
import { emptyConvParams, type ConvParams } from './types.js';
import { noWordOperands } from './word-view.js';

/** Fast word path, fast element path, emulated: traces and output bytes. */
interface Runs {
  words: { trace: AccessTrace; out: number[] };
  bytes: { trace: AccessTrace; out: number[] };
  emu: { trace: AccessTrace; out: number[] };
}

/** The three runs must agree; the word path's word reads must equal the emulated word loads. */
function expectSameBlocking(r: Runs, compareWords = true): void {
  expect(r.emu.trace.stores.length).toBe(r.emu.out.length); // every output stored exactly once
  expect(new Set(r.emu.trace.stores).size).toBe(r.emu.out.length);
  expect(r.words.trace.stores).toEqual(r.emu.trace.stores);
  expect(r.bytes.trace.stores).toEqual(r.emu.trace.stores);
  if (compareWords) {
    expect(r.emu.trace.words.length).toBeGreaterThan(0);
    expect(r.words.trace.words).toEqual(r.emu.trace.words);
  }
  expect(r.words.out).toEqual(r.emu.out);
  expect(r.bytes.out).toEqual(r.emu.out);
  expect(new Set(r.emu.out).size).toBeGreaterThan(2);
}

/** Per-channel multipliers and right shifts (`-minShift - (i % shiftMod)`). */
function multipliers(n: number, base: number, step: number, shiftMod: number, minShift = 2): { multiplier: Int32Array; shift: Int32Array } {
  return {
    multiplier: Int32Array.from({ length: n }, (_, i) => base + i * step),
    shift: Int32Array.from({ length: n }, (_, i) => -(i % shiftMod) - minShift),
  };
}

describe('arm_nn_mat_mult_nt_t_s8: fast = emulated blocking (2 lhs rows x 2 rhs rows, columns by 16 / 4 / 1)', () => {
  const shapes: [string, number, number, number, number][] = [
    // name, lhsRows, rhsRows, rhsCols, lhsColsOffset
    ['odd lhs and rhs rows, 37 columns (16+16+4+1)', 5, 7, 37, 37],
    ['even everything, 16 columns', 4, 4, 16, 16],
    ['one lhs row, 20 columns (16 + 4)', 1, 6, 20, 20],
    ['strided lhs rows (1x1 stride 2), 12 columns', 3, 6, 12, 24],
    ['3 columns (tail only)', 4, 3, 3, 3],
  ];
  it.each(shapes)('%s', (_n, lhsRows, rhsRows, rhsCols, lco) => {
    const rnd = lcg(lhsRows * 131 + rhsCols * 7 + rhsRows);
    const lhs = placed((lhsRows - 1) * lco + rhsCols, 3, rnd);
    const rhs = placed(rhsRows * rhsCols, 1, rnd);
    const bias = Int32Array.from({ length: rhsRows }, () => rnd() * 40);
    const q = { lhsOffset: 7, dstOffset: -4, actMin: -120, actMax: 110, ...multipliers(rhsRows, 1200000000, 7654321, 3, 6) };
    const arrays: TracedArray[] = [
      { name: 'lhs', array: lhs },
      { name: 'rhs', array: rhs },
    ];
    const run = (mode: 'words' | 'bytes' | 'emu') => {
      const trace = newTrace();
      const dst = new Int8Array(lhsRows * rhsRows);
      const g: MatMultNtTArgs = newMatMultNtTArgs(q);
      Object.assign(g, { lhs, lhsBase: 0, rhs, bias, dst, dstBase: 0, lhsRows, rhsRows, rhsCols, lhsColsOffset: lco });
      if (mode === 'emu') {
        matMultNtTS8Emu(new TracingMachine(arrays, dst, trace), g);
      } else {
        g.dst = tracedOutput(dst, trace);
        if (mode === 'words') {
          Object.assign(g, {
            lhsView: tracedView([arrays[0]!], trace),
            lhsViewBase: lhs.byteOffset,
            rhsView: tracedView([arrays[1]!], trace),
            rhsViewBase: rhs.byteOffset,
          });
        }
        matMultNtTS8Fast(g);
      }
      return { trace, out: Array.from(dst) };
    };
    expectSameBlocking({ words: run('words'), bytes: run('bytes'), emu: run('emu') }, rhsCols >= 4);
  });
});

function dwParams(inH: number, inW: number, inC: number, chMult: number, kH: number, kW: number, stride: number, pad: number): ConvParams {
  const p = emptyConvParams();
  const outC = inC * chMult;
  Object.assign(p, {
    batches: 1,
    inH,
    inW,
    inC,
    kH,
    kW,
    kC: 1,
    outC,
    chMult,
    strideH: stride,
    strideW: stride,
    padH: pad,
    padW: pad,
    outH: Math.floor((inH + 2 * pad - kH) / stride) + 1,
    outW: Math.floor((inW + 2 * pad - kW) / stride) + 1,
    inputOffset: 9,
    outputOffset: 3,
    actMin: -128,
    actMax: 127,
    ...multipliers(outC, 1100000000, 3456789, 7),
  });
  return p;
}

type DwPath = '3x3' | 'generic' | 'opt';

describe('depthwise: fast = emulated blocking (one pixel at a time, four channels, then leftovers)', () => {
  const cases: [string, DwPath, number, number, number, number, number, number, number, number][] = [
    // name, path, inH, inW, inC, chMult, kH, kW, stride, pad
    ['3x3, 11 channels (4+4+3), padding 1', '3x3', 5, 6, 11, 1, 3, 3, 1, 1],
    ['3x3, 8 channels, stride 2, no padding, right edge clipped', '3x3', 7, 8, 8, 1, 3, 3, 2, 0],
    ['3x3, 5 channels, stride 2, padding 1', '3x3', 6, 5, 5, 1, 3, 3, 2, 1],
    ['generic mult-4: 3 channels x 8, 3x3 stride 2, padding 1', 'generic', 6, 6, 3, 8, 3, 3, 2, 1],
    ['generic: 2 channels x 3, 2x3 filter', 'generic', 5, 6, 2, 3, 2, 3, 1, 0],
    ['opt: 5x5, 6 channels (4 + 2), odd tap count, padding 2', 'opt', 6, 6, 6, 1, 5, 5, 1, 2],
    ['opt: 2x4 filter, 9 channels, stride 2', 'opt', 5, 9, 9, 1, 2, 4, 2, 0],
  ];
  it.each(cases)('%s', (_n, path, inH, inW, inC, chMult, kH, kW, stride, pad) => {
    const rnd = lcg(inH * 17 + inC * 5 + kH);
    const p = dwParams(inH, inW, inC, chMult, kH, kW, stride, pad);
    const input = placed(inH * inW * inC, 3, rnd);
    const kernel = placed(kH * kW * p.outC, 1, rnd);
    const bias = Int32Array.from({ length: p.outC }, () => rnd() * 30);
    const n = p.outH * p.outW * p.outC;
    const arrays: TracedArray[] = [
      { name: 'input', array: input },
      { name: 'kernel', array: kernel },
    ];
    const col = new Int16Array(depthwiseConvS8OptBufferSize(inC, kH, kW) / 2);
    const run = (mode: 'words' | 'bytes' | 'emu') => {
      const trace = newTrace();
      const out = new Int8Array(n);
      if (mode === 'emu') {
        const m = new TracingMachine(arrays, out, trace);
        if (path === '3x3') depthwiseConv3x3Emu(m, p, input, kernel, bias, out, new Int32Array(4));
        else if (path === 'opt') depthwiseConvS8OptEmu(m, p, input, kernel, bias, out, col);
        else depthwiseConvS8Emu(m, p, input, kernel, bias, out, new Int32Array(4));
      } else {
        const w = noWordOperands();
        if (mode === 'words') {
          Object.assign(w, {
            inView: tracedView([arrays[0]!], trace),
            inBase: input.byteOffset,
            wView: tracedView([arrays[1]!], trace),
            wBase: kernel.byteOffset,
          });
        }
        const o = tracedOutput(out, trace);
        if (path === '3x3') depthwiseConv3x3Fast(p, input, kernel, bias, o, w);
        else if (path === 'opt') depthwiseConvS8OptFast(p, input, kernel, bias, o, col);
        else depthwiseConvS8Fast(p, input, kernel, bias, o, w);
      }
      return { trace, out: Array.from(out) };
    };
    // Only arm_depthwise_conv_3x3_s8 reads words in both modes (the generic path is plain C in CMSIS-NN;
    // the opt path's fast mode reads elements), so the others compare stores and bytes.
    expectSameBlocking({ words: run('words'), bytes: run('bytes'), emu: run('emu') }, path === '3x3');
  });
});

describe('arm_convolve_s8: fast = emulated blocking (two im2col columns x two channels, odd position last)', () => {
  const cases: [string, number, number, number, number, number, number, number, number][] = [
    // name, inH, inW, inC, kC (groups = inC / kC), outC, k, stride, pad
    ['3x3 over 3 channels (27 columns: 16 + 8 + 3), 5 channels, 9 positions', 5, 5, 3, 3, 5, 3, 2, 1],
    ['2x2 over 4 channels, 6 channels, 12 positions', 4, 5, 4, 4, 6, 2, 1, 0],
    ['grouped: 2 groups of 2 input channels, 3x3, 3 positions each side', 3, 5, 4, 2, 6, 3, 1, 0],
  ];
  it.each(cases)('%s', (_n, inH, inW, inC, kC, outC, k, stride, pad) => {
    const rnd = lcg(inH * 31 + outC * 3 + kC);
    const p = emptyConvParams();
    Object.assign(p, {
      batches: 1,
      inH,
      inW,
      inC,
      kH: k,
      kW: k,
      kC,
      outC,
      strideH: stride,
      strideW: stride,
      padH: pad,
      padW: pad,
      outH: Math.floor((inH + 2 * pad - k) / stride) + 1,
      outW: Math.floor((inW + 2 * pad - k) / stride) + 1,
      inputOffset: -5,
      outputOffset: 2,
      actMin: -128,
      actMax: 127,
      ...multipliers(outC, 1300000000, 2345678, 8),
    });
    const input = placed(inH * inW * inC, 2, rnd);
    const filter = placed(outC * k * k * kC, 3, rnd);
    const bias = Int32Array.from({ length: outC }, () => rnd() * 50);
    const n = p.outH * p.outW * outC;
    const bytes = convolveS8BufferSize(kC, k, k);
    const scratch = new ArrayBuffer(bytes + 16);
    const buf8 = new Int8Array(scratch, 6, bytes);
    const buf16 = new Int16Array(scratch, 6, bytes / 2);
    const arrays: TracedArray[] = [
      { name: 'filter', array: filter },
      { name: 'col', array: buf16 },
    ];
    const run = (mode: 'words' | 'bytes' | 'emu') => {
      const trace = newTrace();
      const out = new Int8Array(n);
      buf8.fill(0);
      const w: ConvolveS8Work = { p, buf8, buf16, kernel: newMatMultKernelArgs(p) };
      if (mode === 'emu') {
        convolveS8Emu(new TracingMachine(arrays, out, trace), w, input, filter, bias, out);
      } else {
        if (mode === 'words') {
          Object.assign(w.kernel, {
            aView: tracedView([arrays[0]!], trace),
            aViewBase: filter.byteOffset,
            bView: tracedView([arrays[1]!], trace),
            bViewBase: buf16.byteOffset,
          });
        }
        convolveS8Fast(w, input, filter, bias, tracedOutput(out, trace));
      }
      return { trace, out: Array.from(out) };
    };
    expectSameBlocking({ words: run('words'), bytes: run('bytes'), emu: run('emu') });
  });
});

describe('arm_fully_connected_s8: fast = emulated blocking (two weight rows, columns by 4, odd row last)', () => {
  it.each([
    ['kernel sums, 3 batches, 7 rows, 23 columns', true, 3, 7, 23],
    ['DSP formulation (offset on the fly), 1 batch, 6 rows, 16 columns', false, 1, 6, 16],
  ] as [string, boolean, number, number, number][])('%s', (_n, sums, batches, rows, depth) => {
    const rnd = lcg(rows * 11 + depth);
    const input = placed(batches * depth, 1, rnd);
    const weights = placed(rows * depth, 2, rnd);
    const bias = Int32Array.from({ length: rows }, () => rnd() * 60);
    const kernelSums = sums
      ? Int32Array.from({ length: rows }, (_, r) => weights.subarray(r * depth, (r + 1) * depth).reduce((a, b) => a + b, 0))
      : null;
    const g: FullyConnectedArgs = {
      batches,
      depth,
      rows,
      lhsOffset: 6,
      dstOffset: -3,
      multiplier: 1250000000,
      shift: -7,
      actMin: -128,
      actMax: 127,
      kernelSums,
    };
    const run = (mode: 'bytes' | 'emu') => {
      const trace = newTrace();
      const out = new Int8Array(batches * rows);
      if (mode === 'emu') fullyConnectedS8Emu(new TracingMachine([], out, trace), g, input, weights, bias, out);
      else fullyConnectedS8Fast(g, input, weights, bias, tracedOutput(out, trace));
      return { trace, out: Array.from(out) };
    };
    const bytesRun = run('bytes');
    expectSameBlocking({ words: bytesRun, bytes: bytesRun, emu: run('emu') }, false);
  });
});
