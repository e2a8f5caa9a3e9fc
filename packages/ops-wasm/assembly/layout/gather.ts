// GATHER of any fixed-size type, in bytes: for each batch and each params row before the gathered axis,
// every index of that batch picks one block (the dims after the axis) of that row, copied in index order
// — a load and a store for blocks of 1, 2, 4 or 8 bytes, memory.copy otherwise. The indices (int16, int32
// or int64) are read here, at invoke, and checked as TFLite's and ops-reference's GATHER check them:
// the first index outside [0, axis size), in the order the output is written, stops the copy and its
// position (batch · coords + c) is returned for src/kernels/gather.ts to report; -1 when all are in range.
import { GA_AXIS_SIZE, GA_BATCHES, GA_COORDS, GA_INDEX_BYTES, GA_INNER, GA_OUTER } from '../generated/abi';

// Parameter block GA (scripts/abi.mjs), written by src/kernels/gather.ts.

/** Index `c` of the table at `idx` (`ib` bytes per index), widened to i64. */
@inline function indexAt(idx: usize, c: i32, ib: i32): i64 {
  if (ib == 4) return <i64>load<i32>(idx + (<usize>c << 2));
  if (ib == 8) return load<i64>(idx + (<usize>c << 3));
  return <i64>load<i16>(idx + (<usize>c << 1));
}

/** The gather with blocks of type T (sizeof<T>() == inner) or, for T = u8 with `copy`, memory.copy of `inner` bytes. */
@inline function run<T>(p: usize, params: usize, indices: usize, output: usize, copy: bool): i32 {
  const batches = load<i32>(p, GA_BATCHES);
  const outer = load<i32>(p, GA_OUTER);
  const axis = load<i32>(p, GA_AXIS_SIZE);
  const coords = load<i32>(p, GA_COORDS);
  const inner = <usize>load<i32>(p, GA_INNER);
  const ib = load<i32>(p, GA_INDEX_BYTES);
  const rowBytes = <usize>axis * inner;
  let o = output;
  let row = params;
  for (let b = 0; b < batches; b++) {
    const idx = indices + <usize>(b * coords * ib);
    for (let k = 0; k < outer; k++) {
      for (let c = 0; c < coords; c++) {
        const v = indexAt(idx, c, ib);
        if (<u64>v >= <u64>axis) return b * coords + c;
        const src = row + <usize>v * inner;
        if (copy) memory.copy(o, src, inner);
        else store<T>(o, load<T>(src));
        o += inner;
      }
      row += rowBytes;
    }
  }
  return -1;
}

/** GATHER with the parameter block at `p`; returns -1, or the position of the first index out of range. */
export function gather_bytes(p: usize, params: usize, indices: usize, output: usize): i32 {
  const inner = load<i32>(p, GA_INNER);
  if (inner == 1) return run<u8>(p, params, indices, output, false);
  if (inner == 2) return run<u16>(p, params, indices, output, false);
  if (inner == 4) return run<u32>(p, params, indices, output, false);
  if (inner == 8) return run<u64>(p, params, indices, output, false);
  return run<u8>(p, params, indices, output, true);
}
