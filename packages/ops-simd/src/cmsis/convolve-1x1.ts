/**
 * The two 1x1 paths of arm_convolve_wrapper_s8 (no padding, 1x1 filter, no dilation, filter depth equal to
 * the input depth): no im2col is needed because every output position reads one contiguous input pixel.
 *
 * - arm_convolve_1x1_s8_fast (stride 1): one arm_nn_mat_mult_nt_t_s8 over all `N*H*W` pixels.
 * - arm_convolve_1x1_s8 (other strides): one arm_nn_mat_mult_nt_t_s8 per output row, its lhs rows
 *   `stride_w * C` apart, the next row starting `stride_h` input rows further.
 *
 * Neither needs scratch (arm_convolve_1x1_s8_fast_get_buffer_size returns 0).
 */
import type { SimdMachine } from '../machine.js';
import { matMultNtTS8Emu, matMultNtTS8Fast, type MatMultNtTArgs } from './mat-mult-nt-t-s8.js';
import type { ConvParams } from './types.js';

function bind(g: MatMultNtTArgs, input: Int8Array, filter: Int8Array, bias: Int32Array | null, output: Int8Array): void {
  g.lhs = input;
  g.rhs = filter;
  g.bias = bias;
  g.dst = output;
}

/** arm_convolve_1x1_s8_fast, fast mode. */
export function convolve1x1FastFast(
  p: ConvParams,
  g: MatMultNtTArgs,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  bind(g, input, filter, bias, output);
  g.lhsBase = 0;
  g.dstBase = 0;
  g.lhsRows = p.inW * p.inH * p.batches;
  g.rhsRows = p.outC;
  g.rhsCols = p.inC;
  g.lhsColsOffset = p.inC;
  matMultNtTS8Fast(g);
}

/** arm_convolve_1x1_s8_fast, emulated mode. */
export function convolve1x1FastEmu(
  m: SimdMachine,
  p: ConvParams,
  g: MatMultNtTArgs,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  m.call();
  m.alu(6); // argument checks, lhs_rows, rhs_rows, rhs_cols
  m.branch();
  bind(g, input, filter, bias, output);
  g.lhsBase = 0;
  g.dstBase = 0;
  g.lhsRows = p.inW * p.inH * p.batches;
  g.rhsRows = p.outC;
  g.rhsCols = p.inC;
  g.lhsColsOffset = p.inC;
  matMultNtTS8Emu(m, g);
}

/** arm_convolve_1x1_s8 (non-unit stride), fast mode. */
export function convolve1x1Fast(
  p: ConvParams,
  g: MatMultNtTArgs,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  bind(g, input, filter, bias, output);
  const rhsCols = p.inC;
  g.lhsRows = p.outW;
  g.rhsRows = p.outC;
  g.rhsCols = rhsCols;
  g.lhsColsOffset = rhsCols * p.strideW;
  const inputInc = p.inW * p.strideH * rhsCols;
  const outputInc = p.outW * p.outC;
  let out = 0;
  for (let b = 0; b < p.batches; b++) {
    let inp = b * rhsCols * p.inW * p.inH;
    for (let oy = 0; oy < p.outH; oy++) {
      g.lhsBase = inp;
      g.dstBase = out;
      matMultNtTS8Fast(g);
      inp += inputInc;
      out += outputInc;
    }
  }
}

/** arm_convolve_1x1_s8 (non-unit stride), emulated mode. */
export function convolve1x1Emu(
  m: SimdMachine,
  p: ConvParams,
  g: MatMultNtTArgs,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  m.call();
  m.alu(10);
  bind(g, input, filter, bias, output);
  const rhsCols = p.inC;
  g.lhsRows = p.outW;
  g.rhsRows = p.outC;
  g.rhsCols = rhsCols;
  g.lhsColsOffset = rhsCols * p.strideW;
  const inputInc = p.inW * p.strideH * rhsCols;
  const outputInc = p.outW * p.outC;
  let out = 0;
  for (let b = 0; b < p.batches; b++) {
    let inp = b * rhsCols * p.inW * p.inH;
    m.alu(3);
    for (let oy = 0; oy < p.outH; oy++) {
      g.lhsBase = inp;
      g.dstBase = out;
      matMultNtTS8Emu(m, g);
      m.branch(); // status check
      inp += inputInc;
      out += outputInc;
      m.alu(2);
      m.loop();
    }
    m.loop();
  }
}
