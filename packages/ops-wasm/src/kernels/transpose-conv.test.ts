import { describe, expect, it } from 'vitest';
import { buildTransposeConvQ, randomTransposeConvCase, randomTransposeConvQuant } from '../__tests__/single-op-tconv.js';
import { runBoth } from '../__tests__/single-op.js';

describe('TRANSPOSE_CONV int8, uint8 and 16x8 (wasm) are bit-exact with ops-reference', () => {
  it.each([
    ['int8 (per-channel or per-tensor symmetric filter)', false, false],
    ["TFLite's uint8 (per-tensor, any zero points)", true, false],
    ['16x8 (int16 activations, int8 filter, int64 or int16 bias)', false, true],
  ])(
    '%s on 150 random odd shapes: kernels 2-5, strides 1-3, SAME/VALID, zero points at the extremes, left and right shifts',
    (_, uint8, int16) => {
      for (let seed = 1; seed <= 150; seed++) {
        const c = randomTransposeConvCase(seed, false);
        const q = randomTransposeConvQuant(seed, uint8, int16);
        const m = buildTransposeConvQ(c, q);
        const r = runBoth(m.def, [m.input]);
        const what = JSON.stringify({ ...c, ...q });
        expect(r.served, what).toBe(1);
        expect(r.got, what).toEqual(r.ref);
      }
    },
  );
});
