/**
 * RESIZE_BILINEAR (int8, int16, uint8) and RESIZE_NEAREST_NEIGHBOR (every type ops-reference takes) in
 * WebAssembly against ops-reference, byte for byte, on random single-op models: batches, sizes up and
 * down (scales above and below one, so half_pixel_centers' first rows fall before the first input pixel),
 * depths 1-20 and 32 (the scalar path below eight channels, the overlapping last group above), every
 * option (none, align_corners, half_pixel_centers), random quantization parameters (which the kernels
 * must ignore), the int8 extremes -128 and 127, constant inputs.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { runBoth } from '../__tests__/single-op.js';
import { buildResize, type ResizeCase } from '../__tests__/single-op-resize.js';

function expectSame(m: ResizeCase): void {
  const r = runBoth(m.def, m.inputs);
  expect(r.served, m.desc).toBe(1);
  expect(r.got[0], m.desc).toEqual(r.ref[0]);
}

describe('RESIZE_BILINEAR int8, int16 and uint8 (wasm) equal ops-reference byte for byte', () => {
  it('on 200 random resizes of each type: up and down, every option, depths 1-20 and 32, batches 1-2', () => {
    for (const type of [TensorType.INT8, TensorType.INT16, TensorType.UINT8])
      for (let seed = 1; seed <= 200; seed++) expectSame(buildResize(seed, 'RESIZE_BILINEAR', type));
  });

  it('on constant inputs (copied into the module memory at prepare)', () => {
    for (const type of [TensorType.INT8, TensorType.INT16, TensorType.UINT8])
      for (let seed = 301; seed <= 310; seed++) expectSame(buildResize(seed, 'RESIZE_BILINEAR', type, true));
  });

  it('on the rounding ties and extremes: 2x2 of -128/127 and 0/255 upscaled 2x-7x with half_pixel_centers', () => {
    for (const [type, lo, hi] of [
      [TensorType.INT8, -128, 127],
      [TensorType.UINT8, 0, 255],
    ] as const)
      for (let k = 2; k <= 7; k++)
        for (let mode = 0; mode <= 2; mode++) {
          const b = new ModelBuilder();
          const x = b.addTensor({ name: 'x', type, shape: [1, 2, 2, 9], quantization: { scale: 1, zeroPoint: 0 } });
          const size = b.addTensor({ name: 'size', type: TensorType.INT32, shape: [2], data: Int32Array.of(2 * k, 2 * k + 1) });
          const y = b.addTensor({ name: 'y', type, shape: [1, 2 * k, 2 * k + 1, 9], quantization: { scale: 1, zeroPoint: 0 } });
          b.addOperator({
            op: BuiltinOperator.RESIZE_BILINEAR,
            version: 3,
            inputs: [x, size],
            outputs: [y],
            options: { alignCorners: mode === 1, halfPixelCenters: mode === 2 },
          });
          const values = Int8Array.from({ length: 36 }, (_, i) => ((i * 7) % 3 === 0 ? lo : i % 2 ? hi : lo + 1));
          expectSame({ def: b.setInputs([x]).setOutputs([y]).buildDef(), inputs: [values], desc: JSON.stringify({ type, k, mode }) });
        }
  });
});

describe('RESIZE_BILINEAR int16 (wasm): the 37-bit blend in int32 pieces', () => {
  it('equals ops-reference at the extremes and on half-way ties of both signs: -32768/32767 and small odd values, 2x-9x, every option, 8-24 channels', () => {
    for (let k = 2; k <= 9; k++)
      for (let mode = 0; mode <= 2; mode++)
        for (const C of [8, 13, 24]) {
          const b = new ModelBuilder();
          const q = { scale: 1, zeroPoint: 0 };
          const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [1, 3, 2, C], quantization: q });
          const size = b.addTensor({ name: 'size', type: TensorType.INT32, shape: [2], data: Int32Array.of(3 * k, 2 * k + 1) });
          const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [1, 3 * k, 2 * k + 1, C], quantization: q });
          b.addOperator({
            op: BuiltinOperator.RESIZE_BILINEAR,
            version: 4,
            inputs: [x, size],
            outputs: [y],
            options: { alignCorners: mode === 1, halfPixelCenters: mode === 2 },
          });
          const pool = [-32768, 32767, -32767, 32766, -1, 1, -3, 3, 0, -2, 5, -5];
          const values = Int16Array.from({ length: 6 * C }, (_, i) => pool[(i * 7 + k) % pool.length]!);
          expectSame({
            def: b.setInputs([x]).setOutputs([y]).buildDef(),
            inputs: [new Int8Array(values.buffer)],
            desc: JSON.stringify({ k, mode, C }),
          });
        }
  });
});

describe('RESIZE_NEAREST_NEIGHBOR (wasm) equals ops-reference byte for byte', () => {
  const TYPES = [
    TensorType.INT8,
    TensorType.UINT8,
    TensorType.FLOAT32,
    TensorType.INT16,
    TensorType.INT32,
    TensorType.FLOAT16,
    TensorType.UINT16,
    TensorType.UINT32,
    TensorType.BOOL,
  ];
  it('on 100 random resizes of int8, uint8 and float32 each, and 30 of every other type: pixels of 1 to 128 bytes, every option', () => {
    for (const type of TYPES) {
      const count = TYPES.indexOf(type) < 3 ? 100 : 30;
      for (let seed = 1; seed <= count; seed++) expectSame(buildResize(seed, 'RESIZE_NEAREST_NEIGHBOR', type));
    }
  });

  it('on constant inputs', () => {
    for (const type of [TensorType.INT8, TensorType.FLOAT32])
      for (let seed = 301; seed <= 306; seed++) expectSame(buildResize(seed, 'RESIZE_NEAREST_NEIGHBOR', type, true));
  });
});
