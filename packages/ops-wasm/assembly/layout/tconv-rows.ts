// The transposed convolutions split by bands of output rows [oh0, oh1) (float32, int8/uint8, 16x8): the
// input rows whose window (output rows ih * sH - padH .. ih * sH - padH + kH - 1) reaches the band.

/** The first input row whose window reaches output row `oh0` or below. */
@inline export function bandFirstInputRow(oh0: i32, padH: i32, kH: i32, sH: i32): i32 {
  const ih0 = oh0 + padH - kH + 1;
  return ih0 <= 0 ? 0 : (ih0 + sH - 1) / sH;
}

/** One past the last input row (at most `inH`) whose window starts above output row `oh1`. */
@inline export function bandEndInputRow(oh1: i32, padH: i32, sH: i32, inH: i32): i32 {
  return min(inH, (oh1 - 1 + padH) / sH + 1);
}
