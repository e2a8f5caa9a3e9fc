// RESIZE_NEAREST_NEIGHBOR of any element type: every output pixel is a copy of one input pixel, chosen at
// prepare with TFLite's float32 arithmetic (kernel-support's nearestNeighbor, src/kernels/resize-nearest-
// neighbor.ts) into a table of source rows and one of source columns (byte offsets). An output row whose
// source row is the previous row's (upscaling) is a copy of the output row just written. Pixels of 1, 2,
// 4, 8 or 16 bytes move as one load and store, others with memory.copy. Parameter block RN (scripts/abi.mjs).
import { RN_BATCHES, RN_COLS, RN_IN_IMAGE, RN_OUT_H, RN_OUT_W, RN_PIXEL_BYTES, RN_ROWS } from '../generated/abi';

export function resize_nearest_bytes(p: usize, input: usize, output: usize): void {
  const batches = load<i32>(p, RN_BATCHES), outH = load<i32>(p, RN_OUT_H), outW = load<i32>(p, RN_OUT_W);
  const px = load<i32>(p, RN_PIXEL_BYTES);
  const inImage = <usize>load<u32>(p, RN_IN_IMAGE);
  const rows = <usize>load<u32>(p, RN_ROWS);
  const cols = <usize>load<u32>(p, RN_COLS);
  const rowBytes = <usize>(outW * px);
  let o = output;
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>b * inImage;
    let previous: i32 = -1;
    for (let y = 0; y < outH; y++) {
      const src = load<i32>(rows + <usize>(y << 2));
      if (src == previous) {
        memory.copy(o, o - rowBytes, rowBytes);
        o += rowBytes;
        continue;
      }
      previous = src;
      const r = image + <usize>src;
      if (px == 1) {
        for (let x = 0; x < outW; x++) store<u8>(o + <usize>x, load<u8>(r + <usize>load<u32>(cols + <usize>(x << 2))));
      } else if (px == 2) {
        for (let x = 0; x < outW; x++) store<u16>(o + <usize>(x << 1), load<u16>(r + <usize>load<u32>(cols + <usize>(x << 2))));
      } else if (px == 4) {
        for (let x = 0; x < outW; x++) store<u32>(o + <usize>(x << 2), load<u32>(r + <usize>load<u32>(cols + <usize>(x << 2))));
      } else if (px == 8) {
        for (let x = 0; x < outW; x++) store<u64>(o + <usize>(x << 3), load<u64>(r + <usize>load<u32>(cols + <usize>(x << 2))));
      } else if (px == 16) {
        for (let x = 0; x < outW; x++) v128.store(o + <usize>(x << 4), v128.load(r + <usize>load<u32>(cols + <usize>(x << 2))));
      } else {
        for (let x = 0; x < outW; x++) memory.copy(o + <usize>(x * px), r + <usize>load<u32>(cols + <usize>(x << 2)), <usize>px);
      }
      o += rowBytes;
    }
  }
}
