// int8 RSQRT by lookup: the 256-byte table src/kernels/rsqrt-lut.ts fills at prepare (kernel-support's
// rsqrtLutPopulateBytes, TFLM's RsqrtEvalQuantized per input byte), after a scan for inputs below the
// input zero point, which TFLM refuses ("Rsqrt is only defined for positive values").
import { lut_bytes } from '../layout/lut';

/**
 * output[i] = table[input[i]] for the `count` int8 values at `input`, and -1; or, when an input is below
 * `zp`, the index of the first such input (and nothing written). Sixteen inputs per step of the scan.
 */
export function qs8_rsqrt(table: usize, input: usize, output: usize, count: i32, zp: i32): i32 {
  if (zp > -128) {
    const n = <usize>count;
    const limit = i8x16.splat(<i8>zp);
    let i: usize = 0;
    for (; i + 16 <= n; i += 16) if (v128.any_true(i8x16.lt_s(v128.load(input + i), limit))) break;
    for (; i < n; i++) if (<i32>load<i8>(input + i) < zp) return <i32>i;
  }
  lut_bytes(table, input, output, count);
  return -1;
}
