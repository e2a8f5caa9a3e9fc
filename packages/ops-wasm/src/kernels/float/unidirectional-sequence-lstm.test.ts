import { describe, expect, it } from 'vitest';
import { LSTM_F32_CASES, buildLstmF32 } from '../../__tests__/single-op-lstm-f32.js';
import { firstMismatch, runF32 } from '../../__tests__/single-op-float.js';

/** Three invokes each: the states carry over, so later invokes check the state update too. */
describe('UNIDIRECTIONAL_SEQUENCE_LSTM float32 (wasm gate GEMMs) within 1e-5 + 1e-4·|ref| of ops-reference', () => {
  it.each(LSTM_F32_CASES)('%s: 20 random LSTMs', (_, v) => {
    for (let seed = 1; seed <= 20; seed++) {
      const m = buildLstmF32(seed, v);
      const ref = runF32(m.def, m.inputs, false, undefined, 3);
      const got = runF32(m.def, m.inputs, true, undefined, 3);
      expect(got.served, m.desc).toBe(1);
      expect(firstMismatch(got.outs[0]!, ref.outs[0]!), m.desc).toBeNull();
    }
  });

  it('declines layer normalization (ops-reference serves it, same outputs)', () => {
    for (const seed of [1, 2]) {
      const m = buildLstmF32(seed, { layerNorm: true });
      const got = runF32(m.def, m.inputs, true);
      expect(got.served, m.desc).toBe(0);
      expect(firstMismatch(got.outs[0]!, runF32(m.def, m.inputs, false).outs[0]!)).toBeNull();
    }
  });
});
