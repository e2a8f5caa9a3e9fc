import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { HYBRID_LSTM_CASES, buildLstmF32, firstDifference, type LstmF32Variants } from '../../__tests__/single-op-lstm-f32.js';
import { runF32 } from '../../__tests__/single-op-float.js';
import { wasm } from '../../__tests__/single-op.js';

// ops-reference is TFLite's hybrid LSTM (checked against TFLite 2.9 in its test/tflite-recurrent.tflite-oracle.test.ts).
// Every float32 step here is its operation in its order (the int8 dot products are exact; sigmoid and tanh
// as its Math.exp and Math.tanh), so the outputs are equal, not within a tolerance: the output state is
// quantized again each step, where a last-bit difference could move a value by a quantization step.
describe('hybrid UNIDIRECTIONAL_SEQUENCE_LSTM (wasm) equals ops-reference', () => {
  it.each(HYBRID_LSTM_CASES)('%s: 12 random LSTMs, 4 invokes (the states carry over)', (_, v) => {
    for (let seed = 1; seed <= 12; seed++) {
      const m = buildLstmF32(seed, v);
      const ref = runF32(m.def, m.inputs, false, undefined, 4);
      const got = runF32(m.def, m.inputs, true, undefined, 4);
      expect(got.served, m.desc).toBe(1);
      expect(firstDifference(got.outs[0]!, ref.outs[0]!), m.desc).toBeNull();
    }
  });

  it('a realistic size (40 inputs, 128 cells, 50 steps, 2 batches), symmetric and asymmetric, with peepholes and projection', () => {
    const sizes = { T: 50, I: 40, S: 128 };
    for (const [seed, v] of [
      [1, { asymmetric: false }],
      [2, { asymmetric: true, timeMajor: true }],
      [3, { asymmetric: true, peephole: true }],
      [4, { asymmetric: false, peephole: true, projection: true, timeMajor: true }],
    ] as [number, LstmF32Variants][]) {
      const m = buildLstmF32(seed, { batches: 2, timeMajor: false, ...v, hybrid: 'int8', sizes });
      const ref = runF32(m.def, m.inputs, false, undefined, 2);
      const got = runF32(m.def, m.inputs, true, undefined, 2);
      expect(got.served, m.desc).toBe(1);
      expect(firstDifference(got.outs[0]!, ref.outs[0]!), m.desc).toBeNull();
    }
  });

  it('declines layer normalization (ops-reference serves it, the same outputs)', () => {
    for (const seed of [1, 2]) {
      const m = buildLstmF32(seed, { layerNorm: true, hybrid: 'int8', asymmetric: seed === 2 });
      const got = runF32(m.def, m.inputs, true, undefined, 2);
      expect(got.served, m.desc).toBe(0);
      expect(firstDifference(got.outs[0]!, runF32(m.def, m.inputs, false, undefined, 2).outs[0]!)).toBeNull();
    }
  });

  it('declines per-channel weight scales with the reason (TFLite and ops-reference take one scale per tensor)', () => {
    const m = buildLstmF32(3, { hybrid: 'int8', perChannel: true });
    const hybrid = wasm().kernels.find((k) => k.name === 'UNIDIRECTIONAL_SEQUENCE_LSTM/wasm-hybrid')!;
    const resolver = new OpResolver().registerAll([hybrid], { fallback: true });
    const planner = createPlanner('greedy');
    expect(() => new MicroInterpreter(m.def, resolver, { planner, arenaBacking: wasm().arenaBacking }).allocateTensors()).toThrow(
      /per-channel scales on weight tensor \d+ \(TFLite's hybrid LSTM reads one scale per tensor/,
    );
    // ops-reference reports them too
    expect(() => runF32(m.def, m.inputs, false)).toThrow(/one positive scale/);
  });
});
