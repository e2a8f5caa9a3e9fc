// TRANSPOSE of elements of 1, 2, 4 or 8 bytes over up to six dimensions. src/kernels/transpose.ts
// writes, at prepare, the output dims (front-padded with 1s, axes of size 1 dropped, neighbouring axes
// that stay neighbours in the input merged) and for each output axis the stride in bytes of the input
// axis it reads. With d4, d5 the two innermost output axes and s4, s5 their input strides:
//
// - s5 = es (the innermost axis is the input's): each output row of d5 elements is one memory.copy;
// - s4 = es (the input's innermost axis is the output's second): every output block d4 × d5 is a 2-D
//   transpose of d5 input rows (s5 bytes apart) of d4 elements:
//   - d5 = C in 2..4 (NCHW → NHWC): C planes interleaved into pixels (transpose-planes.ts);
//   - d4 = C in 2..4 and s5 = C·es (NHWC → NCHW): packed pixels split into C planes;
//   - both ≥ 16 / es: (16/es)-element square tiles through SIMD registers (transpose-tiles.ts), the
//     edges element by element;
// - otherwise, and for element sizes a path lacks, the loops follow the output, so the writes are
//   sequential and the reads strided.
import { TP_D, TP_ES, TP_S } from '../generated/abi';
import {
  deinterleave2x1,
  deinterleave2x2,
  deinterleave2x4,
  deinterleave3x1,
  deinterleave3x2,
  deinterleave3x4,
  deinterleave4x1,
  deinterleave4x2,
  deinterleave4x4,
  interleave2x1,
  interleave2x2,
  interleave2x4,
  interleave3x1,
  interleave3x2,
  interleave3x4,
  interleave4x1,
  interleave4x2,
  interleave4x4,
} from './transpose-planes';
import { tile1, tile2, tile4, tile8 } from './transpose-tiles';

// Parameter block TP (scripts/abi.mjs): dims d0..d5, input byte strides s0..s5, element size.

@inline function general<T>(p: usize, input: usize, output: usize): void {
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

/** Element by element: out[b·a + i] = in[i·stride + b·es] for b < rows, i < cols, from (r0, c0) on within the block. */
@inline function scalar2d<T>(src: usize, stride: usize, out: usize, rows: i32, cols: i32, r0: i32, r1: i32, c0: i32): void {
  for (let b = r0; b < r1; b++) {
    let s = src + <usize>b * sizeof<T>() + <usize>c0 * stride;
    let o = out + (<usize>b * <usize>cols + <usize>c0) * sizeof<T>();
    for (let a = c0; a < cols; a++) {
      store<T>(o, load<T>(s));
      o += sizeof<T>();
      s += stride;
    }
  }
}

/** A block out[b][a] = in[a·stride + b·es] (rows b < `rows`, columns a < `cols`) in square tiles of 16/es elements. */
@inline function tiled<T>(src: usize, stride: usize, out: usize, rows: i32, cols: i32): void {
  const n = 16 / sizeof<T>();
  const rowBytes = <usize>cols * sizeof<T>();
  const rt = rows - rows % <i32>n, ct = cols - cols % <i32>n;
  for (let b = 0; b < rt; b += <i32>n) {
    const o = out + <usize>b * rowBytes;
    const s = src + <usize>b * sizeof<T>();
    for (let a = 0; a < ct; a += <i32>n) {
      const at = s + <usize>a * stride, to = o + <usize>a * sizeof<T>();
      if (sizeof<T>() == 1) tile1(at, stride, to, rowBytes);
      else if (sizeof<T>() == 2) tile2(at, stride, to, rowBytes);
      else if (sizeof<T>() == 4) tile4(at, stride, to, rowBytes);
      else tile8(at, stride, to, rowBytes);
    }
    if (ct < cols) scalar2d<T>(src, stride, out, rows, cols, b, b + <i32>n, ct);
  }
  scalar2d<T>(src, stride, out, rows, cols, rt, rows, 0);
}

/** One output block d4 × d5 (`rows` × `cols`) of the 2-D case. */
@inline function block<T>(src: usize, stride: usize, out: usize, rows: i32, cols: i32): void {
  const es = sizeof<T>();
  if (es <= 4 && cols >= 2 && cols <= 4) {
    // NCHW → NHWC: `cols` planes of `rows` pixels
    if (cols == 2) {
      if (es == 1) interleave2x1(src, stride, out, rows);
      else if (es == 2) interleave2x2(src, stride, out, rows);
      else interleave2x4(src, stride, out, rows);
    } else if (cols == 3) {
      if (es == 1) interleave3x1(src, stride, out, rows);
      else if (es == 2) interleave3x2(src, stride, out, rows);
      else interleave3x4(src, stride, out, rows);
    } else {
      if (es == 1) interleave4x1(src, stride, out, rows);
      else if (es == 2) interleave4x2(src, stride, out, rows);
      else interleave4x4(src, stride, out, rows);
    }
  } else if (es <= 4 && rows >= 2 && rows <= 4 && stride == <usize>rows * es) {
    // NHWC → NCHW: `cols` packed pixels of `rows` elements into `rows` planes of `cols`
    const plane = <usize>cols * es;
    if (rows == 2) {
      if (es == 1) deinterleave2x1(src, out, plane, cols);
      else if (es == 2) deinterleave2x2(src, out, plane, cols);
      else deinterleave2x4(src, out, plane, cols);
    } else if (rows == 3) {
      if (es == 1) deinterleave3x1(src, out, plane, cols);
      else if (es == 2) deinterleave3x2(src, out, plane, cols);
      else deinterleave3x4(src, out, plane, cols);
    } else {
      if (es == 1) deinterleave4x1(src, out, plane, cols);
      else if (es == 2) deinterleave4x2(src, out, plane, cols);
      else deinterleave4x4(src, out, plane, cols);
    }
  } else {
    tiled<T>(src, stride, out, rows, cols);
  }
}

/** The 2-D case (s4 = es): the blocks d4 × d5 over the outer axes d0..d3. */
@inline function planes<T>(p: usize, input: usize, output: usize): void {
  const d0 = load<i32>(p, TP_D), d1 = load<i32>(p, TP_D + 4), d2 = load<i32>(p, TP_D + 8);
  const d3 = load<i32>(p, TP_D + 12), d4 = load<i32>(p, TP_D + 16), d5 = load<i32>(p, TP_D + 20);
  const s0 = <usize>load<i32>(p, TP_S), s1 = <usize>load<i32>(p, TP_S + 4), s2 = <usize>load<i32>(p, TP_S + 8);
  const s3 = <usize>load<i32>(p, TP_S + 12), s5 = <usize>load<i32>(p, TP_S + 20);
  const blockBytes = <usize>d4 * <usize>d5 * sizeof<T>();
  let out = output;
  for (let i0 = 0; i0 < d0; i0++) {
    for (let i1 = 0; i1 < d1; i1++) {
      for (let i2 = 0; i2 < d2; i2++) {
        const b2 = input + <usize>i0 * s0 + <usize>i1 * s1 + <usize>i2 * s2;
        for (let i3 = 0; i3 < d3; i3++) {
          block<T>(b2 + <usize>i3 * s3, s5, out, d4, d5);
          out += blockBytes;
        }
      }
    }
  }
}

/** The row case (s5 = es): each output row of d5 elements is contiguous in the input. */
function rows(p: usize, input: usize, output: usize, es: i32): void {
  const d0 = load<i32>(p, TP_D), d1 = load<i32>(p, TP_D + 4), d2 = load<i32>(p, TP_D + 8);
  const d3 = load<i32>(p, TP_D + 12), d4 = load<i32>(p, TP_D + 16), d5 = load<i32>(p, TP_D + 20);
  const s0 = <usize>load<i32>(p, TP_S), s1 = <usize>load<i32>(p, TP_S + 4), s2 = <usize>load<i32>(p, TP_S + 8);
  const s3 = <usize>load<i32>(p, TP_S + 12), s4 = <usize>load<i32>(p, TP_S + 16);
  const row = <usize>d5 * <usize>es;
  let out = output;
  for (let i0 = 0; i0 < d0; i0++) {
    for (let i1 = 0; i1 < d1; i1++) {
      for (let i2 = 0; i2 < d2; i2++) {
        const b2 = input + <usize>i0 * s0 + <usize>i1 * s1 + <usize>i2 * s2;
        for (let i3 = 0; i3 < d3; i3++) {
          let src = b2 + <usize>i3 * s3;
          for (let i4 = 0; i4 < d4; i4++) {
            memory.copy(out, src, row);
            out += row;
            src += s4;
          }
        }
      }
    }
  }
}

@inline function dispatch<T>(p: usize, input: usize, output: usize): void {
  const es = <i32>sizeof<T>();
  const d5 = load<i32>(p, TP_D + 20);
  const s4 = load<i32>(p, TP_S + 16), s5 = load<i32>(p, TP_S + 20);
  if (s5 == es && d5 * es >= 16) rows(p, input, output, es);
  else if (s4 == es && s5 != es) planes<T>(p, input, output);
  else general<T>(p, input, output);
}

/** Permutes the tensor at `input` into `output` with the parameter block at `p`. */
export function transpose_bytes(p: usize, input: usize, output: usize): void {
  const es = load<i32>(p, TP_ES);
  if (es == 1) dispatch<u8>(p, input, output);
  else if (es == 2) dispatch<u16>(p, input, output);
  else if (es == 4) dispatch<u32>(p, input, output);
  else dispatch<u64>(p, input, output);
}
