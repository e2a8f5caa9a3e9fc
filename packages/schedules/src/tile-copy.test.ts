import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { arenaViews, cropWindow, fillOutside, gatherWindow, scatterTile, type Block } from './tile-copy.js';

/** An arena of int8 with a 3x4x2 source at byte 0 (values 1..24) and room after it. */
function arena() {
  const buf = new ArrayBuffer(256);
  const u8 = new Int8Array(buf);
  for (let i = 0; i < 24; i++) u8[i] = i + 1;
  const v = arenaViews(buf, TensorType.INT8, 1);
  const src: Block = { offset: 0, batch: 1, height: 3, width: 4, pixelBytes: 2 };
  return { buf, i8: u8, v, src };
}
/** Pixel (y, x) of the source: [c0, c1]. */
const px = (y: number, x: number) => [(y * 4 + x) * 2 + 1, (y * 4 + x) * 2 + 2];

describe('tile copies', () => {
  it('gatherWindow copies the in-image part and fills the rest (window partly above and left of the image)', () => {
    const { i8, v, src } = arena();
    const dst: Block = { offset: 64, batch: 1, height: 3, width: 3, pixelBytes: 2 };
    gatherWindow(v, src, dst, -1, -2, -9);
    const got = Array.from(i8.subarray(64, 64 + 18));
    const f = [-9, -9];
    expect(got).toEqual([...f, ...f, ...f, ...f, ...f, ...px(0, 0), ...f, ...f, ...px(1, 0)]);
  });

  it('gatherWindow past the right and bottom edges', () => {
    const { i8, v, src } = arena();
    const dst: Block = { offset: 64, batch: 1, height: 2, width: 3, pixelBytes: 2 };
    gatherWindow(v, src, dst, 2, 2, 0);
    expect(Array.from(i8.subarray(64, 76))).toEqual([...px(2, 2), ...px(2, 3), 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('fillOutside keeps a box and fills around it; a box covering the block changes nothing', () => {
    const { i8, v } = arena();
    const b: Block = { offset: 0, batch: 1, height: 3, width: 4, pixelBytes: 2 };
    fillOutside(v, b, 0, 3, 0, 4, 100);
    expect(Array.from(i8.subarray(0, 24))).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    fillOutside(v, b, 1, 5, -3, 2, 0);
    const expected = Array.from({ length: 24 }, (_, i) => {
      const y = Math.floor(i / 8);
      const x = Math.floor((i % 8) / 2);
      return y >= 1 && x < 2 ? i + 1 : 0;
    });
    expect(Array.from(i8.subarray(0, 24))).toEqual(expected);
  });

  it('fills multi-byte elements with their value (float32)', () => {
    const buf = new ArrayBuffer(64);
    const v = arenaViews(buf, TensorType.FLOAT32, 4);
    fillOutside(v, { offset: 16, batch: 1, height: 2, width: 2, pixelBytes: 4 }, 1, 2, 0, 2, -3.5);
    expect(Array.from(new Float32Array(buf, 16, 4))).toEqual([-3.5, -3.5, 0, 0]);
  });

  it('cropWindow and scatterTile move rows of pixels, batch by batch', () => {
    const { i8, v, src } = arena();
    const crop: Block = { offset: 64, batch: 1, height: 2, width: 2, pixelBytes: 2 };
    cropWindow(v, src, crop, 1, 1);
    expect(Array.from(i8.subarray(64, 72))).toEqual([...px(1, 1), ...px(1, 2), ...px(2, 1), ...px(2, 2)]);
    const out: Block = { offset: 128, batch: 1, height: 3, width: 4, pixelBytes: 2 };
    scatterTile(v, crop, out, 1, 2, 2, 1);
    const o = Array.from(i8.subarray(128, 152));
    expect(o.slice((1 * 4 + 2) * 2, (1 * 4 + 3) * 2)).toEqual(px(1, 1));
    expect(o.slice((2 * 4 + 2) * 2, (2 * 4 + 3) * 2)).toEqual(px(2, 1));
    expect(o.filter((x) => x !== 0)).toHaveLength(4);
  });
});
