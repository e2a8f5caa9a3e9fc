// MIRROR_PAD of 1-, 2-, 4- or 8-byte elements as a short list of strided box copies that
// src/kernels/mirror-pad.ts computes at prepare: the input into the output's interior, then for each
// padded axis its two border slabs, each a copy of a reversed view (negative stride) of output elements
// written before it (TFLM's clamp of a right border longer than the mirror repeats one slice: a stride
// of 0). Each copy walks a 6-D box with its own read and write byte strides; where both inner strides are
// one element the innermost rows move by memory.copy.
import { MC_BYTES, MC_D, MC_DST, MC_FROM_OUT, MC_S, MC_SRC, MC_T, MP_COPY, MP_COUNT, MP_ES } from '../generated/abi';

// Parameter block MP with its MC records (scripts/abi.mjs), written by src/kernels/mirror-pad.ts.

/** One box copy, element by element along the innermost axis (or by memory.copy of whole rows). */
@inline function box<T>(c: usize, src: usize, dst: usize): void {
  const d0 = load<i32>(c, MC_D), d1 = load<i32>(c, MC_D + 4), d2 = load<i32>(c, MC_D + 8);
  const d3 = load<i32>(c, MC_D + 12), d4 = load<i32>(c, MC_D + 16), d5 = load<i32>(c, MC_D + 20);
  const s0 = <usize>load<i32>(c, MC_S), s1 = <usize>load<i32>(c, MC_S + 4), s2 = <usize>load<i32>(c, MC_S + 8);
  const s3 = <usize>load<i32>(c, MC_S + 12), s4 = <usize>load<i32>(c, MC_S + 16), s5 = <usize>load<i32>(c, MC_S + 20);
  const t0 = <usize>load<i32>(c, MC_T), t1 = <usize>load<i32>(c, MC_T + 4), t2 = <usize>load<i32>(c, MC_T + 8);
  const t3 = <usize>load<i32>(c, MC_T + 12), t4 = <usize>load<i32>(c, MC_T + 16), t5 = <usize>load<i32>(c, MC_T + 20);
  const rows = s5 == sizeof<T>() && t5 == sizeof<T>();
  const rowBytes = <usize>d5 * sizeof<T>();
  for (let i0 = 0; i0 < d0; i0++) {
    for (let i1 = 0; i1 < d1; i1++) {
      for (let i2 = 0; i2 < d2; i2++) {
        for (let i3 = 0; i3 < d3; i3++) {
          let a = src + <usize>i0 * s0 + <usize>i1 * s1 + <usize>i2 * s2 + <usize>i3 * s3;
          let b = dst + <usize>i0 * t0 + <usize>i1 * t1 + <usize>i2 * t2 + <usize>i3 * t3;
          for (let i4 = 0; i4 < d4; i4++) {
            if (rows) memory.copy(b, a, rowBytes);
            else {
              let x = a, y = b;
              for (let i5 = 0; i5 < d5; i5++) {
                store<T>(y, load<T>(x));
                x += s5;
                y += t5;
              }
            }
            a += s4;
            b += t4;
          }
        }
      }
    }
  }
}

/** MIRROR_PAD with the parameter block at `p`: its copies in order. */
export function mirror_pad_bytes(p: usize, input: usize, output: usize): void {
  const n = load<i32>(p, MP_COUNT);
  const es = load<i32>(p, MP_ES);
  for (let k = 0; k < n; k++) {
    const c = p + MP_COPY + <usize>k * MC_BYTES;
    const src = (load<i32>(c, MC_FROM_OUT) != 0 ? output : input) + <usize>load<i32>(c, MC_SRC);
    const dst = output + <usize>load<i32>(c, MC_DST);
    if (es == 1) box<u8>(c, src, dst);
    else if (es == 2) box<u16>(c, src, dst);
    else if (es == 4) box<u32>(c, src, dst);
    else box<u64>(c, src, dst);
  }
}
