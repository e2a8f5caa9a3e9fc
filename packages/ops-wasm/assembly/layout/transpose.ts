// TRANSPOSE of elements of 1, 2, 4 or 8 bytes over up to six dimensions. src/kernels/transpose.ts
// writes, at prepare, the output dims (front-padded with 1s, neighbouring axes that stay neighbours in
// the input merged) and for each output axis the stride in bytes of the input axis it reads; the loops
// follow the output, so the writes are sequential and the reads strided.
import { TP_D, TP_ES, TP_S } from '../generated/abi';

// Parameter block TP (scripts/abi.mjs): dims d0..d5, input byte strides s0..s5, element size.

@inline function run<T>(p: usize, input: usize, output: usize): void {
  const d0 = load<i32>(p, TP_D), d1 = load<i32>(p, TP_D + 4), d2 = load<i32>(p, TP_D + 8);
  const d3 = load<i32>(p, TP_D + 12), d4 = load<i32>(p, TP_D + 16), d5 = load<i32>(p, TP_D + 20);
  const s0 = <usize>load<i32>(p, TP_S), s1 = <usize>load<i32>(p, TP_S + 4), s2 = <usize>load<i32>(p, TP_S + 8);
  const s3 = <usize>load<i32>(p, TP_S + 12), s4 = <usize>load<i32>(p, TP_S + 16), s5 = <usize>load<i32>(p, TP_S + 20);
  let out = output;
  for (let i0 = 0; i0 < d0; i0++) {
    const b0 = input + <usize>i0 * s0;
    for (let i1 = 0; i1 < d1; i1++) {
      const b1 = b0 + <usize>i1 * s1;
      for (let i2 = 0; i2 < d2; i2++) {
        const b2 = b1 + <usize>i2 * s2;
        for (let i3 = 0; i3 < d3; i3++) {
          let src4 = b2 + <usize>i3 * s3;
          for (let i4 = 0; i4 < d4; i4++) {
            let src = src4;
            for (let i5 = 0; i5 < d5; i5++) {
              store<T>(out, load<T>(src));
              out += sizeof<T>();
              src += s5;
            }
            src4 += s4;
          }
        }
      }
    }
  }
}

/** Permutes the tensor at `input` into `output` with the parameter block at `p`. */
export function transpose_bytes(p: usize, input: usize, output: usize): void {
  const es = load<i32>(p, TP_ES);
  if (es == 1) run<u8>(p, input, output);
  else if (es == 2) run<u16>(p, input, output);
  else if (es == 4) run<u32>(p, input, output);
  else run<u64>(p, input, output);
}
