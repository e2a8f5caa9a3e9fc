// PAD with a constant byte (int8: the output zero point; float32/int32/int16: zero bytes) over up to
// five dimensions, in bytes. src/kernels/pad.ts collapses trailing dimensions that are not padded into
// the innermost one, so each copy moves whole runs of the input (memory.copy / memory.fill).
import { PD_L, PD_O, PD_R, PD_VALUE } from '../generated/abi';

// Parameter block PD (scripts/abi.mjs): output dims o0..o4 (o4 in bytes), leading pads l0..l4,
// trailing pads r0..r4 (l4, r4 in bytes), the fill byte.

export function pad_bytes(p: usize, input: usize, output: usize): void {
  const o0 = load<i32>(p, PD_O), o1 = load<i32>(p, PD_O + 4), o2 = load<i32>(p, PD_O + 8), o3 = load<i32>(p, PD_O + 12), o4 = load<i32>(p, PD_O + 16);
  const l0 = load<i32>(p, PD_L), l1 = load<i32>(p, PD_L + 4), l2 = load<i32>(p, PD_L + 8), l3 = load<i32>(p, PD_L + 12), l4 = load<i32>(p, PD_L + 16);
  const e0 = o0 - load<i32>(p, PD_R), e1 = o1 - load<i32>(p, PD_R + 4), e2 = o2 - load<i32>(p, PD_R + 8), e3 = o3 - load<i32>(p, PD_R + 12);
  const r4 = load<i32>(p, PD_R + 16);
  const in4 = o4 - l4 - r4;
  const v = <u8>load<i32>(p, PD_VALUE);
  let out = output;
  let inp = input;
  for (let i0 = 0; i0 < o0; i0++) {
    const p0 = i0 < l0 || i0 >= e0;
    for (let i1 = 0; i1 < o1; i1++) {
      const p1 = p0 || i1 < l1 || i1 >= e1;
      for (let i2 = 0; i2 < o2; i2++) {
        const p2 = p1 || i2 < l2 || i2 >= e2;
        if (p2) {
          // the whole o3 x o4 block is padding
          memory.fill(out, v, <usize>(o3 * o4));
          out += <usize>(o3 * o4);
          continue;
        }
        for (let i3 = 0; i3 < o3; i3++) {
          if (i3 < l3 || i3 >= e3) {
            memory.fill(out, v, <usize>o4);
          } else {
            if (l4 > 0) memory.fill(out, v, <usize>l4);
            memory.copy(out + <usize>l4, inp, <usize>in4);
            if (r4 > 0) memory.fill(out + <usize>(l4 + in4), v, <usize>r4);
            inp += <usize>in4;
          }
          out += <usize>o4;
        }
      }
    }
  }
}
