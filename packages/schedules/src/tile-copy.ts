/**
 * The byte moves of patch execution, on views of the whole arena: copy a window of an NHWC tensor into
 * a tile buffer (positions outside the source filled with a value), fill everything outside a box of a
 * tile buffer, crop a sub-window, copy a tile into its place in the stage output. Row segments move
 * with `copyWithin` (one native memmove each) and fills use `fill` on a typed view of the arena, so
 * nothing allocates. Offsets are in bytes; every row segment is a whole number of pixels.
 */
import { TensorType, makeTypedView, type TensorData } from '@micrort/core';

/** Views of the arena: bytes, and elements of one type (for fills). */
export interface ArenaViews {
  u8: Uint8Array;
  /** Elements of the buffer's type over the whole arena (index = byte offset / element size). */
  elements: TensorData;
  elementSize: number;
}

/** The views of `buffer` for tensors of `type` (element size `es`). */
export function arenaViews(buffer: ArrayBufferLike, type: TensorType, es: number): ArenaViews {
  return { u8: new Uint8Array(buffer), elements: makeTypedView(type, buffer, 0, Math.floor(buffer.byteLength / es)), elementSize: es };
}

function fillBytes(v: ArenaViews, from: number, to: number, value: number): void {
  if (to <= from) return;
  const es = v.elementSize;
  (v.elements as Int8Array).fill(value, from / es, to / es);
}

/** An NHWC block of the arena: byte offset and sizes. */
export interface Block {
  offset: number;
  batch: number;
  height: number;
  width: number;
  /** Bytes per pixel (channels × element size). */
  pixelBytes: number;
}

/**
 * Copies the `dst.height × dst.width` window of `src` whose top-left pixel is (`y0`, `x0`) (may lie
 * outside `src`) into `dst`; pixels outside `src` get `fill`.
 */
export function gatherWindow(v: ArenaViews, src: Block, dst: Block, y0: number, x0: number, fill: number): void {
  const pb = dst.pixelBytes;
  const rowBytes = dst.width * pb;
  const c0 = Math.min(dst.width, Math.max(0, -x0));
  const c1 = Math.max(c0, Math.min(dst.width, src.width - x0));
  const u8 = v.u8;
  for (let n = 0; n < dst.batch; n++) {
    for (let r = 0; r < dst.height; r++) {
      const d = dst.offset + (n * dst.height + r) * rowBytes;
      const sy = y0 + r;
      if (sy < 0 || sy >= src.height) {
        fillBytes(v, d, d + rowBytes, fill);
        continue;
      }
      fillBytes(v, d, d + c0 * pb, fill);
      const s = src.offset + ((n * src.height + sy) * src.width + x0 + c0) * pb;
      u8.copyWithin(d + c0 * pb, s, s + (c1 - c0) * pb);
      fillBytes(v, d + c1 * pb, d + rowBytes, fill);
    }
  }
}

/** Fills every pixel of `dst` outside rows [y0, y1) × columns [x0, x1) (clamped to the block) with `fill`. */
export function fillOutside(v: ArenaViews, dst: Block, y0: number, y1: number, x0: number, x1: number, fill: number): void {
  const h = dst.height;
  const w = dst.width;
  const ry0 = Math.max(0, Math.min(h, y0));
  const ry1 = Math.max(ry0, Math.min(h, y1));
  const cx0 = Math.max(0, Math.min(w, x0));
  const cx1 = Math.max(cx0, Math.min(w, x1));
  if (ry0 === 0 && ry1 === h && cx0 === 0 && cx1 === w) return;
  const pb = dst.pixelBytes;
  const rowBytes = w * pb;
  for (let n = 0; n < dst.batch; n++) {
    const base = dst.offset + n * h * rowBytes;
    fillBytes(v, base, base + ry0 * rowBytes, fill);
    for (let r = ry0; r < ry1; r++) {
      const d = base + r * rowBytes;
      fillBytes(v, d, d + cx0 * pb, fill);
      fillBytes(v, d + cx1 * pb, d + rowBytes, fill);
    }
    fillBytes(v, base + ry1 * rowBytes, base + h * rowBytes, fill);
  }
}

/** Copies the `dst.height × dst.width` window of `src` at (`dy`, `dx`) (inside `src`) into `dst`. */
export function cropWindow(v: ArenaViews, src: Block, dst: Block, dy: number, dx: number): void {
  const pb = dst.pixelBytes;
  const rowBytes = dst.width * pb;
  const u8 = v.u8;
  for (let n = 0; n < dst.batch; n++) {
    for (let r = 0; r < dst.height; r++) {
      const s = src.offset + ((n * src.height + dy + r) * src.width + dx) * pb;
      const d = dst.offset + (n * dst.height + r) * rowBytes;
      u8.copyWithin(d, s, s + rowBytes);
    }
  }
}

/** Copies rows [0, rows) × columns [0, cols) of `src` into `dst` at (`y0`, `x0`). */
export function scatterTile(v: ArenaViews, src: Block, dst: Block, y0: number, x0: number, rows: number, cols: number): void {
  const pb = src.pixelBytes;
  const bytes = cols * pb;
  const u8 = v.u8;
  for (let n = 0; n < src.batch; n++) {
    for (let r = 0; r < rows; r++) {
      const s = src.offset + (n * src.height + r) * src.width * pb;
      const d = dst.offset + ((n * dst.height + y0 + r) * dst.width + x0) * pb;
      u8.copyWithin(d, s, s + bytes);
    }
  }
}
