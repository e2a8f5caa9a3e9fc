import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { compareWithReference, floats } from '../../__tests__/single-op-float.js';
import { int, rng } from '../../__tests__/single-op.js';

function buildResize(seed: number) {
  const r = rng(seed);
  const [batches, inH, inW, C] = [int(r, 1, 2), int(r, 1, 8), int(r, 1, 8), int(r, 1, 19)];
  const outH = int(r, 1, 17);
  const outW = int(r, 1, 17);
  const mode = int(r, 0, 2);
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [batches, inH, inW, C] });
  const size = b.addTensor({ name: 'size', type: TensorType.INT32, shape: [2], data: Int32Array.of(outH, outW) });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [batches, outH, outW, C] });
  b.addOperator({
    op: BuiltinOperator.RESIZE_BILINEAR,
    version: 3,
    inputs: [x, size],
    outputs: [y],
    options: { alignCorners: mode === 1, halfPixelCenters: mode === 2 },
  });
  b.setInputs([x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: [floats(r, batches * inH * inW * C, -4, 4)],
    desc: JSON.stringify({ seed, batches, inH, inW, C, outH, outW, mode }),
  };
}

describe('RESIZE_BILINEAR float32 (wasm)', () => {
  it('agrees with ops-reference within 1e-5 + 1e-4·|b| on 80 random resizes (up and down, align_corners, half_pixel_centers, odd depths)', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const m = buildResize(seed);
      expect(compareWithReference(m.def, m.inputs, 1), m.desc).toBeNull();
    }
  });
});
